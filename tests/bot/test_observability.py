"""What an operator sees: /metrics (parsed with prometheus-client's own parser), /healthz with the
Slack token check, JSON log lines, the start-up token check, and clicks on someone else's question."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.render import actions
from tests.bot.test_surfaces import ask_and_pause, bot_messages
from tests.support.bot_server import serving_bot
from tests.support.slack_requests import SlackSender, click, find_button, mention
from tests.support.timeouts import PROCESS_TIMEOUT_S

SECRET = "obs-secret"


async def scrape(bot) -> dict[tuple[str, tuple], float]:
    async with aiohttp.ClientSession() as session, session.get(bot.url + "/metrics") as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def test_metrics_count_requests_answers_errors_and_queue(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await bot.drain()
    await bot.send.command("/explainsql", "SELECT 1")
    await bot.drain()
    fake_agent.fail_with = "The warehouse is down."
    await bot.send.event(mention("another question", ts="200.1"))
    await bot.drain()

    samples = await scrape(bot)
    assert samples[("sda_requests_total", (("surface", "mention"),))] == 2
    assert samples[("sda_requests_total", (("surface", "action"),))] == 1
    assert samples[("sda_requests_total", (("surface", "command"),))] == 1
    assert samples[("sda_answers_total", (("kind", "question"),))] == 1
    assert samples[("sda_answers_total", (("kind", "answer"),))] == 2
    assert samples[("sda_answers_total", (("kind", "error"),))] == 1
    assert samples[("sda_errors_total", (("code", "warehouse"),))] == 1
    assert samples[("sda_queue_depth", ())] == 0
    assert ("sda_job_retries_total", ()) in samples and ("sda_llm_calls_total", ()) in samples


async def test_someone_elses_click_gets_an_ephemeral_note(bot, slack, fake_agent):
    fake_agent.not_owners = {"U2"}
    question = await ask_and_pause(bot)
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run", user="U2"))
    await bot.drain()
    assert [c[0] for c in fake_agent.calls] == ["ask"]  # nothing ran
    note = slack.calls_to("chat.postEphemeral")[-1].params
    assert note["user"] == "U2" and "only they can run" in note["text"]
    assert find_button(slack.messages[("C1", question["ts"])], actions.RUN)  # still the asker's to click
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run", user="U1"))
    await bot.drain()
    assert fake_agent.calls[-1][0] == "resume"


async def test_healthz_reports_a_refused_token(bot, slack):
    slack.fail("auth.test", "token_revoked", times=1)
    async with aiohttp.ClientSession() as session, session.get(bot.url + "/healthz") as response:
        assert response.status == 503
        report = await response.json()
    assert report["ok"] is False and "revoked" in report["slack"]


@pytest.fixture(scope="module")
async def real_agent(settings):
    from agent.api import Assistant

    assistant = Assistant.from_settings(settings)
    yield assistant
    await assistant.aclose()


async def test_real_agent_queries_land_in_the_duration_histogram(bot_settings, slack, real_agent):
    async with serving_bot(bot_settings, slack, real_agent) as running:
        await running.send.command("/fixsql", "SELECT count(*) FORM flights")
        await running.drain()
        question = await ask_and_pause(running, "number of flights by origin", ts="300.1")
        run = find_button(question, actions.RUN)
        await running.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
        await running.drain()
        samples = await scrape(running)
    assert samples[("sda_query_duration_seconds_count", (("outcome", "ok"),))] >= 1
    assert bot_messages(slack)[-1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bot_env(slack, settings, **extra) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OPENAI_", "BOT_", "REDIS_", "LOG_"))}
    env.update(BOT_MODE="http", SLACK_BOT_TOKEN="xoxb-very-secret-token", SLACK_SIGNING_SECRET=SECRET,
               SLACK_API_URL=slack.api_url, DATA_DIR=str(settings.data_dir), **extra)
    return env


@pytest.mark.subprocess
async def test_a_bad_token_stops_start_up_with_one_clear_line(slack, settings, tmp_path):
    slack.fail("auth.test", "invalid_auth")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=bot_env(slack, settings, PORT=str(free_port())),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, stderr = await asyncio.wait_for(process.communicate(), PROCESS_TIMEOUT_S)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    lines = stderr.decode().strip().splitlines()
    assert process.returncode == 2
    # the agent starts on a thread meanwhile, so its progress lines (INFO: the demo warehouse built) may come
    # first on a fast machine; the failure itself is one line, the last, and no traceback
    problems = [line for line in lines if " INFO " not in line]
    assert len(problems) == 1 and problems[0] == lines[-1], lines
    assert "SLACK_BOT_TOKEN is not a valid token" in lines[-1] and "invalid_auth" in lines[-1]
    assert "xoxb-very-secret-token" not in stderr.decode()


@pytest.mark.subprocess
async def test_json_logs_carry_request_fields_and_no_bodies_or_secrets(slack, settings, tmp_path):
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path,
        env=bot_env(slack, settings, PORT=str(port), LOG_FORMAT="json", LOG_LEVEL="DEBUG"),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(PROCESS_TIMEOUT_S * 10):  # start-up loads the warehouse; poll until it listens
                try:
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientConnectorError:
                    assert process.returncode is None
                await asyncio.sleep(0.1)
            sender = SlackSender(f"http://127.0.0.1:{port}/slack/events", SECRET, session)
            await sender.event(mention("number of flights by origin", ts="400.1", user="ULOG", channel="CLOG"))
            status, _ = await sender.event(mention("forged SECRETBODYTEXT", ts="401.1"), secret="wrong")
            assert status == 401
            for _ in range(PROCESS_TIMEOUT_S * 10):
                if any("Shall I run" in (m.get("text") or "") or m.get("blocks") for m in slack.thread("CLOG", "400.1")
                       if m.get("ts") != "400.1") and len(slack.calls_to("chat.update")) > 0:
                    break
                await asyncio.sleep(0.1)
    finally:
        process.terminate()
        _, stderr = await process.communicate()
    text = stderr.decode()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert lines and all({"ts", "level", "logger", "message", "request_id", "user", "channel", "duration_ms"} <= set(r)
                         for r in lines)
    answered = [r for r in lines if r["message"].startswith("answered")]
    assert answered and answered[0]["user"] == "ULOG" and answered[0]["channel"] == "CLOG"
    assert answered[0]["request_id"] != "-" and answered[0]["duration_ms"] is not None
    assert any("Invalid request signature" in r["message"] for r in lines)
    assert "SECRETBODYTEXT" not in text and "xoxb-very-secret-token" not in text and SECRET not in text
    assert "number of flights by origin" not in text  # what people write stays out of the logs


async def test_the_askers_slack_user_groups_reach_the_agent(bot, slack, fake_agent):
    slack.usergroups = [{"id": "S0ANALYSTS", "handle": "analysts", "users": ["U1", "U7"]},
                        {"id": "S0OPS", "handle": "ops", "users": ["U7"]}]
    await ask_and_pause(bot)
    await bot.send.event(mention("and another", ts="101.1"))
    await bot.drain()
    assert [c.groups for c in fake_agent.contexts] == [["S0ANALYSTS", "analysts"]] * 2
    assert len(slack.calls_to("usergroups.list")) == 1  # read once, then cached


async def test_without_the_scope_people_have_no_slack_groups(bot, slack, fake_agent, caplog):
    slack.fail("usergroups.list", "missing_scope")
    await ask_and_pause(bot)
    assert fake_agent.contexts[-1].groups == [] and fake_agent.contexts[-1].user == "U1"
    assert "Slack user groups are not available" in caplog.text
