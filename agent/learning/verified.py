"""Verified queries: a question someone confirmed was answered right (a 👍, or "save this"), kept with the
reading that answered it, and tried before the reader on the next question asked the same way.

"The same way" is the question's shape: its words with each warehouse value, number and month as a slot
of its kind ('flights from <origin> in <number>'). The same shape with the same values is the verified
reading itself; with other values it is a substitution, made in the reading's filters and years and said
in the answer. A verified query whose tables the person cannot read is never used for them (the caller
checks it against the person's view of the model and the access policy)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from agent.learning.store import VerifiedQuery, now_iso
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.lexicon import lexicon_for
from agent.text.phrases import tokenize
from agent.semantic.model.values import ValueIndex

Slot = tuple[str, Any]  # (kind, value): ('value:origin', 'JFK'), ('number', 2013), ('month', 3)


@dataclass(frozen=True)
class Shape:
    key: str
    slots: tuple[Slot, ...]


def shape(question: str, model: SemanticModel, values: ValueIndex) -> Shape:
    tokens = tokenize(question)
    mentions = {m.start: m for m in lexicon_for(model, values).match(tokens)}
    words: list[str] = []
    slots: list[Slot] = []
    i = 0
    while i < len(tokens):
        mention = mentions.get(i)
        found = mention.of("value") if mention else []
        months = mention.of("month") if mention else []
        if mention is not None and found and all(e.kind == "value" for e in mention.entries):
            payload: tuple[str, Any] = found[0].payload  # type: ignore[assignment]
            dimension, value = payload
            words.append(f"<{dimension}>")
            slots.append((f"value:{dimension}", value))
            i = mention.end
            continue
        if mention is not None and months:
            words.append("<month>")
            slots.append(("month", months[0].payload))
            i = mention.end
            continue
        token = tokens[i]
        if token.number is not None:
            words.append("<number>")
            slots.append(("number", token.number))
        elif token.low not in model.function_words:
            words.append(token.low)
        i += 1
    return Shape(" ".join(words), tuple(slots))


def name_for(question: str, taken: set[str]) -> str:
    base = "_".join(re.findall(r"[a-z0-9]+", question.lower()))[:60].strip("_") or "verified_query"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def new_query(question: str, intent: dict[str, Any], tables: list[str], saved_by: str | None,
              taken: set[str]) -> VerifiedQuery:
    return VerifiedQuery(name=name_for(question, taken), question=question, phrasings=[question], intent=intent,
                         tables=tables, saved_by=saved_by, saved_at=now_iso())


@dataclass(frozen=True)
class Match:
    query: VerifiedQuery
    intent: dict[str, Any]
    substituted: list[tuple[Any, Any]]  # (saved value, new value)

    def line(self) -> str:
        by = f" by {self.query.saved_by}" if self.query.saved_by else ""
        said = f"Answered from a verified query saved{by} on {self.query.saved_at[:10]}"
        if self.substituted:
            said += ", with " + ", ".join(f"{new} in place of {old}" for old, new in self.substituted)
        return said + "."


def find(question: str, queries: list[VerifiedQuery], model: SemanticModel, values: ValueIndex) -> Match | None:
    """The verified query asked the same way, with this question's values put in; None when none is."""
    asked = shape(question, model, values)
    for query in queries:
        for phrasing in query.phrasings or [query.question]:
            saved = shape(phrasing, model, values)
            if saved.key != asked.key or [k for k, _ in saved.slots] != [k for k, _ in asked.slots]:
                continue
            intent = _substituted(query.intent, saved.slots, asked.slots)
            if intent is not None:
                changes = [(old, new) for (_, old), (_, new) in zip(saved.slots, asked.slots) if old != new]
                return Match(query, intent, changes)
    return None


