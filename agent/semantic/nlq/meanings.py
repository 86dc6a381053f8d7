"""What a word can mean to the reader on this warehouse, and why: `python -m agent catalog words WORD`.

Each line names one meaning (a table's rows, a column, a metric, a value, a time or ranking word)
and where the word came from (the element's own name, its description, the thesaurus, a value in
the data), so a team can see why a question was read as it was, and what to add to their YAML."""

from __future__ import annotations

from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.lexicon import Entry, lexicon_for
from agent.text.phrases import phrase
from agent.semantic.model.values import ValueIndex

_KINDS = {"entity": "the rows of table", "dimension": "the column", "metric": "the metric", "flag": "the condition",
          "value": "the value", "grain": "grouping by", "agg": "the aggregation", "rank": "ranking",
          "month": "the month", "weekday": "the weekday", "season": "the season", "day": "the day",
          "topic": "a topic the data does not hold", "context": "the data set itself"}


def word_meanings(word: str, model: SemanticModel, values: ValueIndex) -> list[str]:
    """One line per meaning of `word` (any of its phrases said alone); the nearest names when none."""
    words = phrase(word)
    if not words:
        return [f"“{word}” has no words to look up."]
    lexicon = lexicon_for(model, values)
    found = [e for e in lexicon.entries.get(words[0], []) if e.words == words]
    if not found:
        from rapidfuzz import fuzz, process

        names = sorted({" ".join(e.words) for bucket in lexicon.entries.values() for e in bucket
                        if e.kind in ("entity", "dimension", "metric", "flag")})
        near = [n for n, _, _ in process.extract(" ".join(words), names, scorer=fuzz.WRatio, score_cutoff=80, limit=5)]
        return [f"“{word}” means nothing to the reader here."] + ([f"Close: {', '.join(near)}."] if near else [])
    return [f"“{word}”: {_meaning(e, model)} ({_why(e, model)})" for e in found]


def _meaning(entry: Entry, model: SemanticModel) -> str:
    kind = _KINDS.get(entry.kind, entry.kind)
    if entry.kind == "entity":
        return f"{kind} {model.table_by_name[entry.name].table}"
    if entry.kind in ("dimension", "flag"):
        dim = model.dimension_by_name[entry.name]
        return f"{kind} {dim.label} ({', '.join(s.table for s in dim.sources)})"
    if entry.kind == "metric":
        return f"{kind} {model.metric_by_name[entry.name].label}"
    if entry.kind == "value":
        dimension, value = entry.dimension_value
        return f"{kind} {value!r} of {model.dimension_by_name[dimension].label}"
    if entry.kind == "rank":
        measure = model.ranking.implies_measure.get(" ".join(entry.words))
        by = f" by {model.dimension_by_name[measure].label}" if measure in model.dimension_by_name else ""
        return f"{kind} from the {'top' if entry.name == 'desc' else 'bottom'}{by}"
    return f"{kind} {entry.payload}" if entry.payload is not None else kind


def _why(entry: Entry, model: SemanticModel) -> str:
    if entry.kind == "value":
        return "a value in the warehouse"
    if entry.kind in ("dimension", "flag") and entry.related:
        dim = model.dimension_by_name[entry.name]
        return next((why for text, why in dim.related.items() if phrase(text)[:len(entry.words)] == entry.words[
            :len(phrase(text))]), "a related word")
    if entry.kind == "entity" and entry.related:
        table = model.table_by_name[entry.name]
        return next((why for text, why in table.related.items() if phrase(text)[0] == entry.words[0]), "a related word")
    if entry.kind in ("entity", "dimension", "metric", "flag"):
        return "its own name or a synonym in the semantic model"
    return "plain English (vocabulary.yaml)"
