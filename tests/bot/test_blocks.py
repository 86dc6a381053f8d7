"""Pure builders: mrkdwn, tables, Block Kit limits, command parsing."""

from __future__ import annotations

import json

from agent.supervisor.reply import AgentReply, AskHuman, HumanOption
from bot.render import actions
from bot.render.blocks import MAX_BLOCKS, MAX_BUTTON_TEXT, MAX_SECTION, render_reply, settle_question, split_mrkdwn
from bot.listeners.app import strip_mentions
from bot.listeners.commands import parse_sql_command
from bot.render.mrkdwn import from_slack, to_mrkdwn
from bot.render.table import render_table
from tests.support.block_limits import block_problems


def section_texts(blocks):
    return [b["text"]["text"] for b in blocks if b["type"] == "section"]


def buttons(blocks):
    return [e for b in blocks if b["type"] == "actions" for e in b["elements"]]


def test_markdown_becomes_mrkdwn():
    md = "# Result\n**JFK** had *many* flights & a < b, see [docs](https://x.io/a).\n- one\n~~old~~ `x**y**`"
    assert to_mrkdwn(md) == (
        "*Result*\n*JFK* had _many_ flights &amp; a &lt; b, see <https://x.io/a|docs>.\n• one\n~old~ `x**y**`"
    )


def test_code_fences_pass_through_escaped_without_language():
    assert to_mrkdwn("```sql\nselect 1 where a < 2\n```") == "```\nselect 1 where a &lt; 2\n```"


def test_slack_text_is_decoded():
    assert from_slack("a &lt; b &amp;&amp; <https://x.io|x.io> <https://y.io>") == "a < b && x.io https://y.io"


def test_mentions_and_escapes_are_undone_before_the_agent_sees_the_text():
    raw = "<@UBOT> ask <@U02X|ana> about SELECT a FROM t WHERE a &gt; 1"
    assert strip_mentions(from_slack(raw)) == "ask about SELECT a FROM t WHERE a > 1"


def test_split_keeps_every_chunk_within_limit_and_fences_balanced():
    text = "intro\n```\n" + "\n".join(f"select {i}" + "x" * 80 for i in range(200)) + "\n```\n" + "y" * 7000
    chunks = split_mrkdwn(text)
    assert len(chunks) > 3
    assert all(len(c) <= MAX_SECTION and c.count("```") % 2 == 0 for c in chunks)
    assert "".join(chunks).count("select") == 200


def test_a_column_of_fractions_shows_the_same_decimals():
    preview = render_table(["carrier", "avg_delay"], [["F9", 20.2217], ["YV", 19.0]], max_chars=3000)
    assert preview.text.splitlines()[2:] == ["F9           20.22", "YV           19.00"]


def test_table_is_aligned_and_numbers_right_aligned():
    preview = render_table(["carrier", "flights"], [["UA", 58665], ["9E", 1234.5], ["OO", None]], max_chars=3000)
    assert preview.text.splitlines() == [
        "carrier    flights",
        "-------  ---------",
        "UA       58,665.00",
        "9E        1,234.50",
        "OO",
    ]
    assert preview.rows_shown == 3


def test_one_number_format_per_column_and_shares_as_percentages():
    preview = render_table(
        ["team", "orders", "share"], [["a", 9705, 0.403], ["b", 17283, 0.597]], max_chars=3000,
        formats=[None, None, "fraction"],
    )
    assert preview.text.splitlines()[2:] == ["a      9,705  40.3%", "b     17,283  59.7%"]


def test_table_drops_rows_and_columns_that_do_not_fit():
    columns = [f"column_{i}" for i in range(20)]
    rows = [[i * j for j in range(20)] for i in range(100)]
    preview = render_table(columns, rows, max_chars=500)
    assert preview.rows_shown < 20 and preview.columns_shown < 20
    assert len(preview.text) <= 500


def test_confirm_sql_reply_has_sql_run_edit_cancel_and_no_feedback_yet():
    ask = AskHuman(kind="confirm_sql", question="Run it?", sql="select 1")
    rendered = render_reply(AgentReply(session_id="s", text="Here.", sql="select 1", ask_human=ask, request_id="r1"))
    ids = [b["action_id"] for b in buttons(rendered.blocks)]
    assert ids == [actions.RUN, actions.EDIT, actions.CANCEL]
    assert actions.decode(buttons(rendered.blocks)[0]["value"]) == {"s": "s", "v": "run"}
    assert "```\nselect 1\n```" in section_texts(rendered.blocks)


def test_options_become_buttons_with_trimmed_labels_and_overlong_values_fall_back_to_words():
    options = [HumanOption(label="t" * 100, value="flights"), HumanOption(label="huge", value="v" * 3000)]
    ask = AskHuman(kind="choose_table", question="Which?", options=options)
    blocks = render_reply(AgentReply(session_id="s", ask_human=ask)).blocks
    [only] = buttons(blocks)
    assert len(only["text"]["text"]) == MAX_BUTTON_TEXT and only["action_id"] == f"{actions.CHOOSE}_0"
    assert any("reply in this thread" in e["text"] for b in blocks if b["type"] == "context" for e in b["elements"])


