"""Slack's agent view and the legacy Assistant pane: suggested prompts, loading messages, no internal names."""

from __future__ import annotations

import json

import pytest
from slack_sdk.errors import SlackApiError

from bot.listeners.app import GREETING
from bot.render import actions
from tests.support.slack_requests import click, find_button, mention, message

INTERNAL_NAMES = ("Common Agent", "Chat BI Agent", "Text2SQL Agent", "Fix SQL Agent", "Explain SQL Agent")


async def test_opening_the_messages_tab_offers_the_agents_prompts_without_a_thread(bot, slack, fake_agent):
    assert slack.view == "agent"  # as manifest.yml declares: a thread_ts here would be refused
    await bot.send.event({"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "messages", "event_ts": "1"})
    await bot.drain()
    [call] = slack.calls_to("assistant.threads.setSuggestedPrompts")
    assert call.params["channel_id"] == "D1" and "thread_ts" not in call.params
    assert slack.prompts["D1"][0] == {"title": "Example 1", "message": "example question 1"}


def context_changed(viewing: str, event_ts: str) -> dict:
    entity = {"type": "slack#/types/channel_id", "value": viewing, "team_id": "T1"}
    return {"type": "app_context_changed", "user": "U1", "channel": "D1", "context": {"entities": [entity]},
            "event_ts": event_ts}


async def test_moving_between_channels_offers_the_prompts_again_at_most_once_a_minute(bot, slack, fake_agent):
    await bot.send.event(context_changed("C7", "2.1"))
    await bot.send.event(context_changed("C8", "2.2"))
    await bot.drain()
    [call] = slack.calls_to("assistant.threads.setSuggestedPrompts")
    assert call.params["channel_id"] == "D1" and "thread_ts" not in call.params and slack.prompts["D1"]


async def test_the_stand_in_refuses_a_thread_ts_on_agent_view_prompts_where_slack_would_drop_them(bot, slack):
    prompts = [{"title": "t", "message": "m"}]
    with pytest.raises(SlackApiError) as refused:
        await bot.runtime.client.assistant_threads_setSuggestedPrompts(channel_id="D1", thread_ts="5.0", prompts=prompts)
    assert refused.value.response["error"] == "invalid_arguments" and "D1" not in slack.prompts
    slack.view = "assistant"
    await bot.runtime.client.assistant_threads_setSuggestedPrompts(channel_id="D1", thread_ts="5.0", prompts=prompts)
    assert slack.prompts["D1"] == prompts


async def test_the_home_tab_gets_no_prompts(bot, slack, fake_agent):
    await bot.send.event({"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "home", "event_ts": "1"})
    await bot.drain()
    assert slack.calls_to("assistant.threads.setSuggestedPrompts") == []


async def test_the_legacy_assistant_pane_still_greets_with_prompts(bot, slack, fake_agent):
    slack.view = "assistant"  # a manifest with assistant_view instead of agent_view (README, Slack setup)
    thread = {"user_id": "U1", "channel_id": "D1", "thread_ts": "5.0", "context": {}}
    await bot.send.event({"type": "assistant_thread_started", "assistant_thread": thread, "event_ts": "5.1"})
    await bot.drain()
    [call] = slack.calls_to("assistant.threads.setSuggestedPrompts")
    assert call.params["thread_ts"] == "5.0" and len(slack.prompts["D1"]) == 3
    assert [m["text"] for m in slack.thread("D1", "5.0")] == [GREETING]


async def test_a_direct_message_shows_a_status_with_loading_messages(bot, slack, fake_agent):
    await bot.send.event(message("flights per carrier", ts="200.1", channel="D1", channel_type="im"))
    await bot.drain()
    [first, *_] = slack.calls_to("assistant.threads.setStatus")
    assert first.params["thread_ts"] == "200.1" and len(first.params["loading_messages"]) >= 2


async def test_no_internal_agent_name_reaches_a_person(bot, slack, fake_agent):
    await bot.send.event(mention("daily departures", ts="100.1"))
    await bot.drain()
    question = [m for m in slack.messages.values() if m["channel"] == "C1"][-1]
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await bot.drain()
    shown = json.dumps([*slack.messages.values(), *slack.ephemerals()])
    assert not any(name in shown for name in INTERNAL_NAMES)


def test_the_real_agent_suggests_the_catalogs_own_example_questions(settings):
    from agent.api import Assistant
    from agent.catalog import default_catalog

    assistant = Assistant.from_settings(settings)
    prompts = assistant.suggested_prompts(4)
    questions = [e.question for e in default_catalog().data.examples[:4]]
    assert [p.message for p in prompts] == questions
    assert all(len(p.title) <= 40 for p in prompts)