def _substituted(intent: dict[str, Any], saved: tuple[Slot, ...], asked: tuple[Slot, ...]) -> dict[str, Any] | None:
    """The intent with each changed slot's value replaced where the saved value stands in it; None when a
    changed value stands nowhere the reading can be changed (the shape then says too little to be sure)."""
    result: dict[str, Any] = _copy(intent)
    for (kind, old), (_, new) in zip(saved, asked):
        if old == new:
            continue
        if not _replace(result, kind, old, new):
            return None
    return result


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _replace(intent: dict[str, Any], kind: str, old: Any, new: Any) -> bool:
    if kind.startswith("value:"):
        field = kind.split(":", 1)[1]
        hit = False
        for flt in intent.get("filters") or []:
            if flt.get("field") == field and old in (flt.get("values") or []):
                flt["values"] = [new if v == old else v for v in flt["values"]]
                hit = True
        return hit
    time = intent.get("time") or {}
    if kind == "number" and float(old).is_integer() and float(new).is_integer():
        old_year, new_year = int(old), int(new)
        if time.get("year") == old_year:
            time["year"] = new_year
            return True
        if old_year in (time.get("years") or []):
            time["years"] = [new_year if y == old_year else y for y in time["years"]]
            return True
        bounds = [key for key in ("start", "end") if str(time.get(key) or "").startswith(f"{old_year}-")]
        if bounds:  # a year said as its dates ('in 2013': 2013-01-01 to 2014-01-01)
            for key in ("start", "end"):
                text = str(time.get(key) or "")
                for year in (old_year, old_year + 1):
                    if text.startswith(f"{year}-"):
                        time[key] = f"{year - old_year + new_year}{text[4:]}"
                        break
            return True
        if intent.get("limit") == old_year:
            intent["limit"] = new_year
            return True
    if kind == "month" and old in (time.get("months") or []):
        time["months"] = [new if m == old else m for m in time["months"]]
        return True
    return False


Compile = Callable[[Any, Any], tuple[Any, list[str]]]  # the tools' compile_checked: (ctx, intent) -> (compiled, problems)


def usable(ctx: Any, question: str, compile_checked: Compile) -> tuple[Match, Any] | None:
    """The verified query this run may answer `question` from, with its reading: asked the same
    way, and every table it reads readable by this person (their view of the model compiles it and the
    access policy lets them read what it reads); None otherwise, and then it is neither used nor shown."""
    from agent.semantic.compile.intent import StructuredIntent

    queries: list[VerifiedQuery] = ctx.options.get("verified") or []
    if not queries:
        return None
    match = find(question, queries, ctx.semantic, ctx.values)
    if match is None or not _readable(ctx, match.intent, compile_checked):
        return None
    return match, StructuredIntent.model_validate(match.intent)


MAX_EXAMPLES = 3


def prompt_examples(ctx: Any, question: str, compile_checked: Compile) -> str:
    """For an LLM: the nearest verified queries this person may read, as question -> reading examples."""
    import json

    from rapidfuzz import fuzz

    queries: list[VerifiedQuery] = ctx.options.get("verified") or []
    ranked = sorted(queries, key=lambda q: -fuzz.token_set_ratio(question.lower(), q.question.lower()))
    examples: list[str] = []
    for query in ranked:
        if len(examples) == MAX_EXAMPLES:
            break
        if _readable(ctx, query.intent, compile_checked):
            examples.append(f"Q: {query.question}\nIntent: {json.dumps(query.intent, default=str)}")
    if not examples:
        return ""
    return "\nReadings the team verified (follow them where the question is asked the same way):\n" + "\n".join(examples)


def _readable(ctx: Any, intent: dict[str, Any], compile_checked: Compile) -> bool:
    from agent.errors import AssistantError
    from agent.policy import check_readable
    from agent.semantic.compile.intent import StructuredIntent

    try:
        compiled, _ = compile_checked(ctx, StructuredIntent.model_validate(intent))
        if compiled is None:
            return False
        check_readable(ctx, compiled.sql, ctx.warehouse.dialect)
    except (AssistantError, ValueError):
        return False
    return True
