"""The same surfaces with the real agent (offline model, demo DuckDB): Slack in, answers out; and the console."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.render import actions
from tests.support.bot_server import serving_bot
from tests.support.slack_requests import click, find_button, find_feedback, mention
from tests.support.timeouts import PROCESS_TIMEOUT_S


@pytest.fixture(scope="module")
async def real_agent(settings):
    from agent.api import Assistant

    assistant = Assistant.from_settings(settings)
    yield assistant
    await assistant.aclose()


@pytest.fixture
async def real_bot(bot_settings, slack, real_agent):
    async with serving_bot(bot_settings, slack, real_agent) as running:
        yield running


def everything(msg: dict) -> str:
    return msg["text"] + "\n" + "\n".join(
        b["text"]["text"] if "text" in b else " ".join(str(e.get("text", "")) for e in b.get("elements", []))
        for b in msg["blocks"]
    )


async def test_question_confirm_run_answer_through_slack(real_bot, slack):
    await real_bot.send.event(mention("average arrival delay by origin", ts="100.1"))
    await real_bot.drain()
    question = slack.thread("C1", "100.1")[-1]
    run = find_button(question, actions.RUN)
    assert run, everything(question)
    assert "SELECT" in everything(question).upper()

    await real_bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await real_bot.drain()
    answer = slack.thread("C1", "100.1")[-1]
    text = everything(answer)
    assert ":warning:" not in text, text
    assert "origin" in text and any(code in text for code in ("EWR", "JFK", "LGA"))
    assert find_feedback(answer, "up")


async def test_fixsql_through_slack_returns_a_repaired_query(real_bot, slack):
    await real_bot.send.command("/fixsql", "select origin, count(* from flights -- syntax error near from")
    await real_bot.drain()
    [root] = [m for m in slack.messages.values() if m["channel"] == "C1"]
    text = everything(root)
    assert ":warning:" not in text, text
    assert "GROUP BY" in text.upper()


@pytest.mark.subprocess
def test_console_mode_is_driven_through_standard_input(settings, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_"))}
    env["DATA_DIR"] = str(settings.data_dir)
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        input="average arrival delay by origin\nrun\nquit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,  # no .env here
        env=env,
        timeout=PROCESS_TIMEOUT_S,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    replies = result.stdout.split("bot> ")
    assert len(replies) == 3, result.stdout
    assert "SELECT" in replies[1].upper()
    assert any(code in replies[2] for code in ("EWR", "JFK", "LGA")), result.stdout
    assert "Traceback" not in result.stdout + result.stderr
