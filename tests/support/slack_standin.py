"""A local stand-in for Slack's Web API: records every call and answers as Slack does.

Runs an aiohttp server on 127.0.0.1 (random port). It refuses what Slack refuses: missing
arguments, text over its limits, blocks Slack would call invalid (tests/support/block_limits.py,
slack_arguments.py), `thread_ts` on an agent-view app's suggested prompts, and any method it does
not know (`unknown_method`, as Slack answers a misspelt method). `view` is the messaging experience
the app declares: manifest.yml's, unless a test says otherwise.

Failures are programmable per method, each for the next `times` calls: `fail(method, error)`
answers ok:false, `rate_limit(method, retry_after)` answers 429 with Retry-After, and
`fail_raw(method, status, body)` answers a body that is not Slack's JSON (a proxy's HTML page,
a plain-text 405) and `drop(method)` cuts the connection unanswered. Also imported by bench/ack_bench.py.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from aiohttp import web

from tests.support.block_limits import block_problems, view_problems
from tests.support.slack_arguments import MAX_MARKDOWN_TEXT, REQUIRED, refusal

MANIFEST = Path(__file__).resolve().parents[2] / "manifest.yml"


def manifest_view() -> str:
    """"agent" when manifest.yml declares agent_view, else "assistant" (the legacy Assistant pane)."""
    features = yaml.safe_load(MANIFEST.read_text(encoding="utf-8")).get("features") or {}
    return "agent" if "agent_view" in features else "assistant"


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float  # time.perf_counter() when the call arrived


@dataclass
class _Fault:
    status: int
    body: dict[str, Any] | str
    headers: dict[str, str]
    times: int
    content_type: str = "application/json"

    def response(self, request: web.Request) -> web.Response:
        if self.status == 0:  # no answer at all: the connection is cut, as a crashed edge or a timeout leaves it
            assert request.transport is not None
            request.transport.close()
        if isinstance(self.body, dict):
            return web.json_response(self.body, status=self.status, headers=self.headers)
        return web.Response(text=self.body, status=self.status, headers=self.headers, content_type=self.content_type)


@dataclass
class SlackStandIn:
    bot_user_id: str = "UBOT"
    calls: list[Call] = field(default_factory=list)
    messages: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # (channel, ts) -> message
    uploads: dict[str, bytes] = field(default_factory=dict)
    responses: list[dict[str, Any]] = field(default_factory=list)  # bodies posted to slash commands' response_url
    usergroups: list[dict[str, Any]] = field(default_factory=list)  # what usergroups.list answers
    ephemeral: list[dict[str, Any]] = field(default_factory=list)  # chat.postEphemeral calls, as sent
    streaming: set[tuple[str, str]] = field(default_factory=set)  # (channel, ts) of messages still streaming
    statuses: dict[tuple[str, str], str] = field(default_factory=dict)  # (channel, thread_ts) -> status shown
    prompts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # channel -> suggested prompts shown
    titles: dict[tuple[str, str], str] = field(default_factory=dict)  # (channel, thread_ts) -> thread title
    view: str = field(default_factory=manifest_view)  # "agent" (agent_view) or "assistant" (assistant_view)
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

    def fail_raw(
        self, method: str, status: int, body: str, *, content_type: str = "text/html", times: int = 1
    ) -> None:
        """Answer with a body that is not Slack's JSON, as a proxy or a broken edge would."""
        self._faults.setdefault(method, []).append(_Fault(status, body, {}, times, content_type))

    def drop(self, method: str, *, times: int = 1) -> None:
        """Cut the connection without an answer (the client sees what a timeout leaves it with: nothing)."""
        self._faults.setdefault(method, []).append(_Fault(0, "", {}, times))

    # -- reading what happened ---------------------------------------------------------------

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def ephemerals(self) -> list[dict[str, Any]]:
        return list(self.ephemeral)

    def thread(self, channel: str, thread_ts: str) -> list[dict[str, Any]]:
        """Messages the bot has in a thread (the root included), in posting order, as they are now."""
        return [
            m for (c, _), m in self.messages.items() if c == channel and (m.get("thread_ts") or m["ts"]) == thread_ts
        ]

    # -- the API -----------------------------------------------------------------------------

    def _next_ts(self) -> str:
        # Like Slack's: epoch seconds now, unique per message.
        return f"{int(time.time())}.{next(self._ts):06d}"

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
            return fault.response(request)
        if method not in REQUIRED:
            return web.json_response({"ok": False, "error": "unknown_method", "req_method": method})
        refused = refusal(method, params, view=self.view)
        handler = getattr(self, "_" + method.replace(".", "_"))  # every method in REQUIRED has one
        return web.json_response(refused or handler(params))

    async def _upload(self, request: web.Request) -> web.Response:
        self.uploads[request.match_info["file_id"]] = await request.read()
        return web.Response(text="OK")

    async def _response_url(self, request: web.Request) -> web.Response:
        self.responses.append(await request.json())
        return web.Response(text="ok")

    def _usergroups_list(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "usergroups": self.usergroups}

    def _auth_test(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "user_id": self.bot_user_id, "bot_id": "BBOT", "team_id": "T1", "user": "databot"}

    @staticmethod
    def _invalid_blocks(params: dict[str, Any]) -> dict[str, Any] | None:
        problems = block_problems(params.get("blocks"))
        return {"ok": False, "error": "invalid_blocks", "errors": problems} if problems else None

    def _chat_postMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = params["channel"]
        if refused := self._invalid_blocks(params):
            return refused
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
        if refused := self._invalid_blocks(params):
            return refused
        self.messages[key].update(text=params.get("text", ""), blocks=params.get("blocks", []))
        return {"ok": True, "channel": key[0], "ts": key[1], "text": params.get("text", "")}

    def _chat_postEphemeral(self, params: dict[str, Any]) -> dict[str, Any]:
        if refused := self._invalid_blocks(params):
            return refused
        self.ephemeral.append(params)
        return {"ok": True, "message_ts": self._next_ts()}

    # -- streaming (chat.startStream / appendStream / stopStream), with Slack's error codes ---------

    def _stream_text(self, params: dict[str, Any]) -> tuple[str, str | None]:
        """The markdown a stream call adds (markdown_text and markdown_text chunks), or an error code."""
        pieces = [params.get("markdown_text") or ""]
        for chunk in params.get("chunks") or []:
            if chunk.get("type") == "markdown_text":
                pieces.append(chunk.get("text") or "")
            elif chunk.get("type") not in ("task_update", "plan_update"):
                return "", "invalid_chunks"
        text = "".join(pieces)
        return text, ("msg_too_long" if any(len(p) > MAX_MARKDOWN_TEXT for p in pieces) else None)

    def _chat_startStream(self, params: dict[str, Any]) -> dict[str, Any]:
        channel, thread_ts = params["channel"], params["thread_ts"]  # streamed messages are always replies
        if not channel.startswith("D"):
            # In channels Slack needs to know whom the stream is for.
            if not params.get("recipient_team_id"):
                return {"ok": False, "error": "missing_recipient_team_id"}
            if not params.get("recipient_user_id"):
                return {"ok": False, "error": "missing_recipient_user_id"}
        text, error = self._stream_text(params)
        if error:
            return {"ok": False, "error": error}
        ts = self._next_ts()
        self.messages[(channel, ts)] = {
            "ts": ts, "channel": channel, "thread_ts": thread_ts, "text": text, "blocks": [],
            "user": self.bot_user_id, "bot_id": "BBOT",
        }
        self.streaming.add((channel, ts))
        return {"ok": True, "channel": channel, "ts": ts}

    def _streaming_message(self, params: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        key = (params.get("channel"), params.get("ts"))
        if key not in self.messages:
            return None, {"ok": False, "error": "message_not_found"}
        if key not in self.streaming:
            return None, {"ok": False, "error": "message_not_in_streaming_state"}
        return self.messages[key], None

    def _chat_appendStream(self, params: dict[str, Any]) -> dict[str, Any]:
        message, refused = self._streaming_message(params)
        if refused:
            return refused
        text, error = self._stream_text(params)
        if error:
            return {"ok": False, "error": error}
        message["text"] += text
        return {"ok": True, "channel": message["channel"], "ts": message["ts"]}

    def _chat_stopStream(self, params: dict[str, Any]) -> dict[str, Any]:
        message, refused = self._streaming_message(params)
        if refused:
            return refused
        text, error = self._stream_text(params)
        if error:
            return {"ok": False, "error": error}
        if refused := self._invalid_blocks(params):
            return refused
        message["text"] += text
        message["blocks"] = params.get("blocks") or []
        self.streaming.discard((message["channel"], message["ts"]))
        return {"ok": True, "channel": message["channel"], "ts": message["ts"], "message": message}

    def _chat_delete(self, params: dict[str, Any]) -> dict[str, Any]:
        key = (params["channel"], params["ts"])
        if self.messages.pop(key, None) is None:
            return {"ok": False, "error": "message_not_found"}
        self.streaming.discard(key)
        return {"ok": True, "channel": key[0], "ts": key[1]}

    def _files_getUploadURLExternal(self, params: dict[str, Any]) -> dict[str, Any]:
        file_id = f"F{next(self._ts)}"
        return {"ok": True, "upload_url": f"{self.url}/upload/{file_id}", "file_id": file_id}

    def _files_completeUploadExternal(self, params: dict[str, Any]) -> dict[str, Any]:
        files = params.get("files") or []
        return {"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]}

    def _views_open(self, params: dict[str, Any]) -> dict[str, Any]:
        problems = view_problems(params.get("view"))
        if problems:
            return {"ok": False, "error": "invalid_arguments", "response_metadata": {"messages": problems}}
        return {"ok": True, "view": {"id": f"V{next(self._ts)}", **params["view"]}}

    def _assistant_threads_setStatus(self, params: dict[str, Any]) -> dict[str, Any]:
        self.statuses[(params["channel_id"], params["thread_ts"])] = params["status"]
        return {"ok": True}

    def _assistant_threads_setSuggestedPrompts(self, params: dict[str, Any]) -> dict[str, Any]:
        self.prompts[params["channel_id"]] = params["prompts"]
        return {"ok": True}

    def _assistant_threads_setTitle(self, params: dict[str, Any]) -> dict[str, Any]:
        self.titles[(params["channel_id"], params["thread_ts"])] = params["title"]
        return {"ok": True}

    def _conversations_replies(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "messages": self.thread(params.get("channel"), params.get("ts")), "has_more": False}
