"""Side features degrade, answers go out: user groups, status, suggested prompts, titles, streaming and
file uploads each survive whatever Slack's Web API answers them (ok:false, a 4xx or 5xx that is not
JSON, a proxy's HTML page, a cut connection), log it once with the request id, and the answer is
delivered the plain way (chat.postMessage / chat.update).
"""

from __future__ import annotations

import logging

import pytest

from agent.api import Chart
from agent.charts.spec import ChartSpec
from bot.logs import RequestFields
from bot.render import actions
from bot.turns import INTERNAL_ERROR
from tests.support.slack_requests import click, find_button, mention, message

NOT_JSON = [
    pytest.param(405, "405: Method Not Allowed", "text/plain", id="405-plain-text"),
    pytest.param(500, "<html><body><h1>500 Internal Server Error</h1></body></html>", "text/html", id="500-html"),
    pytest.param(502, "<!DOCTYPE html><title>502 Bad Gateway</title>", "text/html", id="502-html"),
    pytest.param(200, "upstream said ok", "text/plain", id="200-plain-text"),
    pytest.param(503, '{"ok": fal', "application/json", id="503-broken-json"),
]


@pytest.fixture
def logs(caplog):
    """The log as the bot writes it: every record carries the request id of the request it served."""
    caplog.handler.addFilter(RequestFields())
    caplog.set_level(logging.INFO)
    return caplog


def warned(logs, words: str) -> list[logging.LogRecord]:
    """Warning lines about `words`; none may carry a traceback, none may be an error."""
    assert not [r for r in logs.records if r.levelno >= logging.ERROR or r.exc_info], logs.text
    return [r for r in logs.records if r.levelno == logging.WARNING and words in r.getMessage()]


def thread_messages(slack, channel: str, thread_ts: str) -> list[dict]:
    return [m for m in slack.thread(channel, thread_ts) if m["ts"] != thread_ts]


async def ask_and_run(bot, *, ts: str = "100.1", team: bool = True) -> dict:
    event = mention("flights by origin", ts=ts)
    if team:
        event["team"] = "T1"
    await bot.send.event(event)
    await bot.drain()
    question = [m for m in bot.slack.messages.values() if m["channel"] == "C1"][-1]
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await bot.drain()
    [answer] = [m for m in bot.slack.messages.values() if "EWR" in m["text"] or "long answer" in m["text"]]
    return answer


@pytest.mark.parametrize(("status", "body", "content_type"), NOT_JSON)
async def test_user_groups_slack_cannot_read_leave_the_first_explainsql_answered(
    bot, slack, fake_agent, logs, status, body, content_type
):
    slack.fail_raw("usergroups.list", status, body, content_type=content_type)
    await bot.send.command("/explainsql", "SELECT dest, count(*) FROM flights GROUP BY dest")
    await bot.drain()
    [answer] = [m for m in slack.messages.values() if m["channel"] == "C1"]
    assert answer["text"] == "Explain SQL Agent looked at it." and INTERNAL_ERROR not in str(answer)
    assert fake_agent.contexts[-1].groups == []
    [line] = warned(logs, "Slack user groups are not available")
    assert f"http_{status}" in line.getMessage() and line.request_id == fake_agent.contexts[-1].request_id


async def test_user_groups_slack_does_not_answer_at_all(bot, slack, fake_agent, logs):
    slack.drop("usergroups.list", times=10)  # more than the client's own retries
    await bot.send.command("/explainsql", "SELECT 1")
    await bot.drain()
    [answer] = [m for m in slack.messages.values() if m["channel"] == "C1"]
    assert answer["text"] == "Explain SQL Agent looked at it."
    assert len(warned(logs, "Slack user groups are not available")) == 1


