"""The Web API client keeps its connections to Slack: one per call would cost each call a new TCP
connection (and a TLS handshake against Slack), on the event loop the acks share."""

from __future__ import annotations

from aiohttp import web

from bot.runtime import build_runtime
from bot.slack_client import build_web_client


async def peers_server() -> tuple[web.AppRunner, str, list[int]]:
    """A Web API that answers ok to everything and notes the client port each call came from."""
    ports: list[int] = []

    async def api(request: web.Request) -> web.Response:
        assert request.transport is not None
        ports.append(request.transport.get_extra_info("peername")[1])
        return web.json_response({"ok": True, "ts": "1.000001", "channel": "C1"})

    app = web.Application()
    app.router.add_post("/api/{method}", api)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/api/", ports


async def test_calls_one_after_another_share_one_connection(bot_settings):
    runner, url, ports = await peers_server()
    client = build_web_client(bot_settings.model_copy(update={"slack_api_url": url}))
    client.keep_connections = True
    try:
        for n in range(4):
            await client.chat_postMessage(channel="C1", text=f"message {n}")
        assert len(ports) == 4 and len(set(ports)) == 1, ports
    finally:
        await client.aclose()
        await runner.cleanup()


async def test_a_dropped_connection_is_retried_on_a_new_one(bot_settings, slack):
    client = build_web_client(bot_settings)
    client.keep_connections = True
    try:
        await client.auth_test()
        slack.drop("chat.postMessage")
        response = await client.chat_postMessage(channel="C1", text="after the drop")
        assert response["ok"] and len(slack.calls_to("chat.postMessage")) == 2
    finally:
        await client.aclose()


async def test_the_bot_keeps_connections_from_its_start_to_its_stop(bot_settings, fake_agent):
    client = build_web_client(bot_settings)
    await client.auth_test()  # the token check at start-up: nothing is left open if start-up stops here
    assert client.session is None
    runtime = build_runtime(bot_settings, fake_agent, client=client)
    await runtime.start()
    await client.auth_test()
    assert client.session is not None and not client.session.closed
    await runtime.close()
    assert client.session.closed
