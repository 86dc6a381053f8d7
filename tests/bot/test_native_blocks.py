"""Slack's 2026 answer surface through the stand-in: streamed answers, native table and chart, fallbacks.

The stand-in refuses blocks that break Block Kit's limits (invalid_blocks) and answers the chat.*Stream
methods with Slack's error codes, so each fallback is exercised the way Slack would trigger it.
"""

from __future__ import annotations

from agent.charts.spec import ChartSpec
from agent.api import Chart
from bot.render import actions
from tests.support.slack_requests import click, find_button, mention


def bot_messages(slack, channel="C1"):
    return [m for m in slack.messages.values() if m["channel"] == channel]


async def run_question(bot, *, ts="100.1", team=True):
    event = mention("flights by origin", ts=ts)
    if team:
        event["team"] = "T1"
    await bot.send.event(event)
    await bot.drain()
    question = bot_messages(bot.slack)[-1]
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await bot.drain()
    return bot_messages(bot.slack)[-1]


def block_types(message) -> list[str]:
    return [b["type"] for b in message.get("blocks", [])]


async def test_the_answer_is_streamed_then_stopped_with_table_and_feedback(bot, slack, fake_agent):
    answer = await run_question(bot)
    [start] = slack.calls_to("chat.startStream")
    assert start.params["thread_ts"] == "100.1"
    assert start.params["recipient_user_id"] == "U1" and start.params["recipient_team_id"] == "T1"
    [stop] = slack.calls_to("chat.stopStream")
    assert answer["ts"] == stop.params["ts"] and answer["text"] == "**EWR** leads with the most flights."
    assert "data_table" in block_types(answer) and "context_actions" in block_types(answer)
    # The placeholder that said "Running it…" is gone; only the streamed answer remains.
    assert not any("Running it" in m["text"] for m in bot_messages(slack))


async def test_an_answer_longer_than_one_stream_call_takes_is_streamed_whole(bot, slack, fake_agent):
    # Slack's 12,000 characters are per chat.*Stream call (the stand-in refuses more), not per message.
    fake_agent.answer = "".join(f"Line {i}: departures rose at every airport.\n" for i in range(800))
    assert len(fake_agent.answer) > 30_000
    answer = await run_question(bot)
    assert answer["text"] == fake_agent.answer.strip()
    assert len(slack.calls_to("chat.appendStream")) > 3 and "data_table" in block_types(answer)


async def test_a_refused_stream_falls_back_to_replacing_the_placeholder(bot, slack, fake_agent):
    slack.fail("chat.startStream", "missing_recipient_team_id")
    answer = await run_question(bot)
    assert slack.calls_to("chat.stopStream") == []
    assert "EWR" in answer["text"] and "data_table" in block_types(answer)
    assert slack.calls_to("chat.update")


async def test_a_long_result_shows_its_first_100_rows_in_the_data_table_and_says_so(bot, slack, fake_agent):
    fake_agent.rows = 400
    answer = await run_question(bot)
    [table] = [b for b in answer["blocks"] if b["type"] == "data_table"]
    assert len(table["rows"]) == 101
    assert any("Showing 100 of 400 rows" in str(b) for b in answer["blocks"])


async def test_blocks_slack_refuses_are_sent_again_without_the_new_blocks(bot, slack, fake_agent):
    slack.fail("chat.stopStream", "invalid_blocks")
    answer = await run_question(bot)
    assert len(slack.calls_to("chat.stopStream")) == 2
    assert "data_table" not in block_types(answer) and "```" in str(answer["blocks"])
    assert find_button(answer, actions.FEEDBACK_UP)


async def test_a_chart_that_fits_is_a_native_chart_and_the_png_is_still_attached(bot, slack, fake_agent):
    spec = ChartSpec(kind="bar", x="origin", y=["flights"], title="Flights by origin", x_label="origin",
                     y_label="flights")
    fake_agent.chart = Chart(spec=spec)
    answer = await run_question(bot)
    [chart] = [b for b in answer["blocks"] if b["type"] == "data_visualization"]
    assert chart["title"] == "Flights by origin"
    assert chart["chart"]["axis_config"]["categories"] == ["AP0", "AP1", "AP2"]
    assert slack.calls_to("files.completeUploadExternal")


async def test_the_stand_in_refuses_an_oversized_block_like_slack():
    from tests.support.block_limits import block_problems

    too_long_title = {"type": "data_visualization", "title": "x" * 51,
                      "chart": {"type": "pie", "segments": [{"label": "a", "value": 1}]}}
    assert block_problems([too_long_title]) == ["blocks[0]: title must be 1-50 characters"]
    assert block_problems([too_long_title] * 3)[0] == "more than two data_visualization blocks in one message"
