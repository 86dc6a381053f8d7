"""Teaching a condition on related rows in words: "when I say active customer I mean a customer with an order in
the last 90 days", "by busy plane we mean a plane that made at least 5 flights in 2013", "by idle plane we
mean a plane with no flight in the last 30 days".

The meaning is read as: the thing (what one table's rows are called), link words or a verb of the rows, a count
(a, at least N, more than N, no), the related thing (what another table's rows are called, rows that point at the
thing through the model's entities), then an optional window (the last N days, weeks, months, quarters or years
of the data, or a year). Every word of it must be read so; the words are data (`phrases.yaml` related_rows, the
vocabulary's relative dates and event verbs), the SQL is built by `agent.semantic.compile.related`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from agent.semantic.compile.definitions import Definition
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.compile.related import Related, link_of, related_problems, related_sql
from agent.text.phrases import Token, phrase, tokenize
from agent.text.words import inflections, lemmas
from agent.yamlload import safe_load

_WORDS: dict[str, list[str]] = safe_load(Path(__file__).with_name("phrases.yaml").read_text(encoding="utf-8"))[
    "related_rows"]
_PHRASES = {key: sorted({phrase(p) for p in words}, key=len, reverse=True) for key, words in _WORDS.items()}


def related_definition(word: str, meaning: str, model: SemanticModel) -> Definition | None:
    """The condition `meaning` says on a thing's related rows, named `word`; None when it says none."""
    tokens = tokenize(meaning)
    low = [t.low for t in tokens]
    things = _things(model)
    i = _after(low, 0, _PHRASES["articles"])
    thing = _thing_at(low, i, things)
    if thing is None:
        return None
    table, i = thing
    linked = i
    while i < len(low) and _count_at(tokens, i) is None and (_after(low, i, _PHRASES["links"]) > i or _is_verb(low[i], model)):
        i = max(i + 1, _after(low, i, _PHRASES["links"]))
    counted = _count_at(tokens, i) if i > linked else None
    if counted is None:
        return None
    at_least, i = counted
    other = _thing_at(low, i, things)
    if other is None:
        return None
    related_table, i = other
    window = _window(tokens, i, model)
    if window is None:
        return None
    fields, i = window
    link = link_of(model, table, related_table)
    if i != len(low) or link is None:
        return None
    related = Related(table=related_table, via=link[0], at_least=max(1, at_least), absent=at_least == 0, **fields)
    label = _label(word, table, model)
    if related_problems(label, table, related, model):
        return None
    name = "learned_" + "_".join(re.findall(r"[a-z0-9]+", word.lower()))
    return Definition(name=name, label=label, table=table, kind="condition", related=related,
                      expr=related_sql(table, related, model))


def _things(model: SemanticModel) -> dict[tuple[str, ...], set[str]]:
    """Every form of what a table's rows are called -> the tables so called."""
    found: dict[tuple[str, ...], set[str]] = {}
    for table in model.tables:
        for said in table.entity_words:
            for form in inflections(phrase(said)):
                found.setdefault(form, set()).add(table.name)
    return found


def _thing_at(low: list[str], i: int, things: dict[tuple[str, ...], set[str]]) -> tuple[str, int] | None:
    """The one table whose rows the longest run of words from `i` names, and where the run ends."""
    for j in range(len(low), i, -1):
        tables = things.get(tuple(low[i:j]))
        if tables:
            return (next(iter(tables)), j) if len(tables) == 1 else None
    return None


def _after(low: list[str], i: int, phrases: list[tuple[str, ...]]) -> int:
    """Where the longest of `phrases` said at `i` ends; `i` when none is."""
    return next((i + len(p) for p in phrases if tuple(low[i:i + len(p)]) == p), i)


def _is_verb(word: str, model: SemanticModel) -> bool:
    """A verb the rows are told with: 'placed', 'made', 'has', or one the model names ('flew')."""
    events = set(model.coverage.get("event_verbs", []))
    return bool(events & set(lemmas(word).get("VERB", ()))) or (
        word in model.function_words and "VERB" in lemmas(word))


def _whole(token: Token) -> int | None:
    number = token.number
    return int(number) if number is not None and float(number).is_integer() and number >= 1 else None


def _count_at(tokens: list[Token], i: int) -> tuple[int, int] | None:
    """(at least how many, 0 for none, where the count ends): 'a', 'at least 5', 'more than 2', 'no'."""
    low = [t.low for t in tokens]
    for key, extra in (("at_least", 0), ("more_than", 1)):
        j = _after(low, i, _PHRASES[key])
        if j > i and j < len(tokens) and (number := _whole(tokens[j])) is not None:
            return number + extra, j + 1
    j = _after(low, i, _PHRASES["none"])
    if j > i:
        return 0, j
    j = _after(low, i, _PHRASES["one"])
    return (1, j) if j > i else None


def _window(tokens: list[Token], i: int, model: SemanticModel) -> tuple[dict[str, Any], int] | None:
    """The window's fields and where it ends ({} at the end of the words); None for words that are no window."""
    low = [t.low for t in tokens]
    if i == len(low):
        return {}, i
    i = _after(low, i, _PHRASES["window"])
    if i < len(low) and (year := _whole(tokens[i])) is not None and 1900 <= year <= 2100:
        return {"year": year}, i + 1
    i = _after(low, i, _PHRASES["articles"])
    cues = sorted((phrase(c) for c in model.relative_cues), key=len, reverse=True)
    j = _after(low, i, cues)
    if j == i or tuple(low[i:j]) in _PHRASES["calendar_cues"]:
        return None
    count = _whole(tokens[j]) if j < len(tokens) else None
    j += count is not None
    grains = {word: grain for grain, words in model.relative_grains.items() for word in words}
    if j >= len(low) or low[j] not in grains or ((count or 1) > 1 and not low[j].endswith("s")):
        return None
    return {"last": count or 1, "grain": grains[low[j]]}, j + 1


def _label(word: str, table: str, model: SemanticModel) -> str:
    """'active' for 'active customer': the words before the thing's own name, which a question says before
    it ('how many active customers'); the whole word when it does not end with that name."""
    said = phrase(word)
    names = {form for w in model.table_by_name[table].entity_words for form in inflections(phrase(w))}
    for form in names:
        if len(said) > len(form) and said[-len(form):] == form:
            return " ".join(said[:-len(form)])
    return word
