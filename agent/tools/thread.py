"""The dialogue state of a thread: the last reading, and a new message read as an edit of it.

The last reading is the intent of the thread's latest `generate_sql` output (kept in the session's
tool-call ledger, so it lives in the checkpoint with the rest of the session; a cancelled query's
reading counts, so "sorry, I meant LGA" after Cancel edits it). Offline, `follow_up.read_follow_up`
does the reading; with an LLM, the model gets the previous reading as JSON and returns the whole
new intent, which goes through the same checks as any other.
"""

from __future__ import annotations

from collections.abc import Collection
import copy
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.tools import steps
from agent.context import AgentContext
from agent.semantic.compile.intent import StructuredIntent, base_table
from agent.marks import ASKING_FOR_SQL, FOLLOW_UP_MARK
from agent.tools.state import CommonAgentState, ToolCallInfo, calls_of
from agent.semantic.nlq import edits
from agent.semantic.nlq.edits import Edited
from agent.semantic.nlq.edit_request import IntentEdit, apply_edit
from agent.semantic.nlq.dialogue_cues import (dialogue_words, find_cues, going_back, going_back_to, has, only_edits,
                                              pointing_word, refers_back, says_nothing_else, without_lead_in)
from agent.semantic.nlq.follow_up import asks_a_count, names_no_measure, only_rows_named, outside_the_data
from agent.semantic.model.values import ValueIndex
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.compile.reading import describe
from agent.tools.results import latest_output
from agent.tools.semantic import read_in_worker, read_once, read_question
from agent.text.phrases import phrase
from agent.text.words import plural_phrase
from agent.tools.spec import EXECUTE

if TYPE_CHECKING:
    from agent.semantic.nlq.follow_up import FollowUp

@dataclass
class InThread:
    """How this turn's message stands to the thread's last reading."""

    question: str  # what the reader should read when the reading is not given
    intent: StructuredIntent | None = None  # the edited (or repeated) reading
    changes: list[str] = field(default_factory=list)
    chart: str | None = None
    unread: list[str] = field(default_factory=list)
    refusal: str | None = None  # the edit cannot be made: said to the person, nothing else is guessed
    llm_message: str | None = None  # for an LLM: the question with the last reading as JSON
    previous: StructuredIntent | None = None  # for an LLM: the last reading its edit applies to
    # 'go back to the previous one' ('the reading before the last one'), 'the jfk one': the reading edited
    back: str | None = None
    # read anew with the last reading's question: when that gives the last reading again, the message changed
    # nothing the reader could tell ('who flies it'), and the same answer again would answer another question
    repeats: StructuredIntent | None = None

    def changed_line(self) -> str:
        if self.back:
            return f"Back to {self.back}" + "".join(f"; {c}" for c in self.changes) + ". "
        return f"Same as before, {'; '.join(self.changes)}. " if self.changes else ""

    def edited_by_llm(self, edit: IntentEdit, model: SemanticModel, values: ValueIndex | None = None
                      ) -> StructuredIntent | None:
        """The LLM's edit applied to the last reading by the thread's edit operations (None without
        one); what changed goes on the reading line, a refusal to `refusal`. With `values` (their dates read
        already), a year or place the data does not hold is a refusal too, as offline."""
        if self.previous is None:
            return None
        applied = apply_edit(self.previous, edit, model)
        if isinstance(applied, Edited) and values is not None:
            applied = outside_the_data(applied.intent, self.previous, model, values) or applied
        if isinstance(applied, str):
            self.refusal = applied
            return None
        self.changes, self.chart = applied.changes, applied.chart
        return applied.intent


def _in_thread(edited: Edited, *, question: str, unread: list[str], back: str | None) -> InThread:
    return InThread(question, intent=edited.intent, changes=edited.changes, chart=edited.chart, unread=unread,
                    back=back)


def reading_question(calls: ToolCallInfo) -> str:
    """The words the last reading was read from (the router's rewrite, with its own follow-ups)."""
    found = latest_output(calls, ("generate_sql",), with_key="intent")
    if found is None:
        return ""
    if found[1].get("clarified_question"):  # 'flights to chicago' answered 'o'hare': the words with the answer
        return str(found[1]["clarified_question"])
    asked = calls.get("tool_call_input_mapping", {}).get(found[0]) or {}
    return str(asked.get("user_question") or "")


