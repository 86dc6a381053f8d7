"""The HTTP server of a bot still starting: alive, not ready, no event served; then the bot it is handed."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer
from slack_bolt.async_app import AsyncApp

from bot.health import Readiness
from bot.http_server import EVENTS_PATH, build_starting_web_app, build_web_app
from bot.metrics import BotMetrics


async def test_a_starting_server_is_alive_but_not_ready_until_it_is_handed_the_bot():
    web_app, serving = build_starting_web_app()
    async with TestClient(TestServer(web_app)) as client:
        assert (await client.get("/livez")).status == 200
        for path in ("/readyz", "/healthz"):
            starting = await client.get(path)
            assert starting.status == 503 and (await starting.json())["not_ready"] == ["starting"]
        assert (await client.post(EVENTS_PATH, data="{}")).status == 503
        assert (await client.get("/metrics")).status == 503

        app = AsyncApp(token="xoxb-test", signing_secret="s", request_verification_enabled=False)
        readiness = Readiness(agent_health=None, cache_s=0)
        serving.serve(app, readiness, metrics=BotMetrics())
        ready = await client.get("/readyz")
        assert ready.status == 200 and (await ready.json())["ready"] is True
        assert readiness.lag._task is not None  # handed over while serving: its loop-lag probe runs
        assert (await client.get("/metrics")).status == 200
        assert (await client.post(EVENTS_PATH, data="{not json")).status == 400  # now Bolt's requests are read


async def test_a_server_built_for_a_ready_bot_serves_it_from_the_start():
    app = AsyncApp(token="xoxb-test", signing_secret="s", request_verification_enabled=False)
    async with TestClient(TestServer(build_web_app(app))) as client:
        assert (await client.get("/readyz")).status == 200
        assert (await client.get("/metrics")).status == 404  # no metrics were given
