"""The offline model: a real LangChain chat model that needs no network.

It answers the router with the same tool calls an LLM would (from `routing.py`), and fills
`SemanticParse` for `with_structured_output` from the deterministic extractor, so the graph
runs unchanged. Prose (narratives, explanations) is left to the tools' own engines: the
model says so through `is_offline`.

Both read the data as the person asking may see it: each run's context holds a copy of the model
handed that context (`for_run`, through `reader_for`); the copy in the agent's unscoped context
reads through `OutsideARun`, which refuses.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ConfigDict, Field, SkipValidation

from agent.context import AgentContext, DataReader, OutsideARun
from agent.llm.routing import route_message
from agent.tools.chain import tool_outcome
from agent.tools.results import parse_result
from agent.tools.semantic import SemanticParse
from agent.tools.spec import ToolName, tool_call

# What else the offline model can fill for `with_structured_output`, by schema name (awaited on the
# run's loop): answers that do not depend on who asks (tests and benches add their own).
StructuredAnswer = Callable[[str], Awaitable[BaseModel]]


class OfflineChatModel(BaseChatModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    # How a run's context is read (the router's checks, a question's SemanticParse); None: never per run.
    reader_for: Callable[[AgentContext], DataReader] | None = None
    reader: SkipValidation[DataReader] = Field(default_factory=OutsideARun)  # this copy's run's, or none (a protocol)
    structured: dict[str, StructuredAnswer] = Field(default_factory=dict)
    is_offline: bool = True

    def for_run(self, context: AgentContext) -> OfflineChatModel:
        """This model reading `context`, one run's view of the data (`AgentContext.per_run`)."""
        if self.reader_for is None:
            return self
        return self.model_copy(update={"reader": self.reader_for(context)})

    @property
    def _llm_type(self) -> str:
        return "offline-rules"

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        formatted = [_openai_tool(t) for t in tools]
        return self.bind(tools=formatted, tool_choice=tool_choice, **kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # Native async: the reader awaits its CPU worker and warehouse slot on this loop, so
        # the model never parks an executor thread waiting for work that needs another one.
        tools = kwargs.get("tools") or []
        if kwargs.get("tool_choice") and len(tools) == 1:
            message = await self._structured(tools[0]["function"]["name"], messages)
        else:
            message = await self._route(messages)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """A synchronous call (a script's `invoke`) runs the async one on a loop of its own."""
        return asyncio.run(self._agenerate(messages, stop, **kwargs))

    async def _structured(self, schema_name: str, messages: list[BaseMessage]) -> AIMessage:
        answer = self.reader.read_intent if schema_name == SemanticParse.__name__ else self.structured.get(schema_name)
        if answer is None:
            raise NotImplementedError(f"The offline model cannot write {schema_name}; it needs a language model.")
        value = await answer(_last_human_text(messages))
        return _call(schema_name, value.model_dump(mode="json"))

    async def _route(self, messages: list[BaseMessage]) -> AIMessage:
        turn = _current_turn(messages)
        question = _last_human_text(messages)
        answered = [m for m in turn if isinstance(m, ToolMessage)]
        if answered:
            last = answered[-1]
            if last.name == ToolName.ASK_HUMAN:
                question = f"{question} ({str(last.content).removeprefix('The person answered: ')})"
            else:
                step = tool_outcome(turn, last, _last_human_text(turn)).implied_call
                return _call(step["name"], step["args"]) if step else AIMessage(content=_text_of(last))
        previous_question, has_sql, last_answer = _history_facts(messages[: len(messages) - len(turn)])
        route = await route_message(
            question, self.reader, previous_question=previous_question, has_sql_to_run=has_sql,
            last_answer=last_answer,
        )
        if route.tool is None:
            return AIMessage(content=route.text)
        return _call(route.tool, route.args)


# Converting a tool to its OpenAI schema walks its pydantic model, a tenth of a second for the
# router's tools on every turn; the tools are module constants, so each is converted once. The schema
# is handed out as it is, not copied (a deep copy of the router's five cost ~5 ms a turn): this model
# only reads a tool's name from it, and LangChain only reads the bound arguments.
# A conversion is kept while its schema (a class, a function) lives, never by the schema's id: a schema
# made afresh for a call was kept with it for good. A dict is never kept: one already in OpenAI's form
# (`agent.text2sql.steps.tool_form` makes one for every structured answer, a question's SemanticParse)
# has nothing to convert, and keeping each, keyed by its id, kept every question's (issue 22's soak).
_SCHEMAS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def _openai_tool(tool: Any) -> dict[str, Any]:
    if isinstance(tool, BaseTool):
        # Its name is all this model reads, and a tool's name is its schema's: converting even once is
        # ~0.03 CPU-s for the router's tools, a command line's whole first (and only) turn.
        return {"type": "function", "function": {"name": tool.name}}
    if isinstance(tool, dict):
        return tool if tool.get("type") == "function" and "function" in tool else convert_to_openai_tool(tool)
    try:
        known = _SCHEMAS.get(tool)
    except TypeError:  # a schema that cannot be weakly referenced: converted, not kept
        return convert_to_openai_tool(tool)
    if known is None:
        known = _SCHEMAS[tool] = convert_to_openai_tool(tool)
    return known


def _call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=[tool_call(name, args)])


def _current_turn(messages: list[BaseMessage]) -> list[BaseMessage]:
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], HumanMessage):
            return messages[index:]
    return list(messages)


def _last_human_text(messages: list[BaseMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return str(message.content)
    return ""


def _text_of(message: ToolMessage) -> str:
    data = parse_result(message.content)
    return str(data.get("text") or data.get("error") or "Done.")


def _history_facts(earlier: list[BaseMessage]) -> tuple[str | None, bool, tuple[str, str] | None]:
    """The last data question asked before this turn, whether its SQL is waiting to run, and the
    last answer's SQL with how its question was read (for "why?")."""
    previous_question = None
    has_sql = False
    reading = ""
    last_answer: tuple[str, str] | None = None
    for message in earlier:
        if isinstance(message, ToolMessage) and message.name == ToolName.GENERATE_SQL:
            reading = str(parse_result(message.content).get("reason") or "")
        if isinstance(message, ToolMessage) and message.name == ToolName.EXECUTE:
            ran = parse_result(message.content)
            if ran.get("sql") and not ran.get("error"):
                last_answer = (str(ran["sql"]), reading)
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                question = call["args"].get("user_question")
                if call["name"] in (ToolName.DATA_DISCOVERY, ToolName.GENERATE_SQL) and question:
                    previous_question = question
        if isinstance(message, ToolMessage) and message.name in (ToolName.GENERATE_SQL, ToolName.FIX_SQL):
            has_sql = '"sql"' in str(message.content)
        if isinstance(message, ToolMessage) and message.name == ToolName.EXECUTE:
            has_sql = False
    return previous_question, has_sql, last_answer
