"""Chat models: `ChatOpenAI` against any OpenAI-compatible endpoint, or the offline model."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

# Only types at the top: `agent.llm.routing` is read by the public API, which imports no LangChain.
if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

    from agent.context import AgentContext, DataReader
    from agent.settings import Settings


def build_chat_model(settings: Settings, *, reader_for: Callable[[AgentContext], DataReader]) -> BaseChatModel:
    """`reader_for`: how the offline model reads one run's view of the data (an LLM reads none)."""
    if not settings.has_llm:
        from agent.llm.offline import OfflineChatModel

        return OfflineChatModel(reader_for=reader_for)
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=settings.llm_model,
        api_key=settings.openai_api_key,
        base_url=settings.openai_base_url,
        timeout=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
    )


def describe_llm_failure(exc: BaseException) -> str:
    """A sentence for a person about why the language model failed (details stay in the logs)."""
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if "Timeout" in name or isinstance(exc, TimeoutError):
        return "The language model took too long to answer. Please try again in a moment."
    if status == 429 or "RateLimit" in name:
        return "The language model is busy right now (rate limited). Please try again in a minute."
    if isinstance(status, int) and status >= 500:
        return "The language model service had an error. Please try again in a moment."
    if "Connection" in name:
        return "I could not reach the language model service. Please try again shortly."
    if isinstance(status, int) and status in (401, 403):
        return "The language model refused the bot's credentials; ask the person who runs the bot to check OPENAI_API_KEY."
    return "The language model did not answer properly just now. Please try again in a moment."
