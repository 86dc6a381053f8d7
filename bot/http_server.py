"""HTTP mode: one aiohttp server. POST /slack/events for events, commands and interactivity;
GET /livez (the process answers), GET /readyz (it can do its work; see bot/health.py) and
/healthz, kept as an alias of /readyz for existing probes; GET /metrics (Prometheus).

`python -m bot` listens before it builds the agent (`build_starting_web_app`): while the agent and the
Bolt app are built, /livez answers, /readyz says 503 (`starting`: no event can be served yet) and an
event gets a 503 (Slack sends it again); once start-up hands over what it built (`Serving.serve`),
every route answers for it.

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


class Serving:
    """What the routes answer for: nothing yet while the bot starts (`app` is None), then the bot."""

    def __init__(
        self, app: AsyncApp | None = None, readiness: Readiness | None = None, *, metrics: BotMetrics | None = None,
        ack_first: AckFirst | None = None,
    ):
        self.app, self.readiness, self.metrics = app, readiness, metrics
        self.gate = ack_first or AckFirst()
        self._running = False  # the server has started: a readiness handed over now starts at once

    def serve(
        self, app: AsyncApp, readiness: Readiness | None = None, *, metrics: BotMetrics | None = None,
        ack_first: AckFirst | None = None,
    ) -> None:
        """Start-up has built the bot: from now on every route answers for it."""
        self.readiness, self.metrics, self.gate = readiness, metrics, ack_first or AckFirst()
        self.app = app  # last: a request sees the bot whole or not at all
        if self._running and readiness is not None:
            readiness.start()

    async def started(self, _: web.Application) -> None:
        self._running = True
        if self.readiness is not None:
            self.readiness.start()

    async def stopped(self, _: web.Application) -> None:
        if self.readiness is not None:
            await self.readiness.close()


def build_web_app(
    app: AsyncApp, readiness: Readiness | None = None, *, metrics: BotMetrics | None = None,
    ack_first: AckFirst | None = None,
) -> web.Application:
    """The server for a bot already built."""
    return _web_app(Serving(app, readiness, metrics=metrics, ack_first=ack_first))


def build_starting_web_app() -> tuple[web.Application, Serving]:
    """The server for a bot still starting; `Serving.serve` hands it the bot once built."""
    serving = Serving()
    return _web_app(serving), serving


STARTING = {"ok": False, "ready": False, "starting": True, "not_ready": ["starting"]}


def _web_app(serving: Serving) -> web.Application:
    async def events(request: web.Request) -> web.Response:
        app = serving.app
        if app is None:
            return web.json_response({"ok": False, "error": "the bot is starting"}, status=503)
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
        with serving.gate.acknowledging():  # the jobs this starts wait until the acks in flight are out
            return await to_aiohttp_response(await app.async_dispatch(bolt_request))

    async def metrics_text(_: web.Request) -> web.Response:
        if serving.metrics is None:
            raise web.HTTPNotFound() if serving.app is not None else web.HTTPServiceUnavailable()
        body, content_type = serving.metrics.render()
        return web.Response(body=body, headers={"Content-Type": content_type})

    async def livez(_: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    async def readyz(_: web.Request) -> web.Response:
        if serving.app is None:
            return web.json_response(STARTING, status=503)
        if serving.readiness is None:
            return web.json_response({"ok": True})
        report = await serving.readiness.check()
        return web.json_response({"ok": report["ready"], **report}, status=200 if report["ready"] else 503)

    web_app = web.Application(client_max_size=MAX_BODY_BYTES)
    web_app.router.add_post(EVENTS_PATH, events)
    web_app.router.add_get("/livez", livez)
    web_app.router.add_get("/readyz", readyz)
    web_app.router.add_get("/healthz", readyz)
    web_app.router.add_get("/metrics", metrics_text)
    web_app.on_startup.append(serving.started)
    web_app.on_cleanup.append(serving.stopped)
    return web_app


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
