"""One run of the supervisor graph, as the public API starts it: its progress streamed, its end kept.

The supervisor owns its graph, and so the running of it: LangGraph calls the nodes, the tools and the
checkpointer from here, and the run's chat-model calls are counted here (`LLMCallCounter`, a callback
of this run only). `agent.api` makes one call per run (`stream`) and reads how it ended (`RunEnd`):
the last values the run streamed and the interrupt it paused on, so its checkpoint is not read back.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult

from agent.supervisor.reply import Progress

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig
    from langgraph.graph.state import CompiledStateGraph
    from langgraph.types import Durability

    from agent.context import AgentContext


class LLMCallCounter(BaseCallbackHandler):
    """Counts chat-model calls in one run (routing, intent, narrative…) and the tokens they used."""

    run_inline = True

    def __init__(self) -> None:
        self.count = 0
        self.tokens = {"input": 0, "output": 0}

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], **kwargs: Any
    ) -> None:
        self.count += 1

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generation in (g for batch in response.generations for g in batch):
            usage = getattr(getattr(generation, "message", None), "usage_metadata", None) or {}
            self.tokens["input"] += usage.get("input_tokens", 0)
            self.tokens["output"] += usage.get("output_tokens", 0)


@dataclass
class RunEnd:
    """How a run ended: its last streamed values, the interrupt it paused on, its chat-model calls."""

    values: dict[str, Any] = field(default_factory=dict)
    interrupts: tuple[Any, ...] = ()
    calls: LLMCallCounter = field(default_factory=LLMCallCounter)


async def stream(
    graph: CompiledStateGraph[Any, Any, Any, Any], graph_input: Any, config: RunnableConfig, context: AgentContext,
    *, durability: Durability | None, ended: list[RunEnd], callbacks: Sequence[BaseCallbackHandler] = (),
) -> AsyncIterator[Progress]:
    """Run `graph` on `graph_input`, yielding its progress; how it ended is appended to `ended` as it
    starts and filled as it goes (so a run that fails midway still says what it counted). `callbacks`
    (tracers) are called beside the run's own counter."""
    end = RunEnd()
    ended.append(end)
    config = {**config, "callbacks": [end.calls, *callbacks]}
    async for mode, chunk in graph.astream(
        graph_input, config, context=context, stream_mode=["custom", "updates", "values"], durability=durability,
    ):
        if mode == "values" and isinstance(chunk, dict):
            end.values = chunk
        elif mode == "updates" and isinstance(chunk, dict) and "__interrupt__" in chunk:
            end.interrupts = tuple(chunk["__interrupt__"])
        elif mode == "custom" and isinstance(chunk, dict) and "label" in chunk:
            yield Progress(**chunk)