def test_a_clarification_offers_the_nearest_readings_beside_its_options():
    ask = AskHuman(kind="clarify", question="What do you mean by “zorblax”?",
                   options=[HumanOption(label="carrier", value="carrier"), HumanOption(label="route", value="route")],
                   readings=["average arrival delay by carrier", "number of flights by carrier"])
    blocks = render_reply(AgentReply(session_id="s", ask_human=ask)).blocks
    ids = [b["action_id"] for b in buttons(blocks)]
    assert ids == [f"{actions.CHOOSE}_0", f"{actions.CHOOSE}_1", f"{actions.FOLLOW_UP}_0", f"{actions.FOLLOW_UP}_1"]
    asked = [actions.decode(b["value"]) for b in buttons(blocks) if b["action_id"].startswith(actions.FOLLOW_UP)]
    assert asked == [{"q": "average arrival delay by carrier"}, {"q": "number of flights by carrier"}]
    assert block_problems(blocks) == []


def test_huge_reply_stays_within_every_limit_and_keeps_its_buttons():
    reply = AgentReply(
        session_id="s",
        text="word " * 60_000,
        sql="select " + ", ".join(f"c{i}" for i in range(3000)) + " from t",
        columns=["a", "b"],
        rows=[[i, "x" * 40] for i in range(500)],
        row_count=10_000,
        follow_ups=["f" * 300] * 9,
        request_id="r",
    )
    rendered = render_reply(reply)
    for blocks in (rendered.blocks, rendered.fallback_blocks):
        assert block_problems(blocks) == []
        assert len(blocks) <= MAX_BLOCKS
        assert all(len(t) <= MAX_SECTION for t in section_texts(blocks))
        assert all(len(b["value"]) <= actions.MAX_VALUE and len(b["text"]["text"]) <= MAX_BUTTON_TEXT
                   for b in buttons(blocks))
        ids = [b["action_id"] for b in buttons(blocks)]
        assert sum(i.startswith(actions.FOLLOW_UP) for i in ids) == 5
        assert "shortened" in json.dumps(blocks)
    assert actions.FEEDBACK_UP in [b["action_id"] for b in buttons(rendered.fallback_blocks)]
    assert any(b["type"] == "context_actions" for b in rendered.blocks)
    assert rendered.csv is not None and rendered.csv.decode().count("\n") == 501
    assert "Showing 100 of 10,000 rows" in json.dumps(rendered.blocks)
    notes = json.dumps(rendered.fallback_blocks)
    assert "of 10,000 rows" in notes and "first 500 rows" in notes
    assert len(rendered.text) <= 3000


def test_small_result_needs_no_csv():
    rendered = render_reply(AgentReply(session_id="s", columns=["n"], rows=[[1]], row_count=1, text="One."))
    assert rendered.csv is None


def test_error_reply_is_a_sentence_request_id_and_retry():
    failed = AgentReply(session_id="s", error="The query timed out.", request_id="abc")
    rendered = render_reply(failed, retry_job_id="j1")
    assert section_texts(rendered.blocks) == [":warning: The query timed out."]
    assert "`abc`" in json.dumps(rendered.blocks)
    [retry] = buttons(rendered.blocks)
    assert retry["action_id"] == actions.RETRY and actions.decode(retry["value"]) == {"j": "j1"}


def test_settled_question_loses_its_choice_buttons_only():
    ask = AskHuman(kind="confirm_sql", question="Run it?", sql="select 1")
    blocks = render_reply(AgentReply(session_id="s", sql="select 1", ask_human=ask)).blocks
    settled = settle_question(blocks, "U1", "Run")
    assert buttons(settled) == [] and "<@U1> chose *Run*" in json.dumps(settled)


def test_sql_command_parsing():
    assert parse_sql_command("", allow_error=True) is None
    assert parse_sql_command("select 1 -- boom", allow_error=True).error == "boom"
    assert parse_sql_command("select 1 -- a comment", allow_error=False).sql == "select 1 -- a comment"
    parsed = parse_sql_command("```sql\nselect a -- c\nfrom t``` -- line 2: bad", allow_error=True)
    assert (parsed.sql, parsed.error) == ("select a -- c\nfrom t", "line 2: bad")


def test_question_repeated_as_the_reply_text_is_shown_once():
    ask = AskHuman(kind="confirm_sql", question="Shall I run this query?", sql="select 1")
    rendered = render_reply(AgentReply(session_id="s", text="Shall I run this query?", sql="select 1", ask_human=ask))
    assert section_texts(rendered.blocks).count("Shall I run this query?") == 1


def test_the_console_table_has_one_number_format_per_column_and_counts_rows_in_english():
    from agent.reply_text import format_table

    text = format_table(["team", "orders", "share"], [["a", 9705, 0.403], ["b", 17283, 0.597], ["c", 1, 0.0]],
                        limit=2, formats=[None, None, "fraction"])
    assert text.splitlines()[2:] == ["a     9,705   40.3%", "b     17,283  59.7%", "… 1 more row"]
