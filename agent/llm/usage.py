"""Counting a run's chat-model calls and tokens, for the reply and the metrics."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult


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
