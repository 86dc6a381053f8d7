"""The offline model's reads of the data on one run's context (`agent.context.DataReader`): the
router's checks and a question's SemanticParse, made by the tools' reader on the person's own view.
The composition root (`agent.bootstrap`) hands the offline model this class to make one per run. It
is the offline model's alone (nothing else reads through it), so it lives beside it in `agent.llm`.

Imports nothing heavy at import time: the reader and the SQL layer are imported by the first read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.errors import AssistantError

if TYPE_CHECKING:
    from agent.context import AgentContext
    from agent.tools.semantic import SemanticParse

# Below this share of recognised words an intent is a guess (a season word in a poem request).
DATA_INTENT_CONFIDENCE = 0.75
# A catalog match this strong makes a message a data question even when the semantic
# model cannot express it (the free path or a clear "I can't" answers it then).
DATA_MATCH_SCORE = 1.0


class RunReader:
    """The offline model's reads (`agent.context.DataReader`) on one run's context: the router's
    checks and a question's SemanticParse, on the person's own view of the data."""

    def __init__(self, context: AgentContext) -> None:
        self.context = context

    async def is_data_question(self, question: str) -> bool:
        from agent.marks import FOLLOW_UP_MARK
        from agent.tools.semantic import read_question

        ctx = self.context
        # The turn's one reading (in a CPU worker under its budget), which discovery and the SQL reuse.
        extraction = (await read_question(ctx, question))[0]
        if extraction.unsupported or extraction.unknown_values or extraction.ambiguous or extraction.understood \
                or extraction.understood_tables:
            # the data's words, even where the reader must ask which one is meant or what a word adds
            return True
        if extraction.intent is not None and extraction.confidence >= DATA_INTENT_CONFIDENCE:
            return True
        latest = question.split(FOLLOW_UP_MARK)[-1]
        matches = ctx.catalog.search(latest, limit=1)
        return bool(matches) and matches[0].score >= DATA_MATCH_SCORE

    async def knows_term(self, text: str) -> bool:
        catalog = self.context.catalog
        if catalog.lookup_terms(text):
            return True
        docs = catalog.search_docs(text, limit=1)
        return bool(docs) and docs[0].score >= 0.5

    async def sql_runs(self, sql: str) -> bool:
        from agent.sql.dialect import DEFAULT_DIALECT
        from agent.sql.parse import transpile

        warehouse = self.context.warehouse
        try:
            native = transpile(sql, read=DEFAULT_DIALECT, write=warehouse.dialect)
            # On a warehouse slot under its budget, through the person's scoped warehouse.
            await warehouse.adry_run(native)
        except AssistantError:
            return False
        return True

    async def read_intent(self, question: str) -> SemanticParse:
        from agent.tools.semantic import aoffline_parse

        return await aoffline_parse(self.context, question)
