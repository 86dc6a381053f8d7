"""A query's one reading for this run: the warehouse's when it has read the text before (the SQL a
person confirmed, generated and dry-run a step earlier), else one parse in a CPU worker under its
budget, judged by the warehouse on the tree that comes back."""

from __future__ import annotations

from agent.tools import steps
from agent.context import AgentContext
from agent.sql.checked import CheckedQuery

CHECKING_SQL = "Checking the SQL"


async def checked_sql(ctx: AgentContext, sql: str) -> CheckedQuery:
    """`sql` (in the warehouse's dialect) read once and guarded; UnsafeSqlError or SqlSyntaxError if not."""
    known = ctx.warehouse.known(sql)
    if known is not None:
        return known
    return ctx.warehouse.check(await ctx.cpu.run(CHECKING_SQL, steps.guard, sql, ctx.warehouse.dialect))
