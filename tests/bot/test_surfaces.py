"""Scenario tests per surface: signed requests to the bot's real endpoint, Slack played by the stand-in."""

from __future__ import annotations

from agent.charts.spec import ChartSpec
from agent.supervisor.reply import AskHuman, Chart, HumanOption
from bot.render import actions
from tests.support.fakes import SQL
from tests.support.slack_requests import click, find_button, find_feedback, mention, message


def texts(msg: dict) -> str:
    parts = [msg.get("text", "")]
    for block in msg.get("blocks", []):
        if "text" in block:
            parts.append(block["text"]["text"])
        for element in block.get("elements", []):
            parts.append(element.get("text", "") if isinstance(element.get("text"), str) else "")
    return "\n".join(parts)


def bot_messages(slack, channel="C1"):
    return [m for m in slack.messages.values() if m["channel"] == channel]


async def ask_and_pause(bot, question="daily departures from JFK", ts="100.1"):
    await bot.send.event(mention(question, ts=ts))
    await bot.drain()
    return bot_messages(bot.slack)[-1]


async def test_mention_shows_placeholder_progress_then_sql_confirmation_in_thread(bot, slack, fake_agent):
    status, _ = await bot.send.event(mention("daily departures from JFK", ts="100.1"))
    assert status == 200
    await bot.drain()

    posts = slack.calls_to("chat.postMessage")
    assert len(posts) == 1 and posts[0].params["thread_ts"] == "100.1"
    assert "Working on it" in posts[0].params["text"]
    updates = [c.params["text"] for c in slack.calls_to("chat.update")]
    assert updates[:2] == ["Finding tables…", "Writing SQL…"]
    assert fake_agent.calls == [("ask", "slack-C1-100.1", "daily departures from JFK")]

    [reply] = bot_messages(slack)  # the placeholder, replaced by the reply
    assert "_daily departures from JFK_" in texts(reply)
    assert f"```\n{SQL}\n```" in texts(reply)
    for action_id in (actions.RUN, actions.EDIT, actions.CANCEL):
        assert find_button(reply, action_id)


