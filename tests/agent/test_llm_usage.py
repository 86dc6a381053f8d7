"""Token usage and tracing: what operators see of the LLM's work."""

from __future__ import annotations

from pydantic import SecretStr

from agent.tracing import build_tracers
from tests.agent.test_openai_client import FIX, assistant_for
from tests.support.openai_stub import OpenAIStub, tool_call_body


async def test_reply_carries_the_tokens_the_llm_used(offline_context):
    async with OpenAIStub([(200, tool_call_body("fix_sql", FIX), 0)]) as stub:
        reply = await (a := assistant_for(offline_context, stub)).reply(a.ask("usage-1", "fix SELECT count(*) FORM flights"))
    assert reply.llm_calls == 1 and reply.llm_tokens == {"input": 1, "output": 1}


def test_tracing_is_off_unless_configured(settings):
    assert build_tracers(settings) == []
    on = settings.model_copy(update={"langsmith_api_key": SecretStr("ls-test"), "langsmith_project": "proj",
                                     "langsmith_endpoint": "http://127.0.0.1:9"})
    (tracer,) = build_tracers(on)
    assert tracer.project_name == "proj"
