"""Exactly one answer, verified requests, rate limits honoured, failures told to the person."""

from __future__ import annotations

import time

from bot.render import actions
from bot.render.blocks import MAX_BLOCKS, MAX_SECTION
from tests.support.slack_requests import click, find_button, mention, message


def bot_messages(slack, channel="C1"):
    return [m for m in slack.messages.values() if m["channel"] == channel]


def all_text(msg):
    return "\n".join([msg["text"]] + [b["text"]["text"] for b in msg["blocks"] if "text" in b]
                     + [e["text"] for b in msg["blocks"] if b["type"] == "context" for e in b["elements"]])


async def test_retries_and_double_delivery_give_one_answer(bot, slack, fake_agent):
    event = mention("flights per month", ts="100.1")
    await bot.send.event(event, event_id="Ev1")
    await bot.send.event(event, event_id="Ev1", retry_num=1)
    await bot.send.event(event, event_id="Ev1", retry_num=2)
    # The same user message also arrives as a `message` event, with its own event id.
    await bot.send.event(message(event["text"], ts="100.1"), event_id="Ev2")
    await bot.drain()
    assert [c[0] for c in fake_agent.calls] == ["ask"]
    assert len(slack.calls_to("chat.postMessage")) == 1


async def test_bot_messages_edits_and_deletions_are_ignored(bot, slack, fake_agent):
    await bot.send.event(message("<@UBOT> hi from a bot", ts="1.1", bot_id="B2", channel_type="im", channel="D1"))
    await bot.send.event(message("<@UBOT> from myself", ts="1.2", user="UBOT", channel_type="im", channel="D1"))
    await bot.send.event({"type": "message", "subtype": "message_changed", "channel": "D1", "channel_type": "im",
                          "ts": "1.3", "message": {"user": "U1", "text": "edited", "ts": "1.0"}})
    await bot.send.event({"type": "message", "subtype": "message_deleted", "channel": "D1", "channel_type": "im",
                          "ts": "1.4", "deleted_ts": "1.0"})
    await bot.send.event({"type": "message", "subtype": "channel_join", "channel": "C1", "channel_type": "channel",
                          "ts": "1.5", "user": "U1", "text": "<@U1> has joined"})
    await bot.drain()
    assert fake_agent.calls == [] and slack.calls_to("chat.postMessage") == []


async def test_bad_signature_and_stale_timestamp_get_401_and_run_nothing(bot, slack, fake_agent):
    status, _ = await bot.send.event(mention("q", ts="7.1"), secret="wrong-secret")
    assert status == 401
    status, _ = await bot.send.event(mention("q", ts="7.2"), timestamp=int(time.time()) - 6 * 60)
    assert status == 401
    status, _ = await bot.send.command("/fixsql", "select 1", )
    assert status == 200  # control: a properly signed request passes
    await bot.drain()
    assert [c[0] for c in fake_agent.calls] == ["tool"]


async def test_rate_limited_web_api_is_retried_and_nothing_is_lost(bot, slack, fake_agent):
    slack.rate_limit("chat.postMessage", retry_after=0)
    slack.rate_limit("chat.update", retry_after=0, times=2)
    await bot.send.event(mention("q", ts="8.1"))
    await bot.drain()
    assert len(slack.calls_to("chat.postMessage")) == 2  # the 429, then the retry
    [reply] = bot_messages(slack)
    assert find_button(reply, actions.RUN)  # the final reply made it


async def test_failing_agent_run_gives_error_with_request_id_and_retry_that_reruns(bot, slack, fake_agent):
    fake_agent.fail_with = "The warehouse did not answer in time."
    await bot.send.event(mention("q", ts="9.1"))
    await bot.drain()
    [reply] = bot_messages(slack)
    text = all_text(reply)
    assert "The warehouse did not answer in time." in text and "Request id `" in text
    assert "Traceback" not in text
    retry = find_button(reply, actions.RETRY)

    await bot.send.interaction(click(actions.RETRY, retry["value"], message=reply))
    await bot.send.interaction(click(actions.RETRY, retry["value"], message=reply))  # a double click
    await bot.drain()
    assert [c[0] for c in fake_agent.calls] == ["ask", "ask"]
    assert fake_agent.calls[1][1:] == ("slack-C1-9.1", "q")
    assert find_button(bot_messages(slack)[-1], actions.RUN)


async def test_agent_bug_still_gets_a_plain_error_reply(bot, slack, fake_agent):
    fake_agent.crash = True
    await bot.send.event(mention("q", ts="10.1"))
    await bot.drain()
    [reply] = bot_messages(slack)
    assert "Something went wrong on my side" in all_text(reply)
    assert "bug in the agent" not in all_text(reply)
    assert find_button(reply, actions.RETRY)


async def test_long_result_stays_within_limits_and_offers_csv(bot, slack, fake_agent):
    fake_agent.rows = 400
    await bot.send.event(mention("q " + "very long question " * 600, ts="11.1"))
    await bot.drain()
    question = bot_messages(slack)[-1]
    await bot.send.interaction(click(actions.RUN, find_button(question, actions.RUN)["value"], message=question))
    await bot.drain()
    for msg in bot_messages(slack):
        assert len(msg["blocks"]) <= MAX_BLOCKS
        assert all(len(b["text"]["text"]) <= MAX_SECTION for b in msg["blocks"] if "text" in b)
    answer = bot_messages(slack)[-1]
    assert "of 400 rows" in all_text(answer) and "CSV" in all_text(answer)
    [complete] = slack.calls_to("files.completeUploadExternal")
    assert complete.params["thread_ts"] == "11.1"
    [csv] = slack.uploads.values()
    assert csv.decode().splitlines()[0] == "origin,flights" and len(csv.decode().splitlines()) == 401


async def test_final_reply_is_posted_when_the_placeholder_cannot_be_updated(bot, slack, fake_agent):
    slack.fail("chat.update", "message_not_found", times=10)
    await bot.send.event(mention("q", ts="12.1"))
    await bot.drain()
    posts = slack.calls_to("chat.postMessage")
    assert len(posts) == 2 and find_button(bot_messages(slack)[-1], actions.RUN)


async def test_per_user_rate_limit_tells_the_person(bot, slack, fake_agent):
    bot.runtime.settings.user_rate_limit_per_minute = 2
    for i in range(3):
        await bot.send.event(mention(f"q{i}", ts=f"13.{i}"))
    await bot.drain()
    assert len(fake_agent.calls) == 2
    assert "questions in the last minute" in slack.calls_to("chat.postEphemeral")[0].params["text"]
