"""The stand-in refuses what Slack refuses: the checks every bot test relies on, shown failing."""

from __future__ import annotations

import aiohttp
import pytest

from tests.support.block_limits import block_problems, view_problems
from tests.support.slack_standin import SlackStandIn

BUTTON = {"type": "button", "text": {"type": "plain_text", "text": "Run"}, "action_id": "run", "value": "v"}


@pytest.fixture
async def slack():
    standin = await SlackStandIn().start()
    yield standin
    await standin.close()


async def call(slack: SlackStandIn, method: str, *, get: bool = False, **params) -> dict:
    async with aiohttp.ClientSession() as session:
        request = session.get(slack.api_url + method, params=params) if get else session.post(
            slack.api_url + method, json=params)
        async with request as response:
            assert response.status == 200
            return await response.json()


@pytest.mark.parametrize("get", [False, True])
async def test_an_unknown_method_is_answered_as_slack_answers_it(slack, get):
    answer = await call(slack, "chat.postMesage", get=get, channel="C1", text="hi")
    assert answer == {"ok": False, "error": "unknown_method", "req_method": "chat.postMesage"}


async def test_missing_arguments_are_refused(slack):
    assert (await call(slack, "chat.postMessage", text="hi"))["error"] == "channel_not_found"
    assert (await call(slack, "chat.postMessage", channel="C1"))["error"] == "no_text"
    refused = await call(slack, "assistant.threads.setStatus", channel_id="D1", status="Thinking")
    assert refused["error"] == "invalid_arguments" and "thread_ts" in refused["response_metadata"]["messages"][0]
    assert (await call(slack, "assistant.threads.setStatus", channel_id="D1", thread_ts="1.0", status=""))["ok"]


async def test_too_long_text_and_too_many_prompts_are_refused(slack):
    assert (await call(slack, "chat.postMessage", channel="C1", text="x" * 40_001))["error"] == "msg_too_long"
    prompts = [{"title": f"t{i}", "message": "m"} for i in range(5)]
    assert (await call(slack, "assistant.threads.setSuggestedPrompts", channel_id="D1", prompts=prompts))[
        "error"] == "invalid_arguments"
    assert (await call(slack, "assistant.threads.setSuggestedPrompts", channel_id="D1", prompts=prompts[:4]))["ok"]


def test_text_objects_must_be_of_the_type_each_field_takes():
    mrkdwn_button = {**BUTTON, "text": {"type": "mrkdwn", "text": "*Run*"}}
    assert block_problems([{"type": "actions", "elements": [mrkdwn_button]}]) == [
        "blocks[0]: button text type 'mrkdwn' where plain_text is required"]
    assert block_problems([{"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}]) == [
        "blocks[0]: text over 150 characters"]
    assert block_problems([{"type": "section"}]) == ["blocks[0]: section needs text or fields"]
    assert block_problems([{"type": "context", "elements": [{"type": "mrkdwn", "text": ""}]}]) == [
        "blocks[0]: text object needs text"]


def test_an_action_id_may_appear_once_in_a_message():
    row = {"type": "actions", "elements": [BUTTON]}
    assert block_problems([row, row]) == ["duplicate action_id 'run' in one message"]
    assert block_problems([row, {"type": "actions", "elements": [{**BUTTON, "action_id": "edit"}]}]) == []


def test_a_modal_needs_a_short_plain_title():
    modal = {"type": "modal", "title": {"type": "plain_text", "text": "Edit the SQL you are about to run"},
             "blocks": []}
    assert view_problems(modal) == ["title: text over 24 characters"]
