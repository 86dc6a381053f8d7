"""A scripted chat model: replays a fixed list of answers and records every call.

It stands in for the LLM in unit and scenario tests. It supports `bind_tools` and
`with_structured_output` like a real chat model, so the code under test cannot tell.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Sequence

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel, PrivateAttr

Step = AIMessage | BaseModel | dict | Exception | Callable[[list[BaseMessage]], Any]

_ids = itertools.count(1)


def tool_call(name: str, args: dict, call_id: str | None = None) -> AIMessage:
    """An AIMessage asking for one tool call, as an LLM would emit it."""
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id or f"call_{next(_ids)}"}])


class ScriptedChatModel(BaseChatModel):
    steps: list[Any]
    # True makes tools use their own engines for prose (narratives, explanations), as with the
    # offline model, so a test scripts only routing and intent.
    is_offline: bool = False
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)
    _bound_tools: list[Any] = PrivateAttr(default_factory=list)

    def __init__(self, steps: Sequence[Step], **kwargs):
        super().__init__(steps=list(steps), **kwargs)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[list[BaseMessage]]:
        return self._calls

    @property
    def remaining(self) -> int:
        return len(self.steps)

    def _next(self, messages: list[BaseMessage]) -> Any:
        self._calls.append(list(messages))
        if not self.steps:
            raise AssertionError("ScriptedChatModel ran out of scripted answers")
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if callable(step) and not isinstance(step, (BaseModel, type)):
            step = step(messages)
        return step

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        step = self._next(messages)
        if isinstance(step, AIMessage):
            message = step
        elif isinstance(step, (dict, BaseModel)):
            # A structured answer rides along unparsed; `with_structured_output` unwraps it.
            message = AIMessage(content="", additional_kwargs={"structured": step})
        else:
            message = AIMessage(content=str(step))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> "ScriptedChatModel":
        self._bound_tools = list(tools)
        return self

    def with_structured_output(self, schema: Any, **kwargs: Any):
        """Goes through `_generate` like a real model, so callbacks (call counting) see it."""

        def unwrap(message: AIMessage) -> Any:
            step = message.additional_kwargs.get("structured", message.content)
            if isinstance(step, dict) and isinstance(schema, type) and issubclass(schema, BaseModel):
                return schema.model_validate(step)
            return step

        return self | RunnableLambda(unwrap)
