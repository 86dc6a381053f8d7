"""Issue 25 item 2: a masked column's values never reach a person the policy masks it for, through
words either: catalog descriptions and glossary entries, examples and suggested prompts, value hints
and the value index, SQL explanations; and a masked value is answered exactly like a made-up one (no
oracle telling which values exist)."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest

from agent.api import Assistant, ChatContext
from agent.policy import Policy
from agent.policy.scope import Governance

POLICY = """\
version: 1
contact: "#data-access"
default: allow
groups:
  fleet_outsiders: [UMASKED]
rules:
  - groups: [fleet_outsiders]
    mask: [main.planes.manufacturer]
"""

MASKED = ChatContext(user="UMASKED", channel="CDATA")
OPEN = ChatContext(user="UOPEN", channel="CDATA")
# The manufacturers in the demo warehouse people would name (and the catalog's examples name).
MAKERS = ("BOEING", "AIRBUS", "EMBRAER", "BOMBARDIER", "MCDONNELL", "CANADAIR", "CESSNA", "GULFSTREAM")
_sessions = itertools.count()


@pytest.fixture(scope="module")
def masked(base_context, warehouse, tmp_path_factory) -> Assistant:
    path = tmp_path_factory.mktemp("mask") / "policy.yaml"
    path.write_text(POLICY)
    governance = Governance(warehouse, Policy.load(path), None)
    return Assistant(dataclasses.replace(base_context, governance=governance))


def _leaks(text: str | None) -> list[str]:
    return [m for m in MAKERS if m.lower() in (text or "").lower()]


def _said(reply) -> str:
    return " ".join(str(x) for x in (reply.text, reply.error, *(reply.follow_ups or [])) if x)


async def _run_tool(assistant, name, args, who):
    return await assistant.reply(assistant.run_tool(f"mw-{next(_sessions)}", name, args, who))


async def _ask(assistant, question, who):
    session = f"mw-{next(_sessions)}"
    reply = await assistant.reply(assistant.ask(session, question, who))
    if reply.ask_human is not None and reply.ask_human.kind == "confirm_sql":
        reply = await assistant.reply(assistant.resume(session, "run", who))
    return reply


def test_the_masked_persons_catalog_keeps_the_column_without_its_values(masked):
    scoped = masked.context.governance.context_for(masked.context, MASKED)
    column = next(c for c in scoped.catalog.describe_table("planes").columns if c.name == "manufacturer")
    assert not _leaks(column.description) and "manufacturer" in column.description.lower()
    described = " ".join(c.description for c in scoped.catalog.describe_table("planes").columns)
    assert not _leaks(described)
    terms = scoped.catalog.lookup_terms("manufacturer boeing")
    assert all(not _leaks(t.definition) and not _leaks(" ".join(t.synonyms)) for t in terms)
    assert not any(_leaks(e.sql) or "manufacturer" in e.sql for e in scoped.catalog.data.examples)
    assert not any(_leaks(" ".join(v)) for v in scoped.values.values.values())
    assert not any(_leaks(p.value) for p in scoped.values.phrases)
    with_rights = masked.context.governance.context_for(masked.context, OPEN)
    assert _leaks(next(c.description for c in with_rights.catalog.describe_table("planes").columns
                       if c.name == "manufacturer"))  # the column's words are unchanged for others


def test_the_masked_persons_value_reader_returns_nothing(masked):
    scoped = masked.context.governance.context_for(masked.context, MASKED)
    assert scoped.warehouse.distinct_values("planes", "manufacturer") == []
    assert scoped.warehouse.distinct_values("planes", "model")  # other columns still answer


@pytest.mark.parametrize("agent_name", ["Explain SQL Agent", "Chat BI Agent"])
async def test_explaining_sql_on_the_masked_column_shows_no_values(masked, agent_name):
    sql = "SELECT manufacturer, count(*) AS n FROM planes GROUP BY manufacturer"
    reply = await _run_tool(masked, agent_name, {"sql": sql, "dialect": "duckdb"}, MASKED)
    assert not _leaks(_said(reply)), _said(reply)
    assert all(not _leaks(" ".join(map(str, row))) for row in reply.rows)


async def test_explaining_pasted_sql_in_a_question_shows_no_values(masked):
    reply = await _ask(masked, "explain SELECT manufacturer, avg(seats) FROM planes GROUP BY 1", MASKED)
    assert not _leaks(_said(reply)), _said(reply)


@pytest.mark.parametrize("question", [
    "what does manufacturer mean?",
    "which table has the aircraft manufacturer",
    "what are the manufacturers of planes?",
    "average seats by manufacturer",
])
async def test_words_about_the_masked_column_name_no_values(masked, question):
    reply = await _ask(masked, question, MASKED)
    assert not _leaks(_said(reply)), _said(reply)
    assert all(not _leaks(" ".join(map(str, row))) for row in reply.rows)


def test_suggested_prompts_name_no_masked_values(masked):
    prompts = masked.suggested_prompts(100, MASKED)
    assert prompts and not any(_leaks(p.message) or _leaks(p.title) for p in prompts)


def _shape(reply, value: str) -> tuple:
    """The reply with the asked value written as <v>: what a person can compare between two asks."""
    def norm(text):
        return re.sub(re.escape(value), "<v>", str(text or ""), flags=re.IGNORECASE)
    return (norm(reply.text), norm(reply.error), norm(reply.sql), reply.rows, reply.row_count,
            getattr(reply.ask_human, "kind", None), [norm(f) for f in reply.follow_ups or []])


@pytest.mark.parametrize("template", [
    "how many planes were made by {}?",
    "average seats of {} planes",
])
async def test_a_masked_value_and_a_made_up_one_get_the_same_reply(masked, template):
    real, made_up = "Embraer", "Zyxwing"
    as_masked = [await _ask(masked, template.format(v), MASKED) for v in (real, made_up)]
    assert all(r.error is None for r in as_masked), [r.error for r in as_masked]  # answers, not a busy bot
    assert _shape(as_masked[0], real) == _shape(as_masked[1], made_up)
    # someone without the mask is told the real value exists (the test can tell the difference)
    as_open = [await _ask(masked, template.format(v), OPEN) for v in (real, made_up)]
    assert _shape(as_open[0], real) != _shape(as_open[1], made_up)


@pytest.mark.parametrize("sql,reason", [
    (r"SELECT 'it\'s' FROM planes INTO OUTFILE '/tmp/x'", "INTO"),
    ("LOCK TABLES planes READ", "LOCK"),
    ("SELECT seats FROM planes /*! , SLEEP(1) */", "executable comment"),
    ("SELECT main.lower(model) FROM planes", "main.lower()"),
])
@pytest.mark.parametrize("dialect", ["duckdb", "mysql"])
async def test_a_restricted_person_gets_the_guards_reason_not_a_syntax_error(masked, sql, reason, dialect):
    """The policy reads a statement before the guard runs it: what the parser cannot read is still
    refused with what it would do (issue 25 item 1)."""
    reply = await _run_tool(masked, "Chat BI Agent", {"sql": sql, "dialect": dialect}, MASKED)
    assert reply.error is not None and reason in reply.error and "syntax" not in reply.error, reply.error


def _chart_words(reply) -> str:
    """Every word a chart shows: its title, note, axis titles, and the names of its categories."""
    if reply.chart is None:
        return ""
    spec = reply.chart.spec
    return " ".join([spec.title, spec.note or "", spec.x_label, spec.y_label, *spec.names, *spec.names.values()])


CHART_SQL = "SELECT manufacturer, engine, count(*) AS n FROM planes GROUP BY ALL ORDER BY n DESC LIMIT 8"


async def _chart_reply(assistant, question: str, who: ChatContext):
    if question.startswith("SELECT"):
        return await _run_tool(assistant, "Chat BI Agent", {"sql": question, "dialect": "duckdb"}, who)
    return await _ask(assistant, question, who)


@pytest.mark.parametrize("question", ["average seats by manufacturer and engine type", CHART_SQL])
async def test_a_chart_on_the_masked_column_shows_no_values(masked, question):
    """A chart's title, note, axis titles, category names and the rows it draws, for a person the column
    is masked for, carry no value of it; the same chart for someone else does (so the test sees a leak)."""
    reply = await _chart_reply(masked, question, MASKED)
    assert reply.error is None and reply.chart is not None, (reply.error, reply.text)
    assert not _leaks(_chart_words(reply)) and not _leaks(_said(reply)), (_chart_words(reply), _said(reply))
    assert all(not _leaks(" ".join(map(str, row))) for row in reply.rows)
    opened = await _chart_reply(masked, question, OPEN)
    assert opened.chart is not None and _leaks(" ".join(" ".join(map(str, row)) for row in opened.rows))


@pytest.mark.parametrize("question", [
    "how many planes were made by Boing?",  # near misses a value index would correct: no correction
    "average seats of Airbuss planes",
    "planes made by bomb",
    "which manufacturer makes the most planes?",  # the reading line and the answer name no maker
    "top 3 manufacturers by number of planes",
])
async def test_free_text_never_names_a_masked_value_the_person_did_not_write(masked, question):
    """Decline sentences, suggestions ('did you mean'), follow-ups and the 'Read as' line, for a
    person the policy masks the column for."""
    reply = await _ask(masked, question, MASKED)
    written = {m for m in MAKERS if m.lower() in question.lower()}
    assert not set(_leaks(_said(reply))) - written, _said(reply)
    assert not set(_leaks(_chart_words(reply))) - written


@pytest.mark.parametrize("first", ["top 3 manufacturers by number of planes", "average seats by manufacturer and engine type"])
@pytest.mark.parametrize("why", ["why?", "how did you get that?"])
async def test_the_why_answer_names_no_masked_value(masked, first, why):
    """'Why?' after an answer explains its reading (conditions, grouping, ranking): for a person the column
    is masked for, it names no value of it, neither from the rows nor as a correction of their words."""
    session = f"mw-{next(_sessions)}"
    answered = await masked.reply(masked.ask(session, first, MASKED))
    if answered.ask_human is not None and answered.ask_human.kind == "confirm_sql":
        answered = await masked.reply(masked.resume(session, "run", MASKED))
    reply = await masked.reply(masked.ask(session, why, MASKED))
    assert reply.text.startswith("I read your question as"), reply.text  # an explanation, not a refusal
    assert not _leaks(_said(answered)) and not _leaks(_said(reply)), (_said(answered), _said(reply))
