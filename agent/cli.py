"""`python -m agent …`: the agent from a terminal, one command at a time, for people and for scripted
checks (an interactive session is the bot's console: `python -m bot` without Slack tokens).

Only the standard library is imported at the top: the agent (LangGraph, LangChain, sqlglot,
DuckDB) takes a second or two to import, so the command says it is working before that, and
`--help` and argument errors are instant.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import logging
import os
import sys
import threading
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from agent.collector import freeze_before_exit, paused_for_startup

if TYPE_CHECKING:
    from agent.api import AgentReply, Assistant, Event, Settings

MAX_CONFIRMATIONS = 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m agent", description="The data assistant from a terminal, one command a run.",
        epilog="For an interactive session run `python -m bot` without Slack tokens (or with BOT_MODE=console).")
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("ask", help="ask a question")
    ask.add_argument("question")
    ask.add_argument("--session", help="continue a session (kept across runs only with REDIS_URL)")
    ask.add_argument("--yes", action="store_true", help="answer a confirmation with Run")
    fix = commands.add_parser("fixsql", help="fix broken SQL")
    fix.add_argument("sql")
    fix.add_argument("--error", help="the error message you saw")
    fix.add_argument("--dialect", help="the dialect the SQL is written in (default: Presto)")
    explain = commands.add_parser("explainsql", help="explain what a query does")
    explain.add_argument("sql")
    explain.add_argument("--dialect", help="the dialect the SQL is written in (default: Presto)")
    run = commands.add_parser("runsql", help="run a query and analyse the result")
    run.add_argument("sql")
    run.add_argument("--dialect", help="the dialect the SQL is written in (default: Presto)")
    audit = commands.add_parser("audit", help="the audit trail of executed queries")
    audit_commands = audit.add_subparsers(dest="audit_command", required=True)
    tail = audit_commands.add_parser("tail", help="print the newest records, one JSON object a line")
    tail.add_argument("-n", "--lines", type=int, default=20, help="how many records (default 20)")
    catalog = commands.add_parser("catalog", help="bootstrap, check or refresh the catalog of WAREHOUSE_URL")
    steps = catalog.add_subparsers(dest="step", required=True)
    steps.add_parser("init", help="write catalog.yaml and a dbt semantic model from the schema").add_argument(
        "--out", type=Path, required=True)
    steps.add_parser("check", help="validate a folder written by init (default: the model the bot starts with) "
                     "against the warehouse, every metric compiled and dry-run").add_argument(
        "folder", type=Path, nargs="?")
    steps.add_parser("refresh", help="re-read the schema; with a folder, list what changed").add_argument(
        "folder", type=Path, nargs="?")
    steps.add_parser("words", help="what a word can mean to the reader here, and why").add_argument("word")
    for name, what, undo in (("vocabulary", "the words the team taught", "WORD"),
                             ("verified", "the verified queries the team saved", "NAME")):
        learned = commands.add_parser(name, help=f"review or undo {what} (per workspace)")
        learned.add_argument("--workspace", default="default", help="the Slack team id (default: the command line's)")
        review = learned.add_subparsers(dest="step", required=True)
        review.add_parser("list", help=f"list {what}")
        if name == "vocabulary":
            review.add_parser("show", help="one learned word").add_argument("target", metavar=undo)
        review.add_parser("forget", help="remove one (recorded in the audit trail)").add_argument("target", metavar=undo)
        review.add_parser("export", help="print (or --out) dbt YAML to review and commit").add_argument(
            "--out", type=Path)
    for sub in (ask, fix, explain, run):
        sub.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


async def _shown(events: AsyncIterator[Event]) -> AgentReply:
    """The final reply; each step is shown on stderr as it starts (stdout stays the answer)."""
    from agent.api import AgentReply, Progress

    last: Event | None = None
    async for event in events:
        if isinstance(event, Progress) and event.status == "started":
            print(f"… {event.label}", file=sys.stderr, flush=True)
        last = event
    assert isinstance(last, AgentReply)
    return last


async def _one_shot(assistant: Assistant, args: argparse.Namespace) -> AgentReply:
    from agent.api import AgentName

    session = getattr(args, "session", None) or "cli-" + uuid.uuid4().hex[:8]
    if args.command == "ask":
        reply = await _shown(assistant.ask(session, args.question))
        tools, calls = list(reply.tools), reply.llm_calls
        for _ in range(MAX_CONFIRMATIONS):
            if not (args.yes and reply.ask_human and reply.ask_human.kind == "confirm_sql"):
                break
            reply = await _shown(assistant.resume(session, "run"))
            tools = reply.tools  # a resumed turn reports every tool of the turn
            calls += reply.llm_calls
        reply.tools, reply.llm_calls = tools, calls
        return reply
    agent_name = {"fixsql": AgentName.FIX_SQL, "explainsql": AgentName.EXPLAIN_SQL, "runsql": AgentName.CHAT_BI}[args.command]
    payload = {"sql": args.sql, "error": getattr(args, "error", None), "dialect": args.dialect}
    return await _shown(assistant.run_tool(session, agent_name, payload))


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
        "learn": reply.learn.model_dump() if reply.learn else None,
        "error": reply.error,
    }


def _failed(args: argparse.Namespace, message: str) -> int:
    """A run that could not start or crashed: one sentence, as JSON on stdout with --json (the same keys
    as an answer, so a script reads `error` either way), else on stderr; never a traceback."""
    if getattr(args, "json", False):
        print(json.dumps({"answer": "", "sql": None, "columns": [], "rows": [], "row_count": 0, "chart": None,
                          "tools": [], "llm_calls": 0, "ask_human": None, "error": message}))
    else:
        print(f"error: {message}", file=sys.stderr)
    return 2


def _catalog(args: argparse.Namespace, settings: Settings) -> int:
    from agent.api import catalog_command

    target = getattr(args, "out", None) or getattr(args, "folder", None) or getattr(args, "word", None)
    status, lines = catalog_command(settings, args.step, target)
    print("\n".join(lines))
    return status


async def _main(args: argparse.Namespace) -> int:
    from agent.api import Assistant, build_groundwork, chart_ahead, load_settings

    settings = load_settings()
    if args.command == "audit":
        return _audit_tail(settings, args.lines)
    if args.command in ("vocabulary", "verified"):
        return _learned(args, settings)

    logging.basicConfig(level=settings.log_level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "catalog":
        return await asyncio.to_thread(_catalog, args, settings)
    first_reading = args.command == "ask" and not args.session
    with paused_for_startup():
        # A new question may well be answered with a chart: the process that would draw it starts
        # importing the chart library now, on another core (before the warehouse opens: see StepAhead).
        drawing = chart_ahead() if first_reading else None
        try:
            # The warehouse and the semantic model are read before the graph machinery is imported, so
            # a new question's reading is shown while the rest loads; the supervisor then does the work.
            groundwork = build_groundwork(settings)
            reading = groundwork.reading(args.question) if first_reading else None
            if reading is not None:
                print(f"… Reading it as: {reading.text}", file=sys.stderr, flush=True)
            if drawing is not None and (reading is None or not reading.grouped):  # no row per group: no chart
                drawing.close()
                drawing = None
            # What the first steps wait for is read on a thread while the graph machinery is imported below;
            # not before the chart's process is forked (above), so that fork copies no lock a thread holds.
            groundwork.read_ahead(dates=args.command == "ask")
            # One command, then exit: its CPU steps run here under their budget, no worker pool is started.
            assistant = Assistant.from_settings(settings, groundwork=groundwork, in_process=True, drawing=drawing)
        except BaseException:
            if drawing is not None:
                drawing.close()
            raise
    try:
        return await _work(assistant, args, settings)
    finally:
        await assistant.aclose()  # the warehouse connection closes before the interpreter exits


async def _work(assistant: Assistant, args: argparse.Namespace, settings: Settings) -> int:
    from agent.reply_text import format_reply_text, save_chart

    reply = await _one_shot(assistant, args)
    chart_path = None
    chart = await assistant.draw_chart(reply)
    if chart is not None and chart.png is not None:
        charts = Path(settings.data_dir) / "charts"
        chart_path = await asyncio.to_thread(save_chart, charts, reply.session_id, chart.png)
    if args.json:
        print(json.dumps(_as_json(reply, chart_path), default=str))
    else:
        print(format_reply_text(reply, chart_path=chart_path))
    return 1 if reply.error else 0


def _learned(args: argparse.Namespace, settings: Settings) -> int:
    from agent.api import learning_command

    status, lines = learning_command(settings, args.command, args.step, getattr(args, "target", None),
                                     args.workspace, getattr(args, "out", None))
    print("\n".join(lines), file=sys.stdout if status == 0 else sys.stderr)
    return status


def _audit_tail(settings: Settings, count: int) -> int:
    from agent.api import read_audit_tail

    for record in read_audit_tail(settings, count):
        print(json.dumps(record))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command in ("ask", "fixsql", "explainsql", "runsql"):
        print("… Working on it", file=sys.stderr, flush=True)
    with paused_for_startup():
        from agent.api import AssistantError

    try:
        return asyncio.run(_main(args))
    except AssistantError as exc:  # start-up problems: settings, driver, warehouse, semantic model, policy
        return _failed(args, exc.user_message)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug or the machine (disk, permissions): a sentence, not a traceback
        logging.getLogger("agent.cli").debug("the run failed", exc_info=True)
        return _failed(args, f"Something went wrong before I could answer ({type(exc).__name__}: {exc}); "
                             "run with LOG_LEVEL=DEBUG to see where.")
    finally:
        freeze_before_exit()  # one command a process: nothing runs after this


def exit_at_once(status: int) -> NoReturn:
    """End this process with `status` once its output is written. The atexit handlers run as at any exit;
    what the ordinary exit does after them is left out: taking apart the thousand-odd modules a command
    imports, object by object, only to hand back memory the system takes back with the process anyway
    (about 25 ms of `python -m agent ask`, after its answer is out and before the caller sees it end).
    A thread still working (not a daemon) is waited for by the ordinary exit instead."""
    main_thread = threading.main_thread()
    if any(thread is not main_thread and not thread.daemon and thread.is_alive() for thread in threading.enumerate()):
        sys.exit(status)
    atexit._run_exitfuncs()  # logging's flush among them
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # the reader went away (a closed pipe): the status Python's own exit gives then
        status = 120
    os._exit(status)
