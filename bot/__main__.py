"""`python -m bot`: Socket Mode with SLACK_APP_TOKEN, HTTP with BOT_MODE=http, the console with no Slack tokens."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from agent.api import AssistantError
from bot.settings import BotSettings, load_bot_settings
from bot.logs import configure_logging

log = logging.getLogger("bot")


def choose_mode(settings: BotSettings) -> str:
    if settings.bot_mode != "auto":
        return settings.bot_mode
    if settings.slack_app_token:
        return "socket"
    if settings.has_slack:
        return "http"
    return "console"


def _require(settings: BotSettings, mode: str) -> None:
    missing = [] if settings.has_slack else ["SLACK_BOT_TOKEN"]
    if mode == "http" and not settings.slack_signing_secret:
        missing.append("SLACK_SIGNING_SECRET")
    if mode == "socket" and not settings.slack_app_token:
        missing.append("SLACK_APP_TOKEN")
    if missing:
        raise AssistantError(f"{mode} mode needs {', '.join(missing)}; unset BOT_MODE to use the local console.")


async def _serve(settings: BotSettings, mode: str) -> None:
    from agent.api import Assistant
    from bot.runtime import build_runtime

    _require(settings, mode)
    assistant = Assistant.from_settings(settings)
    runtime = build_runtime(settings, assistant)
    await runtime.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    if mode == "http":
        from aiohttp import web

        from bot.http_server import build_web_app

        runner = web.AppRunner(build_web_app(runtime.app, runtime.health))
        await runner.setup()
        await web.TCPSite(runner, "0.0.0.0", settings.port).start()
        log.info("HTTP mode: listening on port %d", settings.port)
        await stop.wait()
        await runner.cleanup()
    else:
        from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

        assert settings.slack_app_token is not None  # choose_mode picks Socket Mode only with an app token
        handler = AsyncSocketModeHandler(runtime.app, settings.slack_app_token.get_secret_value())
        await handler.connect_async()
        log.info("Socket Mode: connected")
        await stop.wait()
        await handler.close_async()

    # No new requests reach us now; running answers finish within the grace period or go back to the queue.
    log.info("shutting down: finishing running answers (up to %ds)", settings.shutdown_grace_s)
    await runtime.shutdown(settings.shutdown_grace_s)
    await assistant.aclose()


async def _console(settings: BotSettings) -> None:
    from agent.api import Assistant
    from bot.console.repl import run_repl

    await run_repl(Assistant.from_settings(settings))


def main() -> int:
    try:
        settings = load_bot_settings()
    except AssistantError as exc:
        print(exc.user_message, file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    mode = choose_mode(settings)
    try:
        if mode == "console":
            asyncio.run(_console(settings))
        else:
            asyncio.run(_serve(settings, mode))
    except AssistantError as exc:
        log.error("%s", exc.user_message)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
