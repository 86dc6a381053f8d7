"""`search_log`: a LogQL query for Grafana Loki from a description."""

from typing import Annotated

from langchain_core.tools import tool
from agent.tools.run import ToolRun
from pydantic import BaseModel, Field

from agent.logql import LogQLError, check_logql, write_logql
from agent.text2sql.steps import structured
from agent.tools.results import tool_result
from agent.tools.spec import AgentName, FinalIntent, ToolName, ToolSpec


class LogQueryDraft(BaseModel):
    logql: str = Field(description="One LogQL query: a stream selector, then pipeline stages")
    explanation: str = Field(description="One sentence on what the query selects")


@tool
async def search_log(
    description: Annotated[str, "What logs the person wants: service, level, text, time window."],
    runtime: ToolRun,
    final_intent: Annotated[FinalIntent | None, "The overall goal of the whole exchange."] = "search_log",
) -> str:
    """Write a LogQL query (Grafana Loki) that finds the logs the person describes."""
    ctx = runtime.context
    query = write_logql(description)
    note = ""
    if ctx.has_llm:
        draft = await structured(
            ctx.model, LogQueryDraft,
            "Write one LogQL query for Grafana Loki. Labels: app, namespace, pod, container, env. "
            f"Request: {description}",
        )
        try:
            check_logql(draft.logql)
            query.logql, query.explanation = draft.logql, draft.explanation
        except LogQLError as exc:
            note = f" (The model's query was not valid LogQL: {exc.user_message} I used a rule-based one.)"
    text = f"```{query.logql}```\n{query.explanation}{note}"
    return tool_result("search_log", logql=query.logql, text=text)


SPEC = ToolSpec(
    name=ToolName.SEARCH_LOG,
    agent_name=AgentName.LOGIFY,
    label="Writing the log query…",
    prompt_line="write a LogQL query for Grafana Loki.",
    terminal=True,
    direct_args=lambda r: {"description": r.question, "final_intent": ToolName.SEARCH_LOG},
)
