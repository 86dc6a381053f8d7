"""A local OpenAI-compatible chat completions server: answers from a script, records requests.

Each scripted step is (status, body, delay_s); helpers build the bodies as OpenAI does.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field

from aiohttp import web


def completion(message: dict) -> dict:
    return {
        "id": "chatcmpl-" + uuid.uuid4().hex[:12],
        "object": "chat.completion",
        "created": 0,
        "model": "stub-model",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def tool_call_body(name: str, arguments: dict | str) -> dict:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call = {"id": "call_" + uuid.uuid4().hex[:12], "type": "function", "function": {"name": name, "arguments": args}}
    return completion({"content": None, "tool_calls": [call]})


def text_body(text: str) -> dict:
    return completion({"content": text})


def error_body(status: int, message: str) -> dict:
    return {"error": {"message": message, "type": "server_error" if status >= 500 else "rate_limit", "code": status}}


@dataclass
class OpenAIStub:
    steps: list[tuple[int, dict, float]] = field(default_factory=list)
    requests: list[dict] = field(default_factory=list)
    base_url: str = ""

    async def _handle(self, request: web.Request) -> web.Response:
        self.requests.append(await request.json())
        status, body, delay = self.steps.pop(0) if self.steps else (500, error_body(500, "script exhausted"), 0)
        if delay:
            await asyncio.sleep(delay)
        headers = {"retry-after": "0"} if status == 429 else {}
        return web.json_response(body, status=status, headers=headers)

    async def __aenter__(self) -> "OpenAIStub":
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    async def __aexit__(self, *exc) -> None:
        await self._runner.cleanup()
