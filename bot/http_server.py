"""HTTP mode: one aiohttp server, POST /slack/events for events, commands and interactivity, GET /healthz.

/healthz answers 503 with `{"redis": "down"}` while shared state is unreachable, so a load
balancer can route around a degraded replica; it turns 200 again by itself.
"""

from __future__ import annotations

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp

from bot.redis_health import RedisHealth

EVENTS_PATH = "/slack/events"


def build_web_app(app: AsyncApp, health: RedisHealth | None = None) -> web.Application:
    async def events(request: web.Request) -> web.Response:
        bolt_response = await app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    async def healthz(_: web.Request) -> web.Response:
        if health is None:
            return web.json_response({"ok": True})
        if health.up:
            return web.json_response({"ok": True, "redis": "up"})
        return web.json_response({"ok": False, "redis": "down"}, status=503)

    web_app = web.Application()
    web_app.router.add_post(EVENTS_PATH, events)
    web_app.router.add_get("/healthz", healthz)
    return web_app
