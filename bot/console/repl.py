"""The interactive console: the agent in a terminal, with buttons shown as numbered choices."""

from __future__ import annotations

import asyncio
import sys
import uuid
from pathlib import Path
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TextIO

from agent.api import AgentName, AgentReply, AskHuman, Assistant, ChatContext, Event, Progress, format_reply_text, save_chart

BANNER = (
    "Data assistant (console). Ask a data question, or start with /fixsql or /explainsql.\n"
    "When I ask to confirm, type run, edit or cancel (or the option's number). Type quit to leave."
)


async def run_repl(assistant: Assistant, *, input_stream: TextIO = sys.stdin, output: TextIO = sys.stdout) -> None:
    session_id = "console-" + uuid.uuid4().hex[:8]
    charts_dir = Path(assistant.settings.data_dir) / "charts"

    def say(text: str) -> None:
        output.write(text + "\n")
        output.flush()

    async def read(prompt: str) -> str | None:
        output.write(prompt)
        output.flush()
        line = await asyncio.to_thread(input_stream.readline)
        return None if line == "" else line.strip()

    say(BANNER)
    pending = None
    turn = 0
    while True:
        line = await read("\nyou> ")
        if line is None or line.lower() in ("quit", "exit", ":q"):
            say("bye")
            return
        if not line:
            continue
        turn += 1
        context = ChatContext(user="console", request_id=f"{session_id}-{turn}")
        if pending is not None:
            events = await _answer_pending(assistant, session_id, pending, line, context, read)
        elif line.startswith("/fixsql") or line.startswith("/explainsql"):
            command, _, rest = line.partition(" ")
            sql, _, error = rest.partition(" -- ")
            agent = AgentName.FIX_SQL if command == "/fixsql" else AgentName.EXPLAIN_SQL
            events = assistant.run_tool(session_id, agent, {"sql": sql, "error": error or None}, context)
        else:
            events = assistant.ask(session_id, line, context)
        reply = None
        async for event in events:
            if isinstance(event, Progress) and event.status == "started":
                say(f"  … {event.label}")
            elif isinstance(event, AgentReply):
                reply = event
        if reply is None:  # every run ends with a reply; a stream without one is the agent's bug
            raise RuntimeError("the agent ended a run without a reply")
        chart_path = None
        chart = await assistant.draw_chart(reply)
        if chart is not None and chart.png is not None:
            chart_path = await asyncio.to_thread(save_chart, charts_dir, f"{session_id}-{turn}", chart.png)
        say("\nbot> " + format_reply_text(reply, chart_path=chart_path))
        pending = reply.ask_human


async def _answer_pending(
    assistant: Assistant,
    session_id: str,
    pending: AskHuman,
    line: str,
    context: ChatContext,
    read: Callable[[str], Awaitable[str | None]],
) -> AsyncIterator[Event]:
    choice = line
    if line.isdigit() and 1 <= int(line) <= len(pending.options):
        choice = pending.options[int(line) - 1].value
    if pending.kind == "confirm_sql" and choice.lower() == "edit":
        sql = await read("edited SQL> ")
        return assistant.resume(session_id, "edit", context, edited_sql=sql or "")
    by_value = {o.value.lower(): o.value for o in pending.options}
    if choice.lower() in by_value:
        return assistant.resume(session_id, by_value[choice.lower()], context)
    return assistant.ask(session_id, line, context)
