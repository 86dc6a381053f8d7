"""HTTP mode: one aiohttp server, POST /slack/events for events, commands and interactivity,
GET /healthz and GET /metrics (Prometheus).

/healthz answers 503 with `{"redis": "down"}` while shared state is unreachable,
`{"warehouse": "down", "warehouse_problem": "..."}` while the warehouse is, or `{"slack": …}` while
Slack refuses the bot token (checked at most every 30 s), so a load balancer can route around a
degraded replica; it turns 200 again by itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp

from bot.jobs.ack_first import AckFirst
from bot.metrics import BotMetrics
from bot.redis_health import RedisHealth
from bot.slack_auth import SlackAuth

EVENTS_PATH = "/slack/events"


def build_web_app(
    app: AsyncApp,
    health: RedisHealth | None = None,
    warehouse_problem: Callable[[], Awaitable[str | None]] | None = None,
    *,
    metrics: BotMetrics | None = None,
    slack_auth: SlackAuth | None = None,
    ack_first: AckFirst | None = None,
) -> web.Application:
    gate = ack_first or AckFirst()

    async def events(request: web.Request) -> web.Response:
        with gate.acknowledging():  # the jobs this starts wait until the acks in flight are out
            bolt_response = await app.async_dispatch(await to_bolt_request(request))
            return await to_aiohttp_response(bolt_response)

    async def healthz(_: web.Request) -> web.Response:
        body: dict[str, object] = {"ok": True}
        if health is not None:
            body["redis"] = "up" if health.up else "down"
        if warehouse_problem is not None:
            problem = await warehouse_problem()
            body["warehouse"] = "up" if problem is None else "down"
            if problem is not None:
                body["warehouse_problem"] = problem
        if slack_auth is not None:
            slack_ok, detail = await slack_auth.check()
            body["slack"] = "up" if slack_ok else detail
        body["ok"] = all(body.get(part, "up") == "up" for part in ("redis", "warehouse", "slack"))
        return web.json_response(body, status=200 if body["ok"] else 503)

    async def metrics_text(_: web.Request) -> web.Response:
        assert metrics is not None
        body, content_type = metrics.render()
        return web.Response(body=body, headers={"Content-Type": content_type})

    web_app = web.Application()
    web_app.router.add_post(EVENTS_PATH, events)
    web_app.router.add_get("/healthz", healthz)
    if metrics is not None:
        web_app.router.add_get("/metrics", metrics_text)
    return web_app