async def test_run_button_resumes_and_replaces_question_buttons(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    run = find_button(question, actions.RUN)
    status, _ = await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    assert status == 200
    await bot.drain()

    assert fake_agent.calls[-1] == ("resume", "slack-C1-100.1", ("run", None))
    settled = slack.messages[("C1", question["ts"])]
    assert find_button(settled, actions.RUN) is None and "<@U1> chose *Run*" in texts(settled)
    answer = bot_messages(slack)[-1]
    assert answer["thread_ts"] == "100.1"
    assert "**EWR** leads" in texts(answer)  # streamed as markdown
    [table] = [b for b in answer["blocks"] if b["type"] == "data_table"]
    assert [c["text"] for c in table["rows"][0]] == ["origin", "flights"]
    assert find_button(answer, actions.FOLLOW_UP) and find_feedback(answer, "up")

    # A second click on the settled question (or a stale copy of it) runs nothing.
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await bot.drain()
    assert [c[0] for c in fake_agent.calls] == ["ask", "resume"]
    assert slack.calls_to("chat.postEphemeral")[-1].params["text"] == "That question was already answered."


async def test_cancel_button(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    cancel = find_button(question, actions.CANCEL)
    await bot.send.interaction(click(actions.CANCEL, cancel["value"], message=question, label="Cancel"))
    await bot.drain()
    assert fake_agent.calls[-1][2] == ("cancel", None)
    assert "did not run it" in texts(bot_messages(slack)[-1])


async def test_edit_opens_modal_with_sql_and_submission_runs_edited_sql(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    edit = find_button(question, actions.EDIT)
    await bot.send.interaction(click(actions.EDIT, edit["value"], message=question, label="Edit"))
    await bot.drain()
    [opened] = slack.calls_to("views.open")
    view = opened.params["view"]
    assert view["callback_id"] == actions.EDIT_SQL_VIEW
    assert view["blocks"][0]["element"]["initial_value"] == SQL
    assert fake_agent.calls[-1][0] == "ask"  # opening the editor runs nothing

    edited = "SELECT origin FROM flights LIMIT 5"
    submission = {
        "type": "view_submission",
        "user": {"id": "U1"},
        "view": {
            **view,
            "id": "V1",
            "state": {"values": {actions.EDIT_SQL_BLOCK: {actions.EDIT_SQL_INPUT: {"type": "plain_text_input",
                                                                                   "value": edited}}}},
        },
    }
    status, body = await bot.send.interaction(submission)
    assert status == 200 and body == ""
    await bot.drain()
    assert fake_agent.calls[-1] == ("resume", "slack-C1-100.1", ("edit", edited))
    assert edited in texts(bot_messages(slack)[-1])


async def test_edit_submission_without_sql_is_refused_in_the_modal(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    meta = actions.encode(s="slack-C1-100.1", c="C1", t="100.1", m=question["ts"])
    submission = {
        "type": "view_submission",
        "user": {"id": "U1"},
        "view": {"id": "V1", "type": "modal", "callback_id": actions.EDIT_SQL_VIEW, "private_metadata": meta,
                 "state": {"values": {actions.EDIT_SQL_BLOCK: {actions.EDIT_SQL_INPUT: {"value": "  "}}}}},
    }
    status, body = await bot.send.interaction(submission)
    assert status == 200 and '"response_action": "errors"' in body.replace('":"', '": "')
    await bot.drain()
    assert [c[0] for c in fake_agent.calls] == ["ask"]


async def test_choose_table_option_resumes_with_its_value(bot, slack, fake_agent):
    fake_agent.next_ask = AskHuman(
        kind="choose_table",
        question="Which table do you mean?",
        options=[HumanOption(label="flights", value="flights"), HumanOption(label="weather", value="weather")],
    )
    question = await ask_and_pause(bot, "delays")
    choice = find_button(question, f"{actions.CHOOSE}_1")
    assert choice["text"]["text"] == "weather"
    await bot.send.interaction(click(choice["action_id"], choice["value"], message=question, label="weather"))
    await bot.drain()
    assert fake_agent.calls[-1] == ("resume", "slack-C1-100.1", ("weather", None))


async def test_follow_up_button_asks_in_the_same_thread(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await bot.drain()
    answer = bot_messages(slack)[-1]
    follow = find_button(answer, actions.FOLLOW_UP)
    await bot.send.interaction(click(follow["action_id"], follow["value"], message=answer))
    await bot.drain()
    assert fake_agent.calls[-1] == ("ask", "slack-C1-100.1", "Now by month")
    assert any(m["text"] == "<@U1> asked: Now by month" for m in slack.thread("C1", "100.1"))


async def test_feedback_is_recorded_per_answer_and_user(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question, label="Run"))
    await bot.drain()
    answer = bot_messages(slack)[-1]
    for vote in ("up", "down"):
        button = find_feedback(answer, vote)
        await bot.send.interaction(click(button["action_id"], button["value"], message=answer))
    await bot.drain()
    [feedback] = bot.runtime.store.feedback.values()
    assert (feedback.vote, feedback.session_id, feedback.message_ts) == ("down", "slack-C1-100.1", answer["ts"])
    assert feedback.request_id
    # A thumbs-down asks what was wrong; one tap records the reason on the same vote.
    [ask] = [m for m in slack.ephemerals() if "What was wrong?" in m["text"]]
    reason = find_button(ask, actions.FEEDBACK_REASON)
    await bot.send.interaction(click(reason["action_id"], reason["value"], message=answer))
    await bot.drain()
    [feedback] = bot.runtime.store.feedback.values()
    assert feedback.vote == "down" and feedback.reason == "The numbers look wrong"


async def test_legacy_feedback_buttons_on_older_messages_still_count(bot, slack, fake_agent):
    await bot.send.interaction(click(actions.FEEDBACK_UP, actions.encode(s="slack-C1-1.1", r="r1"),
                                     message={"ts": "1.2", "thread_ts": "1.1"}))
    await bot.drain()
    [feedback] = bot.runtime.store.feedback.values()
    assert feedback.vote == "up"


async def test_direct_message_answers_in_a_thread_of_that_message(bot, slack, fake_agent):
    await bot.send.event(message("flights per carrier", ts="200.1", channel="D1", channel_type="im"))
    await bot.drain()
    assert fake_agent.calls == [("ask", "slack-D1-200.1", "flights per carrier")]
    [reply] = bot_messages(slack, "D1")
    assert reply["thread_ts"] == "200.1"


async def test_thread_reply_without_mention_continues_the_session_and_answers_pending(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    await bot.send.event(message("run it", ts="100.5", thread_ts="100.1"))
    await bot.send.event(message("unrelated chatter", ts="300.1"))
    await bot.send.event(message("other thread", ts="300.2", thread_ts="300.0"))
    await bot.drain()
    assert fake_agent.calls[1:] == [("ask", "slack-C1-100.1", "run it"), ("resume", "slack-C1-100.1", ("run", None))]
    # The words answered the question, so its buttons no longer resume anything.
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question))
    await bot.drain()
    assert len(fake_agent.calls) == 3


async def test_assistant_thread_uses_status_title_and_suggested_prompts(bot, slack, fake_agent):
    slack.view = "assistant"  # the legacy pane: a manifest with assistant_view
    started = {"type": "assistant_thread_started",
               "assistant_thread": {"user_id": "U1", "channel_id": "D9", "thread_ts": "400.1", "context": {}},
               "event_ts": "400.2"}
    await bot.send.event(started)
    await bot.drain()
    assert slack.calls_to("assistant.threads.setSuggestedPrompts")[0].params["thread_ts"] == "400.1"
    assert slack.prompts["D9"]
    assert len(slack.calls_to("chat.postMessage")) == 1  # the greeting

    await bot.send.event(message("top airlines", ts="400.3", channel="D9", channel_type="im", thread_ts="400.1"))
    await bot.drain()
    statuses = [c.params["status"] for c in slack.calls_to("assistant.threads.setStatus")]
    assert statuses[:2] == ["Working on it…", "Finding tables…"]
    assert slack.calls_to("assistant.threads.setTitle")[0].params["title"] == "top airlines"
    assert fake_agent.calls == [("ask", "slack-D9-400.1", "top airlines")]
    reply = bot_messages(slack, "D9")[-1]
    assert reply["thread_ts"] == "400.1" and find_button(reply, actions.RUN)
    assert not slack.calls_to("chat.update")  # status, not a placeholder


async def test_dm_thread_that_refuses_status_falls_back_to_placeholder(bot, slack, fake_agent):
    slack.fail("assistant.threads.setStatus", "not_allowed", times=5)
    await bot.send.event(message("top airlines", ts="500.3", channel="D5", channel_type="im", thread_ts="500.1"))
    await bot.drain()
    placeholder = slack.calls_to("chat.postMessage")[0]
    assert "Working on it" in placeholder.params["text"]
    assert slack.calls_to("chat.update")  # progress and the reply went into the placeholder


async def test_fixsql_runs_the_direct_tool_with_code_block_and_error(bot, slack, fake_agent):
    status, body = await bot.send.command("/fixsql", "```select carrier, count(*) from flights``` -- must GROUP BY")
    assert status == 200 and body == ""
    await bot.drain()
    [(kind, session_id, (agent_name, args))] = fake_agent.calls
    assert (kind, agent_name) == ("tool", "Fix SQL Agent")
    assert args == {"sql": "select carrier, count(*) from flights", "error": "must GROUP BY", "dialect": "presto"}
    [root] = bot_messages(slack)
    assert root["thread_ts"] is None and "Fix SQL Agent looked at it." in texts(root)
    # The reply started a thread that continues the same session.
    await bot.send.event(message("now explain it", ts="600.2", thread_ts=root["ts"]))
    await bot.drain()
    assert fake_agent.calls[-1] == ("ask", session_id, "now explain it")


async def test_explainsql_and_usage_on_empty_input(bot, slack, fake_agent):
    status, body = await bot.send.command("/explainsql", "   ")
    assert status == 200 and "Usage: `/explainsql" in body
    status, body = await bot.send.command("/fixsql", "")
    assert "Usage: `/fixsql" in body
    await bot.drain()
    assert fake_agent.calls == [] and slack.calls_to("chat.postMessage") == []

    await bot.send.command("/explainsql", "select a -- not an error separator here &lt; 3")
    await bot.drain()
    [(_, _, (agent_name, args))] = fake_agent.calls
    assert agent_name == "Explain SQL Agent"
    assert args == {"sql": "select a -- not an error separator here < 3", "dialect": "presto"}


async def test_chart_is_drawn_after_the_answer_is_posted_then_uploaded_into_the_thread(bot, slack, fake_agent):
    fake_agent.chart = Chart(spec=ChartSpec(kind="bar", x="origin", y=["flights"], title="Flights by origin"))
    posted_before_drawing: list[bool] = []
    fake_agent.on_draw = lambda reply: posted_before_drawing.append(
        any("EWR" in m["text"] and "leads" in m["text"] for m in slack.thread("C1", "100.1"))
    )
    question = await ask_and_pause(bot)
    run = find_button(question, actions.RUN)
    await bot.send.interaction(click(actions.RUN, run["value"], message=question))
    await bot.drain()
    assert posted_before_drawing == [True]
    [complete] = slack.calls_to("files.completeUploadExternal")
    assert complete.params["thread_ts"] == "100.1" and complete.params["channel_id"] == "C1"
    assert complete.params["files"][0]["title"] == "Flights by origin"
    assert list(slack.uploads.values()) == [b"\x89PNG fake"]


async def test_healthz_is_readyz(bot):
    async with bot.send.session.get(bot.url + "/healthz") as response:
        body = await response.json()
        assert response.status == 200 and body["ok"] is True and body["ready"] is True and body["slack"] == "up"


async def test_slash_command_in_a_channel_the_bot_is_not_in_answers_via_response_url(bot, slack, fake_agent):
    slack.fail("chat.postMessage", "not_in_channel")
    await bot.send.command("/explainsql", "select 1", response_url=f"{slack.url}/response/1")
    await bot.drain()
    [response] = slack.responses
    assert response["response_type"] == "ephemeral"
    assert "Explain SQL Agent looked at it." in response["text"]
    assert slack.calls_to("chat.update") == []


async def test_a_click_on_a_question_older_than_the_pending_ttl_reaches_the_agent_to_say_it_expired(bot, slack, fake_agent):
    question = await ask_and_pause(bot)
    run = find_button(question, actions.RUN)
    fake_agent.paused.clear()  # the session is long gone too: only the agent can say what became of it
    old = {**question, "ts": f"{int(question['ts'].split('.')[0]) - bot.runtime.settings.pending_ttl_s - 60}.000001"}
    await bot.send.interaction(click(actions.RUN, run["value"], message=old, label="Run"))
    await bot.drain()
    assert fake_agent.calls[-1][0] == "resume"
    assert not any("already answered" in m.get("text", "") for m in slack.ephemerals())
