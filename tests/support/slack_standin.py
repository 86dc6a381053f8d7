"""A local stand-in for Slack's Web API: records every call and answers as Slack does.

Runs an aiohttp server on 127.0.0.1 (random port). Failures are programmable per method:
`fail(method, error)` answers ok:false, `rate_limit(method, retry_after)` answers 429 with
Retry-After, each for the next `times` calls. Also imported by bench/ack_bench.py.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float  # time.perf_counter() when the call arrived


@dataclass
class _Fault:
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int


@dataclass
class SlackStandIn:
    bot_user_id: str = "UBOT"
    calls: list[Call] = field(default_factory=list)
    messages: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # (channel, ts) -> message
    uploads: dict[str, bytes] = field(default_factory=dict)
    responses: list[dict[str, Any]] = field(default_factory=list)  # bodies posted to slash commands' response_url
    _faults: dict[str, list[_Fault]] = field(default_factory=dict)
    _ts: itertools.count = field(default_factory=lambda: itertools.count(1))
    _runner: web.AppRunner | None = None
    url: str = ""

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> SlackStandIn:
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_post("/response/{id}", self._response_url)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def close(self) -> None:
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"{self.url}/api/"

    # -- programming failures ----------------------------------------------------------------

    def fail(self, method: str, error: str, *, times: int = 1) -> None:
        self._faults.setdefault(method, []).append(_Fault(200, {"ok": False, "error": error}, {}, times))

    def rate_limit(self, method: str, *, retry_after: int = 0, times: int = 1) -> None:
        body = {"ok": False, "error": "ratelimited"}
        self._faults.setdefault(method, []).append(_Fault(429, body, {"Retry-After": str(retry_after)}, times))

    # -- reading what happened ---------------------------------------------------------------

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def thread(self, channel: str, thread_ts: str) -> list[dict[str, Any]]:
        """Messages the bot has in a thread (the root included), in posting order, as they are now."""
        return [
            m for (c, _), m in self.messages.items() if c == channel and (m.get("thread_ts") or m["ts"]) == thread_ts
        ]

    # -- the API -----------------------------------------------------------------------------

    def _next_ts(self) -> str:
        return f"{1700000000 + next(self._ts)}.000100"

    async def _params(self, request: web.Request) -> dict[str, Any]:
        # The SDK sends some methods as JSON, others as a form or a query string with JSON-encoded fields.
        params = await request.json() if request.content_type == "application/json" else dict(await request.post())
        params.update({k: v for k, v in request.query.items() if k not in params})
        for key, value in params.items():
            if isinstance(value, str) and value[:1] in "[{":
                try:
                    params[key] = json.loads(value)
                except json.JSONDecodeError:
                    pass
        return params

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._params(request)
        self.calls.append(Call(method, params, time.perf_counter()))
        faults = self._faults.get(method)
        if faults:
            fault = faults[0]
            fault.times -= 1
            if fault.times <= 0:
                faults.pop(0)
            return web.json_response(fault.body, status=fault.status, headers=fault.headers)
        handler = getattr(self, "_" + method.replace(".", "_"), None)
        body = handler(params) if handler else {"ok": True}
        return web.json_response(body)

    async def _upload(self, request: web.Request) -> web.Response:
        self.uploads[request.match_info["file_id"]] = await request.read()
        return web.Response(text="OK")

    async def _response_url(self, request: web.Request) -> web.Response:
        self.responses.append(await request.json())
        return web.Response(text="ok")

    def _auth_test(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "user_id": self.bot_user_id, "bot_id": "BBOT", "team_id": "T1", "user": "databot"}

    def _chat_postMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = params.get("channel")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        ts = self._next_ts()
        message = {
            "ts": ts,
            "channel": channel,
            "thread_ts": params.get("thread_ts"),
            "text": params.get("text", ""),
            "blocks": params.get("blocks", []),
            "user": self.bot_user_id,
            "bot_id": "BBOT",
        }
        self.messages[(channel, ts)] = message
        return {"ok": True, "channel": channel, "ts": ts, "message": message}

    def _chat_update(self, params: dict[str, Any]) -> dict[str, Any]:
        key = (params.get("channel"), params.get("ts"))
        if key not in self.messages:
            return {"ok": False, "error": "message_not_found"}
        self.messages[key].update(text=params.get("text", ""), blocks=params.get("blocks", []))
        return {"ok": True, "channel": key[0], "ts": key[1], "text": params.get("text", "")}

    def _chat_postEphemeral(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "message_ts": self._next_ts()}

    def _files_getUploadURLExternal(self, params: dict[str, Any]) -> dict[str, Any]:
        file_id = f"F{next(self._ts)}"
        return {"ok": True, "upload_url": f"{self.url}/upload/{file_id}", "file_id": file_id}

    def _files_completeUploadExternal(self, params: dict[str, Any]) -> dict[str, Any]:
        files = params.get("files") or []
        return {"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]}

    def _views_open(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "view": {"id": f"V{next(self._ts)}", **(params.get("view") or {})}}

    def _conversations_replies(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "messages": self.thread(params.get("channel"), params.get("ts")), "has_more": False}