@pytest.mark.parametrize(("status", "body", "content_type"), NOT_JSON)
async def test_a_status_slack_cannot_set_becomes_a_placeholder(bot, slack, fake_agent, logs, status, body, content_type):
    slack.fail_raw("assistant.threads.setStatus", status, body, content_type=content_type, times=10)
    await bot.send.event(message("top airlines", ts="500.3", channel="D5", channel_type="im", thread_ts="500.1"))
    await bot.drain()
    [answer] = thread_messages(slack, "D5", "500.1")
    assert answer["text"] == "Here is SQL for top airlines." and find_button(answer, actions.RUN)
    assert slack.calls_to("chat.update")  # progress and the answer went into the placeholder
    [line] = warned(logs, "status failed")
    assert f"http_{status}" in line.getMessage() and line.request_id == fake_agent.contexts[-1].request_id


@pytest.mark.parametrize(("status", "body", "content_type"), NOT_JSON[:2])
async def test_prompts_slack_cannot_show_are_one_line_in_the_log(bot, slack, fake_agent, logs, status, body, content_type):
    slack.fail_raw("assistant.threads.setSuggestedPrompts", status, body, content_type=content_type)
    await bot.send.event({"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "messages", "event_ts": "1"})
    await bot.drain()
    assert "D1" not in slack.prompts
    [line] = warned(logs, "suggested prompts failed")
    assert f"http_{status}" in line.getMessage() and line.request_id != "-"


async def test_a_title_slack_cannot_set_leaves_the_pane_answered(bot, slack, fake_agent, logs):
    slack.view = "assistant"
    slack.fail_raw("assistant.threads.setTitle", 500, "<html>oops</html>")
    started = {"type": "assistant_thread_started",
               "assistant_thread": {"user_id": "U1", "channel_id": "D9", "thread_ts": "400.1", "context": {}},
               "event_ts": "400.2"}
    await bot.send.event(started)
    await bot.send.event(message("top airlines", ts="400.3", channel="D9", channel_type="im", thread_ts="400.1"))
    await bot.drain()
    assert find_button(thread_messages(slack, "D9", "400.1")[-1], actions.RUN)
    assert ("D9", "400.1") not in slack.titles
    [line] = warned(logs, "thread title failed")
    assert "http_500" in line.getMessage() and line.request_id == fake_agent.contexts[-1].request_id


@pytest.mark.parametrize("method", ["chat.startStream", "chat.appendStream", "chat.stopStream"])
async def test_a_stream_slack_breaks_off_is_posted_instead(bot, slack, fake_agent, logs, method):
    fake_agent.answer = "A long answer. " * 100  # several appends, so each stream call is exercised
    slack.fail_raw(method, 502, "<!DOCTYPE html><title>502 Bad Gateway</title>", times=2)
    answer = await ask_and_run(bot)
    assert answer["text"].startswith("A long answer.") and "data_table" in str(answer["blocks"])
    assert not slack.streaming  # a stream broken off halfway was removed, not left hanging
    assert [m for m in slack.messages.values() if m["text"].startswith("A long")] == [answer]
    [line] = warned(logs, "streaming failed")
    assert "http_502" in line.getMessage() and line.request_id == fake_agent.contexts[-1].request_id


async def test_a_cut_connection_while_streaming_is_posted_instead(bot, slack, fake_agent, logs):
    slack.drop("chat.startStream", times=10)  # more than the client's own retries
    answer = await ask_and_run(bot)
    assert "EWR" in answer["text"] and slack.calls_to("chat.update")
    assert len(warned(logs, "streaming failed")) == 1


@pytest.mark.parametrize("method", ["files.getUploadURLExternal", "files.completeUploadExternal"])
@pytest.mark.parametrize(("status", "body", "content_type"), NOT_JSON[:3])
async def test_an_upload_slack_refuses_is_said_in_the_thread(
    bot, slack, fake_agent, logs, method, status, body, content_type
):
    fake_agent.chart = Chart(spec=ChartSpec(kind="bar", x="origin", y=["flights"], title="Flights"))
    slack.fail_raw(method, status, body, content_type=content_type)
    answer = await ask_and_run(bot)
    assert "EWR" in answer["text"] and "data_table" in str(answer["blocks"])
    assert any(m["text"] == "I could not attach chart.png (Flights)." for m in slack.thread("C1", "100.1"))
    [line] = warned(logs, "upload of chart.png failed")
    assert f"http_{status}" in line.getMessage() and line.request_id == fake_agent.contexts[-1].request_id