def previous_reading(calls: ToolCallInfo) -> StructuredIntent | None:
    found = latest_output(calls, ("generate_sql",), with_key="intent")
    return StructuredIntent.model_validate(found[1]["intent"]) if found else None


def _readings(calls: ToolCallInfo) -> list[dict[str, Any]]:
    """The thread's readings, newest first."""
    names = calls.get("tool_call_name_mapping", {})
    outputs = calls.get("tool_call_output_mapping", {})
    return [o["intent"] for call_id, o in reversed(list(outputs.items()))
            if names.get(call_id) == "generate_sql" and not o.get("error") and o.get("intent")]


def _last_went_unanswered(calls: ToolCallInfo) -> bool:
    """Did the thread's last question go unread (asked back and left, or words it could not place)? Not when
    the data lacks what it asked for (passengers, an airline not in the data): the thread's things stay."""
    last = latest_output(calls, ("generate_sql",))
    return last is not None and not last[1].get("intent") and not last[1].get("declined")


def _takes_the_reply(message: str) -> bool:
    """'ok, just the worst one then', 'top 10 then': the reply that did not answer is taken, and the message goes on
    from the answer before it."""
    taken = [str(w) for w in dialogue_words()["taking_the_reply"]]
    first = has(message, taken)
    return bool(first and not message[:first.start()].strip()) or bool(re.search(r"(?<![\w'])then\W*$", message, re.I))


def earlier_reading(calls: ToolCallInfo) -> StructuredIntent | None:
    """The thread's reading before its last one (the newest that differs from it): 'go back'."""
    readings = _readings(calls)
    older = next((r for r in readings[1:] if r != readings[0]), None)
    return StructuredIntent.model_validate(older) if older is not None else None


def named_reading(calls: ToolCallInfo, named: list[str], model: SemanticModel) -> StructuredIntent | None:
    """'the jfk one', 'the december one': the newest reading before the last whose words (as the reading line
    says them) hold every word named; None when none does, or when the last one does too (nothing to go
    back to)."""
    readings = _readings(calls)
    for raw in readings:
        intent = StructuredIntent.model_validate(raw)
        said = set(re.findall(r"[\w']+", describe(intent, model).lower()))
        if all(w in said for w in named):
            return intent if raw is not readings[0] else None
    return None


def previous_keys(calls: ToolCallInfo, *, leading: bool = False) -> tuple[str, list[Any]] | None:
    """The previous answer's things, when the latest answer is the last reading's (another
    question's rows are no 'them'); with `leading`, also the first things of a ranking too long to keep
    whole (a place in it is known, 'them' is not)."""
    answer = latest_output(calls, (EXECUTE,), with_key="sql")
    reading = latest_output(calls, ("generate_sql",), with_key="intent")
    if answer is None or reading is None or answer[1].get("sql") != reading[1].get("sql"):
        return None
    keys = answer[1].get("keys")
    if not keys:
        return None
    if "values" in keys:
        return keys["field"], keys["values"]
    return (keys["field"], keys["leading"]) if leading else None


def counted_keys(calls: ToolCallInfo, count: int) -> tuple[str, list[Any]] | None:
    """The things of the newest answer of the thread that showed exactly `count` of them ('those 3 carriers' after
    the top 3 carriers, then every carrier's delay)."""
    names = calls.get("tool_call_name_mapping", {})
    outputs = calls.get("tool_call_output_mapping", {})
    for call_id in reversed(list(outputs)):
        keys = outputs[call_id].get("keys") if names.get(call_id) == EXECUTE else None
        if keys and len(keys.get("values") or []) == count:
            return keys["field"], keys["values"]
    return None


