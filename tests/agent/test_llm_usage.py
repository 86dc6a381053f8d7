"""Token usage and tracing: what operators see of the LLM's work."""

from __future__ import annotations

import asyncio
import dataclasses

from aiohttp import web
from pydantic import SecretStr

from agent.api import Assistant

from agent.tracing import build_tracers
from tests.agent.test_openai_client import FIX, assistant_for
from tests.support.openai_stub import OpenAIStub, tool_call_body


async def test_reply_carries_the_tokens_the_llm_used(offline_context):
    async with OpenAIStub([(200, tool_call_body("fix_sql", FIX), 0)]) as stub:
        reply = await (a := assistant_for(offline_context, stub)).reply(a.ask("usage-1", "fix SELECT count(*) FORM flights"))
    assert reply.llm_calls == 1 and reply.llm_tokens == {"input": 1, "output": 1}


async def test_tracing_is_off_unless_configured_then_runs_reach_langsmith(offline_context):
    assert build_tracers(offline_context.settings) == []
    received: list[bytes] = []

    async def info(_: web.Request) -> web.Response:
        return web.json_response({"version": "0.0.0"})

    async def runs(request: web.Request) -> web.Response:
        received.append(await request.read())
        return web.json_response({})

    stub = web.Application()
    stub.router.add_get("/info", info)
    stub.router.add_route("POST", "/{tail:runs.*}", runs)
    runner = web.AppRunner(stub)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        settings = offline_context.settings.model_copy(update={
            "langsmith_api_key": SecretStr("ls-test"), "langsmith_project": "ops-trace-test",
            "langsmith_endpoint": f"http://127.0.0.1:{port}"})
        assistant = Assistant(dataclasses.replace(offline_context, settings=settings))
        (tracer,) = assistant._tracers
        reply = await assistant.reply(assistant.run_tool("trace-1", "Explain SQL Agent", {"sql": "SELECT 1"}))
        assert reply.error is None
        await asyncio.to_thread(tracer.client.flush)
    finally:
        await runner.cleanup()
    assert any(b"ops-trace-test" in body for body in received)
