"""HTTP mode: one aiohttp server. POST /slack/events for events, commands and interactivity;
GET /livez (the process answers), GET /readyz (it can do its work; see bot/health.py) and
/healthz, kept as an alias of /readyz for existing probes; GET /metrics (Prometheus).

A body that is not what Slack sends (malformed JSON, a broken form, a `payload` that is not
JSON) gets a 400 before Bolt sees it: hostile or broken input is the sender's error, not a
crash with a traceback.
"""

from __future__ import annotations

import json
import logging
from urllib.parse import parse_qsl

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest

from bot.health import Readiness
from bot.jobs.ack_first import AckFirst
from bot.metrics import BotMetrics

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
MAX_BODY_BYTES = 1024 * 1024  # Slack's payloads are far smaller; aiohttp answers 413 past this


def build_web_app(
    app: AsyncApp, readiness: Readiness | None = None, *, metrics: BotMetrics | None = None,
    ack_first: AckFirst | None = None,
) -> web.Application:
    gate = ack_first or AckFirst()

    async def events(request: web.Request) -> web.Response:
        try:
            body = (await request.read()).decode("utf-8")
            problem = malformed(body, request.content_type)
            # Bolt reads the body's shape (ids, users) as it builds the request, before any listener runs.
            bolt_request = None if problem else AsyncBoltRequest(
                body=body, query=request.query_string, headers=request.headers,  # type: ignore[arg-type]
            )
        except UnicodeDecodeError:
            problem = "the body is not UTF-8 text"
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
            problem = f"the body does not have the shape of a Slack request ({type(exc).__name__})"
        if problem or bolt_request is None:
            log.warning("rejected a malformed request to %s: %s", EVENTS_PATH, problem)
            return web.json_response({"ok": False, "error": problem}, status=400)
        with gate.acknowledging():  # the jobs this starts wait until the acks in flight are out
            return await to_aiohttp_response(await app.async_dispatch(bolt_request))

    async def metrics_text(_: web.Request) -> web.Response:
        assert metrics is not None
        body, content_type = metrics.render()
        return web.Response(body=body, headers={"Content-Type": content_type})

    async def livez(_: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    async def readyz(_: web.Request) -> web.Response:
        if readiness is None:
            return web.json_response({"ok": True})
        report = await readiness.check()
        return web.json_response({"ok": report["ready"], **report}, status=200 if report["ready"] else 503)

    web_app = web.Application(client_max_size=MAX_BODY_BYTES)
    web_app.router.add_post(EVENTS_PATH, events)
    web_app.router.add_get("/livez", livez)
    web_app.router.add_get("/readyz", readyz)
    web_app.router.add_get("/healthz", readyz)
    if metrics is not None:
        web_app.router.add_get("/metrics", metrics_text)
    if readiness is not None:
        web_app.on_startup.append(lambda _: _start(readiness))
        web_app.on_cleanup.append(lambda _: readiness.close())
    return web_app


async def _start(readiness: Readiness) -> None:
    readiness.start()


def malformed(body: str, content_type: str) -> str | None:
    """Why `body` cannot be a Slack request of this content type, or None when it can be read."""
    if content_type == "application/json" or body.startswith("{"):  # how Bolt decides to read JSON
        try:
            return None if isinstance(json.loads(body), dict) else "the JSON body is not an object"
        except ValueError:
            return "the body is not valid JSON"
    try:
        fields = dict(parse_qsl(body, keep_blank_values=True, strict_parsing=bool(body)))
    except ValueError:
        return "the form body cannot be read"
    if "payload" in fields:
        try:
            if not isinstance(json.loads(fields["payload"]), dict):
                return "the payload is not a JSON object"
        except ValueError:
            return "the payload is not valid JSON"
    return None