def _over_previous_rows(ctx: AgentContext, calls: ToolCallInfo, edited: Edited, row: int | None = None,
                        count: int | None = None) -> Edited:
    """'which of them …': the edit, kept to the previous answer's things ('the 2nd one': to the one at that
    place); when they were not kept (too many, or another answer came between), the reading says it looks
    at all of them, or that the row pointed at is not known."""
    found = previous_keys(calls, leading=row is not None and row > 0)
    if count is not None and (found is None or len(found[1]) != count):
        found = counted_keys(calls, count) or found  # 'those 3': the answer that had three, if not the last one
    counted = previous_reading(calls)
    if found is None and counted is not None and counted.count_groups:
        return edited  # 'them' after a count of the groups that pass: those groups, which the reading keeps
    if found is None:
        said = "over all of them, not only the previous answer's rows" if row is None else \
            "over all of them: I no longer have the previous answer's rows to pick one from"
        return Edited(edited.intent, [*edited.changes, said], edited.chart)
    if row is None and count is None and counted is not None and counted.limit is None and not counted.having \
            and edited.intent.filters == counted.filters and edited.intent.time == counted.time:
        # 'avg dep delay for each' of an answer that showed every group: its conditions keep the same rows, and
        # a list of them would stay behind when a condition is changed later ('same for lga')
        return edited
    values = found[1]
    if row is not None:
        if not values or abs(row) > len(values) or row == 0:
            return Edited(edited.intent, [*edited.changes, "over all of them: the previous answer has no such row"],
                          edited.chart)
        values = [values[row - 1 if row > 0 else row]]
    # a row pointed at ('the second one') was picked by its place, and a limit other than the ranking's that
    # chose the rows ('which routes did it fly, top 3' after the busiest plane) is the message's own
    ranked_out = row is None and (counted is None or edited.intent.limit == counted.limit)
    return edits.keep_rows(edited, found[0], values, ctx.semantic, ranked_out=ranked_out)


def reading_json(previous: StructuredIntent) -> str:
    return json.dumps(previous.model_dump(mode="json", exclude_defaults=True))


def last_reading_json(state: CommonAgentState) -> str | None:
    """The thread's last reading as the router's prompt shows it, from the session's ledger; None before
    the first. One call for the router, which reads nothing else of the ledger."""
    previous = previous_reading(calls_of(state))
    return reading_json(previous) if previous is not None else None


# How a message is read against the last reading; said to the semantic step and to the router, which
# reads a follow-up itself when it gives `reading` with its data_discovery call.
EDIT_RULES = (
    "If it is a complete question on its own, read it alone into intent; else set edit to what the message "
    "changes (put_filters replaces the filter on the same dimension or adds one, compare_filters sets a value "
    "beside the filtered one, drop_filters, exclude_values leaves values out, time (only the parts said: months, "
    "weekdays or hours; the others are kept), whole_period, exclude_months, group_by, metrics, aggregation, limit, all_rows, "
    "chart, percent) and leave intent empty: everything the message does not change is kept."
)


def previous_for_llm(previous: StructuredIntent, message: str) -> str:
    """The LLM's view of a follow-up: the last reading as JSON, and the new message to apply to it."""
    return (
        "The previous question of this thread was read as this StructuredIntent (JSON):\n"
        f"{reading_json(previous)}\n"
        f"The person now says the message below. {EDIT_RULES}\n"
        f"Message: {message}"
    )


async def _stands_alone(ctx: AgentContext, message: str) -> bool:
    """Does the message, its thread words out, read as a question of its own: a measure with a condition,
    a grouping or a date? ('and avg dep delay' does not: the conditions it adds to are the missing ones.)"""
    # the message without its thread words, or only without its opening ('ok then … vs not': 'vs' is its own)
    for rest in dict.fromkeys((find_cues(message).text, without_lead_in(message))):
        found = (await read_question(ctx, rest))[0].intent if not says_nothing_else(rest) else None
        if found is None or only_rows_named(found, rest, ctx.semantic):
            continue  # 'what about comedy': a count was put in for a measure nobody named
        if found.dimensions or found.filters or found.time is not None and not found.time.is_empty():
            return True
    return False


_ONLY_A_GROUPING = re.compile(r"^\s*(?:by|per|for each|for every|each)\b", re.I)


