"""Questions read and their reading compiled, in one call: what the SQL step of a turn needs of the
semantic package (the reader, the dating of a relative period and the compiler, each a layer beneath).

`agent.tools.steps.read_and_compile` runs this in a CPU worker on the model and values shared there.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.semantic.compile.compiler import CompiledQuery, IntentError, compile_intent
from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.model.values import ValueIndex
from agent.semantic.nlq.extract import Extraction, extract_intent
from agent.semantic.nlq.parse.dates import with_latest_dates

Compiled = tuple[list[Extraction], list[tuple[str, CompiledQuery]], tuple[str, CompiledQuery] | None]


def read_and_compile(questions: Sequence[str], model: SemanticModel, values: ValueIndex, dialect: str) -> Compiled:
    """The offline semantic parse of each question, and the SQL of the reading they make (the whole
    question's, a follow-up's latest message winning) compiled for `dialect`. The compiled queries come
    back by the intent they compile (as JSON), for the caller's cache; and the reading's JSON with the
    query the SQL step makes of it (its relative period dated here), so the step neither dates nor
    compiles it again."""
    extractions = [extract_intent(question, model, values) for question in questions]
    intent = extractions[0].intent
    if intent is not None and len(extractions) > 1:
        intent = latest_wins(intent, extractions[1].intent)
    if intent is None:
        return extractions, [], None
    return extractions, *_compiled(intent, model, values, dialect)


def _compiled(
    intent: StructuredIntent, model: SemanticModel, values: ValueIndex, dialect: str
) -> tuple[list[tuple[str, CompiledQuery]], tuple[str, CompiledQuery] | None]:
    """The intent compiled as it is, and as the SQL step compiles it (a relative period given its dates);
    the second also by the intent's JSON when it was dated and compiled. One that could not be dated here
    is not: the step reads its latest date again."""
    dated, undated = with_latest_dates(intent, model, values)
    candidates = [intent] if undated is not None or dated == intent else [intent, dated]
    as_json = [candidate.model_dump_json() for candidate in candidates]
    done: dict[str, CompiledQuery] = {}
    for candidate, candidate_json in zip(candidates, as_json):
        try:  # compiling validates the intent first
            done[candidate_json] = compile_intent(candidate, model, dialect)
        except IntentError:
            continue
    as_stepped = done.get(as_json[-1]) if undated is None else None
    return list(done.items()), (None if as_stepped is None else (as_json[0], as_stepped))


def latest_wins(merged: StructuredIntent, latest: StructuredIntent | None) -> StructuredIntent:
    """In a follow-up ("what about JFK?"), what the latest message filters on replaces the earlier filter
    on the same field, instead of adding to it."""
    if latest is None:
        return merged
    latest_filters = {f.field: f for f in latest.filters}
    filters = [latest_filters.pop(f.field, f) for f in merged.filters] if latest_filters else merged.filters
    time = latest.time if latest.time is not None and not latest.time.is_empty() else merged.time
    return merged.model_copy(update={"filters": filters, "time": time})
