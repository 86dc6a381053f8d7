"""`python -m agent …`: the agent from a terminal, for people and for scripted checks."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import uuid
from pathlib import Path
from typing import Any

from agent.api import AgentReply, Assistant, AssistantError, load_settings
from bot.console.render_text import format_reply_text, save_chart

MAX_CONFIRMATIONS = 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m agent", description="The data assistant from a terminal.")
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("ask", help="ask a question")
    ask.add_argument("question")
    ask.add_argument("--session", help="continue a session (kept across runs only with REDIS_URL)")
    ask.add_argument("--yes", action="store_true", help="answer a confirmation with Run")
    fix = commands.add_parser("fixsql", help="fix broken SQL")
    fix.add_argument("sql")
    fix.add_argument("--error", help="the error message you saw")
    fix.add_argument("--dialect", default="presto")
    explain = commands.add_parser("explainsql", help="explain what a query does")
    explain.add_argument("sql")
    explain.add_argument("--dialect", default="presto")
    run = commands.add_parser("runsql", help="run a query and analyse the result")
    run.add_argument("sql")
    run.add_argument("--dialect", default="presto")
    commands.add_parser("chat", help="an interactive session")
    for sub in (ask, fix, explain, run):
        sub.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


async def _one_shot(assistant: Assistant, args: argparse.Namespace) -> AgentReply:
    session = getattr(args, "session", None) or "cli-" + uuid.uuid4().hex[:8]
    if args.command == "ask":
        reply = await assistant.reply(assistant.ask(session, args.question))
        tools, calls = list(reply.tools), reply.llm_calls
        for _ in range(MAX_CONFIRMATIONS):
            if not (args.yes and reply.ask_human and reply.ask_human.kind == "confirm_sql"):
                break
            reply = await assistant.reply(assistant.resume(session, "run"))
            tools = reply.tools  # a resumed turn reports every tool of the turn
            calls += reply.llm_calls
        reply.tools, reply.llm_calls = tools, calls
        return reply
    agent_name = {"fixsql": "Fix SQL Agent", "explainsql": "Explain SQL Agent", "runsql": "Chat BI Agent"}[args.command]
    payload = {"sql": args.sql, "error": getattr(args, "error", None), "dialect": args.dialect}
    return await assistant.reply(assistant.run_tool(session, agent_name, payload))


def _as_json(reply: AgentReply, chart_path: str | None) -> dict[str, Any]:
    return {
        "answer": reply.text,
        "sql": reply.sql,
        "columns": reply.columns,
        "rows": reply.rows,
        "row_count": reply.row_count,
        "chart": chart_path,
        "tools": reply.tools,
        "llm_calls": reply.llm_calls,
        "ask_human": reply.ask_human.model_dump() if reply.ask_human else None,
        "error": reply.error,
    }


async def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)

    settings = load_settings()
    logging.basicConfig(level=settings.log_level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    assistant = Assistant.from_settings(settings)
    if args.command == "chat":
        from bot.console.repl import run_repl

        await run_repl(assistant)
        return 0
    reply = await _one_shot(assistant, args)
    chart_path = None
    if reply.chart is not None:
        charts = Path(settings.data_dir) / "charts"
        chart_path = await asyncio.to_thread(save_chart, charts, reply.session_id, reply.chart.png)
    if args.json:
        print(json.dumps(_as_json(reply, chart_path), default=str))
    else:
        print(format_reply_text(reply, chart_path=chart_path))
    return 1 if reply.error else 0


def main(argv: list[str] | None = None) -> int:
    try:
        return asyncio.run(_main(sys.argv[1:] if argv is None else argv))
    except AssistantError as exc:  # start-up problems: bad settings, no warehouse
        print(f"error: {exc.user_message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