def _readings_offered(calls: ToolCallInfo) -> set[str]:
    """The nearest readings the last question asked back offered as buttons ('origins'), or the reply that could
    not answer it did ('The nearest questions I can answer are below'): each a question of its own."""
    found = latest_output(calls, ("data_discovery", "generate_sql"), with_key="ask_human")
    asked = found[1]["ask_human"] if found else {}
    offered = {str(r).strip() for r in (asked.get("readings") or [])} if isinstance(asked, dict) else set()
    last = latest_output(calls, ("generate_sql",))
    return offered | {r.strip() for r in (last[1].get("follow_ups") or []) if isinstance(r, str)} if last else offered


def _a_fragment(message: str) -> bool:
    """'july only', 'at jfk', 'delta': a few words that do not begin a question of their own."""
    words = re.findall(r"[\w'%-]+", message.lower())
    said = dialogue_words()
    return 0 < len(words) <= int(said["fragment_words"]) and words[0] not in said["question_starts"]


async def _counts_by_default(ctx: AgentContext, message: str, earlier: str, offered: Collection[str] = ()) -> bool:
    """'by genre' after 'avg rating for drama movies', which was not answered: read alone, it counts rows because
    it names no measure, where the earlier question asked for another; after one that counted ('how many flights
    did ZZ fly'), counting is what was asked, and the message is read on its own."""
    if not (refers_back(message) or _ONLY_A_GROUPING.match(message) or _a_fragment(message)) \
            or message.strip() in offered:
        return False  # 'origins', a reading the bot offered: a question of its own
    rest = find_cues(message).text
    found = (await read_question(ctx, rest))[0].intent if not says_nothing_else(rest) else None
    # 'what about DL' after 'how many flights did ZZ fly' puts the value that failed; 'by carrier' puts none
    return found is not None and names_no_measure(found, rest, ctx.semantic) \
        and not (found.filters and _counted_the_same(found, earlier, ctx.semantic))


def _counted_the_same(found: StructuredIntent, earlier: str, model: SemanticModel) -> bool:
    """Did the earlier question ask for a plain count of the rows the message's count counts ('how many flights
    did ZZ fly' before 'jfk by month')? Not 'how many hours had low visibility' (other things counted), nor 'avg
    number of flights per day' (an average of counts)."""
    table = model.table_by_name.get(base_table(found, model) or "")
    nouns = [*(table.entity_words if table else []), *(plural_phrase(w) for w in (table.entity_words if table else []))]
    other_aggregations = [w for agg, words in model.aggregations.items() if agg != "count" for w in words]
    return asks_a_count(earlier) and bool(nouns) and has(earlier, nouns) is not None \
        and has(earlier, other_aggregations) is None


async def _understood_before(ctx: AgentContext, earlier: str, latest: str) -> tuple[StructuredIntent, list[str]] | None:
    """'ok then just the number of flights' after 'how many passengers did jetblue fly out of jfk', declined for
    'passengers': the earlier question without the topic the data lacks (jetblue's flights out of jfk), for a
    message that names the measure anew; None otherwise (nothing of a declined question may leak into a
    message that does not replace what was missing)."""
    rest = find_cues(latest).text
    said = (await read_question(ctx, rest))[0].intent if not says_nothing_else(rest) else None
    if said is None or names_no_measure(said, rest, ctx.semantic):
        return None
    first = (await read_question(ctx, earlier))[0]
    if first.intent is not None or not first.unsupported or first.unknown_values:
        return None  # only a topic the data lacks: words the reader could not place were asked about, not refused
    unread = {w for texts in ctx.semantic.unsupported_topics.values() for text in texts for w in text.lower().split()}
    # 'avg ticket price': the aggregation said of the missing topic goes with it, as the message names the measure anew
    aggregations = {w for texts in ctx.semantic.aggregations.values() for text in texts for w in text.lower().split()}
    dropped: list[str] = []
    kept_words: list[str] = []
    for word in earlier.split():
        if word.lower().strip("?,.!") in unread:
            dropped.append(word)
            while kept_words and kept_words[-1].lower() in aggregations:
                kept_words.pop()
        else:
            kept_words.append(word)
    kept = " ".join(kept_words)
    again = (await read_question(ctx, kept))[0]
    return (again.intent, dropped) if again.intent is not None and not again.ignored_words else None


