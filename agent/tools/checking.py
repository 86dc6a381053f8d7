"""A query's one reading for this run: the warehouse's when it has read the text before (the SQL a
person confirmed, generated and dry-run a step earlier), else one parse in a CPU worker under its
budget, judged by the warehouse on the tree that comes back."""

from __future__ import annotations

from agent.tools import steps
from agent.context import AgentContext
from agent.sql.checked import CheckedQuery
from agent.sql.parse import clean_sql_text

CHECKING_SQL = "Checking the SQL"


async def checked_sql(ctx: AgentContext, sql: str) -> CheckedQuery:
    """`sql` (in the warehouse's dialect) read once and guarded; UnsafeSqlError or SqlSyntaxError if not."""
    known = ctx.warehouse.known(clean_sql_text(sql))
    if known is None:
        known = await ctx.cpu.run(CHECKING_SQL, steps.guard, sql, ctx.warehouse.dialect)
    return ctx.warehouse.check(known)
