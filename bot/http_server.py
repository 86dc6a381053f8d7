"""HTTP mode: one aiohttp server, POST /slack/events for events, commands and interactivity, GET /healthz.

/healthz answers 503 with `{"redis": "down"}` while shared state is unreachable, or
`{"warehouse": "down", "warehouse_problem": "..."}` while the warehouse is, so a load balancer
can route around a degraded replica; it turns 200 again by itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp

from bot.redis_health import RedisHealth

EVENTS_PATH = "/slack/events"


def build_web_app(
    app: AsyncApp,
    health: RedisHealth | None = None,
    warehouse_problem: Callable[[], Awaitable[str | None]] | None = None,
) -> web.Application:
    async def events(request: web.Request) -> web.Response:
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
        body["ok"] = body.get("redis", "up") == "up" and body.get("warehouse", "up") == "up"
        return web.json_response(body, status=200 if body["ok"] else 503)

    web_app = web.Application()
    web_app.router.add_post(EVENTS_PATH, events)
    web_app.router.add_get("/healthz", healthz)
    return web_app
