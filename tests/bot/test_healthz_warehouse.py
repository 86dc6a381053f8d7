"""/healthz says when the warehouse is down, with the sentence people would get."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer
from slack_bolt.async_app import AsyncApp

from bot.http_server import build_web_app


async def test_healthz_reports_a_down_warehouse():
    state = {"problem": "I cannot reach the warehouse (postgresql://bot:***@db/a) right now."}

    async def problem() -> str | None:
        return state["problem"]

    app = AsyncApp(token="xoxb-test", signing_secret="s", request_verification_enabled=False)
    async with TestClient(TestServer(build_web_app(app, None, problem))) as client:
        down = await client.get("/healthz")
        assert down.status == 503
        body = await down.json()
        assert body["warehouse"] == "down" and "cannot reach" in body["warehouse_problem"]
        state["problem"] = None
        up = await client.get("/healthz")
        assert up.status == 200 and await up.json() == {"ok": True, "warehouse": "up"}