async def _unplaced_word_named(ctx: AgentContext, earlier: str, latest: str) -> tuple[StructuredIntent, str] | None:
    """'dulles' after 'how many newark to dc flights per month', not answered for 'dc': the earlier question with
    its one word the reader could not place replaced by the message, when the message is one of the data's
    values, whole, and the question then reads with every word; None otherwise."""
    said = phrase(latest)
    if not 0 < len(said) <= _SHORT_VALUE_WORDS or not any(p.words == said for p in ctx.values.phrases):
        return None
    first = (await read_question(ctx, earlier))[0]
    if first.intent is not None or len(first.ignored_words) != 1 or first.unknown_values or first.unsupported:
        return None
    word = first.ignored_words[0]
    replaced = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", latest.strip(), earlier, count=1, flags=re.I)
    again = (await read_question(ctx, replaced))[0]
    return (again.intent, word) if again.intent is not None and not again.ignored_words else None


_SHORT_VALUE_WORDS = 3


async def read_in_thread(ctx: AgentContext, calls: ToolCallInfo, question: str, clarification: str | None) -> InThread:
    """The turn's question against the thread's last reading (in `calls`, the session's ledger); `question`
    unchanged when it is no follow-up."""
    if clarification:
        return InThread(question)
    previous = previous_reading(calls)
    latest = question.split(FOLLOW_UP_MARK)[-1]
    understood = await _understood_before(ctx, question.split(FOLLOW_UP_MARK)[-2], latest) \
        if previous is None and FOLLOW_UP_MARK in question else None
    if understood is not None:
        previous = understood[0]
    if previous is None and FOLLOW_UP_MARK in question and not ctx.has_llm:
        named = await _unplaced_word_named(ctx, question.split(FOLLOW_UP_MARK)[-2], latest)
        if named is not None:  # the word the question before could not place, named now
            return InThread(latest, intent=named[0], changes=[f"“{latest.strip()}” for “{named[1]}”"])
    if previous is None:
        # the earlier question was never read (declined, or its question superseded): nothing of it
        # may leak into this one, its unread words least of all
        pointing = pointing_word(latest) if FOLLOW_UP_MARK in question else None
        if pointing is not None:  # 'delays there' with no answer to point at: said, never read without it
            return InThread(latest, refusal=f"I have no earlier answer in this thread for “{pointing}” to point at, "
                                            "so I did not guess. Ask it again with the place or thing named.")
        if FOLLOW_UP_MARK in question and only_edits(latest):  # 'drop the airline filter', 'top 3': of nothing
            return InThread(latest, refusal="I have no earlier answer in this thread to change, so I did not guess. "
                                            "Ask the whole question.")
        if FOLLOW_UP_MARK in question and (refers_back(latest) and not await _stands_alone(ctx, latest)
                                           or await _counts_by_default(ctx, latest, question.rsplit(FOLLOW_UP_MARK, 1)[0],
                                                                       _readings_offered(calls))):
            # 'and avg temp' after a question that was not answered: what it adds to was never read
            return InThread(latest, refusal="I have no earlier answer in this thread for this to build on (the "
                                            "question before was not answered), so I did not guess. Ask the whole "
                                            "question.")
        return InThread(question if ctx.has_llm else latest)
    pointing = pointing_word(latest) if FOLLOW_UP_MARK in question else None
    if pointing is not None and _last_went_unanswered(calls) and not (await read_question(ctx, latest))[0].unsupported:
        # 'avg arr delay for those' right after a question that was not answered: 'those' are its things, which
        # were never read; the answer before it is not what is pointed at
        return InThread(latest, refusal=f"I did not answer your last question, so I cannot tell what “{pointing}” "
                                        "points at, and I did not guess. Ask it again with the things named.")
    if FOLLOW_UP_MARK in question and _last_went_unanswered(calls) and only_edits(latest) \
            and going_back_to(latest) is None and going_back(latest) is None and not _takes_the_reply(latest):
        # 'top 3 only' right after a question that was not answered: it edits that question, which was never
        # read; applied to the answer before it, it would answer something nobody asked
        return InThread(latest, refusal=f"I did not answer your last question, so I cannot tell whether “{latest.strip()}"
                                        "” changes it or the answer before it, and I did not guess. Ask the whole "
                                        "question.")
    went_back: str | None = None
    to_named = going_back_to(latest) if FOLLOW_UP_MARK in question else None
    if to_named is not None:
        older = named_reading(calls, to_named[0], ctx.semantic)
        if older is None:
            return InThread(latest, refusal=f"I could not tell which earlier answer in this thread “{' '.join(to_named[0])}"
                                            "” is, so I did not guess. Ask the whole question.")
        previous, latest, went_back = older, to_named[1], f"the {' '.join(to_named[0])} one"
        if says_nothing_else(latest) and not refers_back(latest):
            return InThread(latest, intent=older, back=went_back)
    back = going_back(latest) if FOLLOW_UP_MARK in question and to_named is None else None
    if back is not None:
        older = earlier_reading(calls)
        if older is None:
            return InThread(latest, refusal="There is no earlier reading in this thread to go back to.")
        previous, latest, went_back = older, back, "the reading before the last one"
        if says_nothing_else(back) and not refers_back(back):
            return InThread(latest, intent=older, back=went_back)
    if ctx.has_llm:  # the LLM router rewrites follow-ups in its own words: the model sees every message
        return InThread(question, llm_message=previous_for_llm(previous, latest), previous=previous)
    if FOLLOW_UP_MARK not in question:
        return InThread(question)
    if says_nothing_else(ASKING_FOR_SQL.sub(" ", latest)) and (ASKING_FOR_SQL.search(latest) or not refers_back(latest)):
        return InThread(latest, intent=previous)  # "just give me the SQL": the same reading, as SQL
    message = ASKING_FOR_SQL.sub(" ", latest)

    async def read() -> FollowUp:
        return await read_in_worker(ctx, steps.read_edit, previous, message)

    # read once per turn (discovery and the SQL both ask); each caller gets its own copy to change
    follow = copy.deepcopy(await read_once(ctx, (steps.read_edit.__name__, previous.model_dump_json(), message), read))
    if follow.fresh:  # a question of its own: no stale filters, read as the thread's words made it
        # ('per type' after planes by aircraft type reads 'per aircraft type')
        return InThread(latest, intent=follow.extraction.intent) if follow.extraction is not None \
            and follow.extraction.intent is not None else InThread(latest)
    if follow.problem:
        return InThread(latest, refusal=follow.problem)
    if follow.edited is not None:
        edited = follow.edited
        if follow.over_rows and follow.row is not None and not edited.changes \
                and previous_keys(calls, leading=follow.row > 0) is None:
            # 'the 2nd one' alone, of an answer whose rows were not kept (too many): all of them is no answer
            return InThread(latest, refusal="The previous answer had too many rows for me to keep, so I cannot "
                                            "pick one by its place. Name it, or ask for a shorter list.")
        if follow.over_rows and follow.things_count is not None and follow.row is None:
            shown = previous_keys(calls)
            if shown is not None and len(shown[1]) != follow.things_count \
                    and counted_keys(calls, follow.things_count) is None:
                # 'those 2' when no answer of the thread showed two of them: said, never one or all of them instead
                return InThread(latest, refusal=f"No answer in this thread showed {follow.things_count} of them, so I "
                                                "cannot tell which ones you mean, and I did not guess. Name them.")
        if follow.over_rows:
            edited = _over_previous_rows(ctx, calls, edited, follow.row, follow.things_count)
        return _in_thread(edited, question=latest, unread=follow.unread, back=went_back)
    if follow.extraction is not None and (follow.extraction.unknown_values or follow.extraction.ambiguous):
        return InThread(latest)  # the message's own unknown value or ambiguity is asked about, not the old one's
    if understood is not None:  # 'ok then just the number of flights': the earlier question, as it could be read
        without = ", ".join(f"“{w.strip('?,.!')}”" for w in understood[1])
        return InThread(latest, intent=understood[0], changes=[f"the question before without {without}"])
    if only_edits(message):  # 'drop the airline filter' when no airline is filtered: said, not read anew
        return InThread(latest, refusal="That changes nothing in the last reading, so I did not run it again. "
                                        f"It was: {describe(previous, ctx.semantic)}")
    # read with the question of the last reading, not the turns after it that were never read
    return InThread(reading_question(calls) + FOLLOW_UP_MARK + latest, repeats=previous)
