"""`python -m bot`: Socket Mode with SLACK_APP_TOKEN, HTTP with BOT_MODE=http, the console with no Slack tokens."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

# Not through agent.api: importing that (and the bot) is the first thing the collector waits through.
from agent.collector import paused_for_startup

if TYPE_CHECKING:
    from aiohttp import web

    from bot.http_server import Serving
    from bot.runtime import BotRuntime
    from agent.api import StartingAssistant
    from bot.settings import BotSettings

log = logging.getLogger("bot")

# On SIGTERM: the grace period for running answers, then this long for the rest of the stop.
EXIT_MARGIN_S = 5
# HTTP mode: the agent's graph is built after the first /readyz 200, or this long after serving without one.
WARM_AFTER_S = 1.0


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
        from agent.api import AssistantError

        raise AssistantError(f"{mode} mode needs {', '.join(missing)}; unset BOT_MODE to use the local console.")


async def _serve(settings: BotSettings, mode: str) -> None:
    from agent.api import Assistant

    with paused_for_startup():  # what start-up builds lives as long as the process (agent/collector.py)
        _require(settings, mode)
        # The warehouse, the semantic model and its values (what readiness checks) are read on a thread from
        # now on, so what they wait for (DuckDB opening its file, a server's connection) overlaps what this
        # thread does (importing Bolt and aiohttp, waiting for Slack's answer to the sign-in); the server
        # answers meanwhile (/livez, /readyz 503). The graph is built from `warm()` below (agent/api.py).
        starting = asyncio.get_running_loop().run_in_executor(None, Assistant.starting, settings)  # on its way now
        listening = None
        try:
            from bot.runtime import build_runtime
            from bot.slack_auth import SlackAuth
            from bot.slack_client import build_web_client

            # HTTP: listening now, so /livez answers and /readyz says 503 while the rest is built.
            listening = await _listen(settings) if mode == "http" else None
            client = build_web_client(settings)
            # Before the first event: a bad token is one clear line, not a traceback then.
            slack_auth = SlackAuth(client)
            log.info("Slack: signed in as %s", await slack_auth.verify())
            assistant = await starting
            runtime = build_runtime(settings, assistant, client=client, slack_auth=slack_auth)
            await runtime.start()
        except BaseException:
            if listening is not None:
                await listening[1].cleanup()
            await _close_started(starting)
            raise
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()

        def on_signal() -> None:
            if not stop.is_set():
                stop.set()
                _exit_anyway_after(settings.shutdown_grace_s + EXIT_MARGIN_S)

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, on_signal)
        stop_serving = await _serving(settings, runtime, listening)
    # Only now, so building the graph (LangChain, LangGraph) and starting the CPU workers do not compete
    # with our start for the CPU: readiness does not wait for them, and an event arriving first waits for
    # them itself, then is answered. HTTP mode: once the first /readyz has said 200 (a build on another
    # thread holding the GIL delayed that answer by a third of a second), or WARM_AFTER_S after serving
    # when no probe comes; Socket Mode has no probe: now.
    if listening is not None and runtime.readiness is not None:
        runtime.readiness.on_first_ready = assistant.warm
        loop.call_later(WARM_AFTER_S, assistant.warm)
    else:
        assistant.warm()
    await stop.wait()
    await stop_serving()

    # No new requests reach us now; running answers finish within the grace period or go back to the queue.
    log.info("shutting down: finishing running answers (up to %ds)", settings.shutdown_grace_s)
    await runtime.shutdown(settings.shutdown_grace_s)
    await assistant.aclose()


async def _close_started(starting: asyncio.Future[StartingAssistant]) -> None:
    """Start-up failed: the agent's start is closed (its warehouse) once it ends; when it is what failed,
    its error is the one raised already."""
    try:
        assistant = await starting
    except BaseException:  # noqa: BLE001 - raised by the caller, or start-up's own error is
        return
    await assistant.aclose()


async def _listen(settings: BotSettings) -> tuple[Serving, web.AppRunner]:
    """The HTTP server, listening before the bot is built: what it serves is handed over later."""
    from aiohttp import web

    from bot.http_server import build_starting_web_app

    web_app, serving = build_starting_web_app()
    runner = web.AppRunner(web_app, access_log=None)  # request lines carry no request id; the listeners log what matters
    await runner.setup()
    await web.TCPSite(runner, settings.host, settings.port).start()
    log.debug("HTTP mode: listening on %s port %d while the bot starts", settings.host, settings.port)
    return serving, runner


async def _serving(
    settings: BotSettings, runtime: BotRuntime, listening: tuple[Serving, web.AppRunner] | None
) -> Callable[[], Awaitable[None]]:
    """Requests reach the bot now (HTTP: served; Socket Mode: connected); returns how to stop them."""
    if listening is not None:
        serving, runner = listening
        serving.serve(runtime.app, runtime.readiness, metrics=runtime.metrics, ack_first=runtime.ack_first)
        log.info("HTTP mode: listening on %s port %d", settings.host, settings.port)
        return runner.cleanup

    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

    assert settings.slack_app_token is not None  # choose_mode picks Socket Mode only with an app token
    handler = AsyncSocketModeHandler(runtime.app, settings.slack_app_token.get_secret_value())
    await handler.connect_async()
    log.info("Socket Mode: connected")
    return handler.close_async


def _exit_anyway_after(seconds: float) -> None:
    """Stopping must not depend on the work's cooperation: past the grace period, leave regardless.

    Work still running then is either back on the queue (Redis) or reported lost in the log;
    what blocks a clean exit (a thread in a statement that ignores interrupts) ends with us.
    """

    def leave() -> None:
        log.error("shutdown did not finish within %.0fs; exiting now", seconds)
        logging.shutdown()
        os._exit(1)

    timer = threading.Timer(seconds, leave)
    timer.daemon = True
    timer.start()


async def _console(settings: BotSettings) -> None:
    from agent.api import Assistant

    with paused_for_startup():  # see agent/collector.py
        from bot.console.repl import run_repl

        assistant = Assistant.from_settings(settings)
    try:
        await run_repl(assistant)
    finally:
        await assistant.aclose()  # connections closed before the interpreter exits: no leak noise at exit


def main() -> int:
    # Importing the agent and the bot makes most of the objects a start allocates, and they live as long
    # as the process: the collector waits, as for the rest of start-up (agent/collector.py; measured:
    # 0.07 CPU-s of scans before /readyz saved).
    with paused_for_startup():
        from agent.api import AssistantError
        from bot.logs import configure_logging
        from bot.settings import load_bot_settings

        try:
            settings = load_bot_settings()
        except AssistantError as exc:
            print(exc.user_message, file=sys.stderr)
            return 2
    configure_logging(settings.log_level, settings.log_format)
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
    except Exception as exc:  # noqa: BLE001 - a bug or the machine (disk, permissions): a sentence, not a traceback
        log.debug("the bot stopped", exc_info=True)
        log.error("The bot stopped: %s: %s (run with LOG_LEVEL=DEBUG to see where).", type(exc).__name__, exc)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
