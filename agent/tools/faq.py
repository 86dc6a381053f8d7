"""`datasuite_faq`: "how do I / what is" answers from the docs and glossary kept in the repo."""

import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated

import yaml
from langchain_core.tools import tool
from agent.tools.run import ToolRun

from agent.catalog import Catalog
from agent.catalog.models import HowToDoc
from agent.catalog.search import DocIndex
from agent.tools.results import tool_result
from agent.tools.spec import AgentName, FinalIntent, ToolName, ToolSpec


@tool
async def datasuite_faq(
    user_question: Annotated[str, "The person's how-to or definition question, as they asked it."],
    runtime: ToolRun,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = "datasuite_faq",
) -> str:
    """Answer how-to questions about this assistant (slash commands, confirmations, charts) and
    definitions of data terms (what a column or a business term means) from the team's docs."""
    catalog = runtime.context.catalog
    own = _bot_docs().rank(user_question)
    if own and (_ABOUT_THE_BOT.search(user_question) or not catalog.search_docs(user_question, limit=1)):
        doc = own[0][0]
        return tool_result("datasuite_faq", text=f"*{doc.title}*\n{doc.body}", found=True)
    terms = catalog.lookup_terms(user_question)
    docs = catalog.search_docs(user_question, limit=2)
    parts = [f"*{t.term}*: {t.definition}" for t in terms[:3]]
    parts += [f"*{name}*: {description}" for name, description in _named_columns(catalog, user_question)]
    if docs and (not parts or docs[0].score >= 0.5):
        parts.append(f"*{docs[0].title}*\n{docs[0].body}")
    if not parts:
        return tool_result(
            "datasuite_faq",
            text="I don't know that one, and I'd rather not guess. Try asking about a table, a column or "
            "a command such as /fixsql, or ask a data question directly.",
            found=False,
        )
    return tool_result("datasuite_faq", text="\n\n".join(parts), found=True)


BOT_DOCS = Path(__file__).with_name("bot_docs.yaml")
# A question about the assistant itself (setting it up, connecting it), not about the data.
_ABOUT_THE_BOT = re.compile(
    r"\b(the bot|this bot|the assistant|this assistant|you)\b.*\b(connect|install|set ?up|configure|deploy|run|add|use)\b|"
    r"\b(connect|install|set ?up|configure|deploy|add)\b.*\b(the bot|this bot|the assistant|you|slack|llm|model)\b",
    re.I,
)


@lru_cache(maxsize=1)
def _bot_docs() -> DocIndex:
    raw = yaml.safe_load(BOT_DOCS.read_text()) or {}
    return DocIndex([HowToDoc(id=key, **value) for key, value in raw.items()])


def _named_columns(catalog: Catalog, question: str) -> list[tuple[str, str]]:
    """Columns the question names outright ("what does dep_delay mean?"), with their descriptions."""
    words = {w.strip("`'\"?.,").lower() for w in question.split()}
    found = []
    for match in catalog.search(question, limit=3):
        for column in match.columns:
            if column.name.lower() in words:
                unit = f" ({column.unit})" if column.unit else ""
                found.append((f"{match.table}.{column.name}", column.description + unit))
    return found[:3]


SPEC = ToolSpec(
    name=ToolName.FAQ,
    agent_name=AgentName.FAQ,
    label="Looking it up in the docs…",
    prompt_line="how-to questions about this assistant and definitions of data terms.",
    terminal=True,
    direct_args=lambda r: {"user_question": r.question, "final_intent": ToolName.FAQ},
    # The seeds' expert agent answers from the same docs as the FAQ tool here.
    direct_names=(AgentName.DATA_SUITE_EXPERT,),
)
