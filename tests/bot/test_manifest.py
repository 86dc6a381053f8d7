"""manifest.yml and the registered listeners agree, both ways."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.listeners.app import ASSISTANT_PANE_EVENTS, BOT_EVENTS, COMMANDS
from tests.support.slack_requests import message

REPO = Path(__file__).parents[2]
MANIFEST = yaml.safe_load((REPO / "manifest.yml").read_text())
MANIFEST_EVENTS = MANIFEST["settings"]["event_subscriptions"]["bot_events"]
MANIFEST_COMMANDS = [c["command"] for c in MANIFEST["features"]["slash_commands"]]
SCOPES = set(MANIFEST["oauth_config"]["scopes"]["bot"])


def sample_event(name: str) -> dict:
    if name.startswith("message."):
        kind = name.split(".")[1].removesuffix("s")
        return message("hello", ts="1.1", channel="C1" if kind != "im" else "D1", channel_type=kind)
    if name == "app_home_opened":
        return {"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "messages", "event_ts": "1.4"}
    if name == "app_mention":
        return {"type": "app_mention", "user": "U1", "text": "<@UBOT> hi", "ts": "1.2", "channel": "C1"}
    if name == "app_context_changed":
        return {"type": "app_context_changed", "user": "U1", "channel": "D1", "event_ts": "1.5",
                "context": {"entities": [{"type": "slack#/types/channel_id", "value": "C9", "team_id": "T1"}]}}
    thread = {"user_id": "U1", "channel_id": "D1", "thread_ts": "1.0", "context": {}}
    return {"type": name, "assistant_thread": thread, "event_ts": "1.3"}


def test_code_and_manifest_list_the_same_events_and_commands():
    assert sorted(MANIFEST_EVENTS) == sorted(BOT_EVENTS)
    assert sorted(MANIFEST_COMMANDS) == sorted(COMMANDS)


@pytest.mark.parametrize("event_name", [*MANIFEST_EVENTS, *ASSISTANT_PANE_EVENTS])
async def test_every_manifest_event_has_a_listener(bot, event_name):
    status, _ = await bot.send.event(sample_event(event_name))
    assert status == 200  # Bolt answers 404 to an event nothing listens to
    await bot.drain()


def test_the_agent_view_gets_no_assistant_pane_events_and_the_readme_says_how_to_use_the_pane():
    # agent_view switches every user to the agent experience: the pane's events never come, so
    # subscribing to them would only mislead; the README names what a manifest needs for the pane.
    assert not set(ASSISTANT_PANE_EVENTS) & set(MANIFEST_EVENTS)
    setup = (REPO / "README.md").read_text().split("## Slack setup", 1)[1].split("\n## ", 1)[0]
    assert "assistant_view" in setup and all(f"`{event}`" in setup for event in ASSISTANT_PANE_EVENTS)


async def test_an_unsubscribed_event_is_not_handled(bot):
    status, _ = await bot.send.event({"type": "reaction_added", "user": "U1", "reaction": "x", "event_ts": "1"})
    assert status == 404  # the control for the test above


@pytest.mark.parametrize("command", MANIFEST_COMMANDS)
async def test_every_manifest_command_has_a_listener(bot, command):
    status, body = await bot.send.command(command, "")
    assert status == 200 and "Usage" in body


def test_scopes_and_settings_cover_the_features():
    needed = {"app_mentions:read", "chat:write", "commands", "files:write", "assistant:write"}
    needed |= {f"{e.split('.')[1]}:history" for e in MANIFEST_EVENTS if e.startswith("message.")}
    assert needed <= SCOPES
    assert MANIFEST["settings"]["interactivity"]["is_enabled"] is True
    assert MANIFEST["settings"]["socket_mode_enabled"] is True
    assert "agent_view" in MANIFEST["features"] and MANIFEST["features"]["agent_view"]["agent_description"]
    assert "assistant_view" not in MANIFEST["features"]  # one experience per app: Slack takes one or the other
    assert MANIFEST["features"]["app_home"]["messages_tab_enabled"] is True
