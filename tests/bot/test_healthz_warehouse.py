"""/healthz says when the warehouse is down, with the sentence people would get."""

from __future__ import annotations


from aiohttp.test_utils import TestClient, TestServer
from slack_bolt.async_app import AsyncApp

from agent.api import Assistant
from agent.bootstrap import build_context
from bot.health import Readiness
from bot.http_server import build_web_app


async def test_healthz_reports_a_down_warehouse(settings, warehouse, monkeypatch):
    state: dict[str, str | None] = {"problem": "I cannot reach the warehouse (postgresql://bot:***@db/a) right now."}
    monkeypatch.setattr(warehouse, "health", lambda: state["problem"])
    assistant = Assistant(build_context(settings, warehouse=warehouse))
    readiness = Readiness(agent_health=assistant.health, cache_s=0)

    app = AsyncApp(token="xoxb-test", signing_secret="s", request_verification_enabled=False)
    try:
        await _check(build_web_app(app, readiness), state)
    finally:
        assistant.context.cpu.close()  # the warehouse is the session's, closed by its fixture


async def _check(web_app, state: dict[str, str | None]) -> None:
    async with TestClient(TestServer(web_app)) as client:
        down = await client.get("/healthz")
        assert down.status == 503
        body = await down.json()
        assert body["warehouse"] == "down" and "cannot reach" in body["warehouse_problem"]
        assert body["not_ready"] == ["warehouse"]
        state["problem"] = None
        up = await client.get("/healthz")
        body = await up.json()
        assert up.status == 200 and body["warehouse"] == "up" and "warehouse_problem" not in body
