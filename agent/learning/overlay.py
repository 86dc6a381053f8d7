"""Learned words laid over a semantic model: each becomes one more own name of its metric, dimension
or table, so the reader's lexicon finds it like any name the YAML gives. A learned word never replaces
a name the model already has: one that is (or, inflected, reads as) a name of the model is left out."""

from __future__ import annotations

from functools import cached_property

from agent.learning.phrases import NAMES_THE_DATA
from agent.learning.store import Kind, LearnedWord, normal_word
from agent.semantic.compile.definitions import Definition, with_definitions
from agent.semantic.model.runtime import SemanticModel
from agent.text.phrases import phrase
from agent.text.words import inflections


def own_names(model: SemanticModel) -> set[tuple[str, ...]]:
    """Every phrase the model itself gives as a name, with its noun forms ('carrier', 'carriers')."""
    texts: list[str] = []
    for metric in model.metrics:
        texts += [metric.label, *metric.synonyms]
    for dim in model.dimensions:
        texts += [dim.label, dim.name.replace("_", " "), *dim.synonyms]
    for table in model.tables:
        texts += table.entity_words
    texts += model.context_words
    return {form for text in texts for form in inflections(phrase(text))}


def is_model_name(word: str, model: SemanticModel) -> bool:
    return bool(inflections(phrase(word)) & own_names(model))


def resolve(label: str, model: SemanticModel) -> tuple[Kind, str, str | None] | None:
    """What a clarification option shown as `label` (or a typed answer) stands for: (kind, name, table),
    or None. Options are metric labels, dimension labels (or names) and the words for a table's rows; a
    typed answer may say more ('the origin airport'): then the one element whose name it holds, longest first."""
    exact = _resolve_exact(label, model)
    if exact is not None:
        return exact
    said = f" {' '.join(phrase(label))} "
    named = [(len(name), name, found) for name in _element_names(model) if f" {name} " in said
             for found in [_resolve_exact(name, model)] if found is not None]
    if not named:
        return None
    longest = max(size for size, _, _ in named)
    found = {(name, target) for size, name, target in named if size == longest}
    if len(found) != 1:
        return None
    name, target = found.pop()
    rest = said.replace(f" {name} ", " ", 1).split()
    # only grammar around the name ('the origin airport'): a word more ('delay > 15') says something else
    return target if all(word in model.function_words for word in rest) else None


def label_of(target: tuple[Kind, str, str | None], model: SemanticModel) -> str:
    kind, name, _ = target
    if kind == "context":
        return NAMES_THE_DATA
    if kind == "metric":
        return model.metric_by_name[name].label
    if kind == "dimension":
        return model.dimension_by_name[name].label
    words = model.table_by_name[name].entity_words
    return words[0] if words else name


def _element_names(model: SemanticModel) -> list[str]:
    names = [normal_word(m.label) for m in model.metrics]
    names += [normal_word(d.label) for d in model.dimensions] + [normal_word(d.name.replace("_", " ")) for d in model.dimensions]
    names += [normal_word(w) for t in model.tables for w in t.entity_words]
    return [" ".join(phrase(n)) for n in dict.fromkeys(names) if n]


def _resolve_exact(label: str, model: SemanticModel) -> tuple[Kind, str, str | None] | None:
    wanted = normal_word(label)
    if wanted == normal_word(NAMES_THE_DATA):
        return "context", "", None
    for metric in model.metrics:
        if wanted in (normal_word(metric.label), metric.name.lower()):
            return "metric", metric.name, metric.table
    for dim in model.dimensions:
        if wanted in (normal_word(dim.label), dim.name.lower(), normal_word(dim.name.replace("_", " "))):
            return "dimension", dim.name, dim.sources[0].table if dim.sources else None
    for table in model.tables:
        if wanted == table.name.lower() or wanted in {normal_word(w) for w in table.entity_words}:
            return "entity", table.name, table.name
    return None


def with_learned(model: SemanticModel, words: dict[str, LearnedWord]) -> SemanticModel:
    """`model` with every learned word whose element it has (a person's view may lack some) and that is
    no name of its own; `model` itself when none applies."""
    names = own_names(model)
    usable = [w for w in words.values() if not inflections(phrase(w.word)) & names]
    defined = [Definition.model_validate(w.definition) for w in usable if w.kind == "definition" and w.definition]
    defined = [d for d in defined if d.table in model.table_by_name]  # the person's view has its table
    if defined:
        model = with_definitions(model, defined)
    by_kind: dict[Kind, dict[str, list[str]]] = {"metric": {}, "dimension": {}, "entity": {}, "definition": {},
                                                 "context": {}}
    for word in usable:
        by_kind[word.kind].setdefault(word.name, []).append(word.word)
    metrics = [m.model_copy(update={"synonyms": [*m.synonyms, *by_kind["metric"][m.name]]})
               if m.name in by_kind["metric"] else m for m in model.metrics]
    dimensions = [d.model_copy(update={"synonyms": [*d.synonyms, *by_kind["dimension"][d.name]]})
                  if d.name in by_kind["dimension"] else d for d in model.dimensions]
    tables = [t.model_copy(update={"entity_words": [*t.entity_words, *by_kind["entity"][t.name]]})
              if t.name in by_kind["entity"] else t for t in model.tables]
    context = [*model.context_words, *by_kind["context"].get("", [])]
    if metrics == model.metrics and dimensions == model.dimensions and tables == model.tables \
            and context == model.context_words:
        return model
    copy = model.model_copy(update={"metrics": metrics, "dimensions": dimensions, "tables": tables,
                                    "context_words": context})
    for attribute, value in vars(type(model)).items():  # derived views of the old lists go with them
        if isinstance(value, cached_property):
            copy.__dict__.pop(attribute, None)
    return copy
