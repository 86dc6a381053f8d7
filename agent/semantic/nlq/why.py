""""Why?" after an answer, told through the semantic model: what each measure is, which rows were kept,
how things were grouped and where a name came from — in the model's own words, never the SQL's aliases."""

from __future__ import annotations

import re
from functools import cache

import sqlglot
from sqlglot import exp

from agent.semantic.compile.definitions import with_definitions
from agent.semantic.compile.intent import StructuredIntent, base_table
from agent.semantic.model.runtime import Metric, SemanticModel
from agent.semantic.compile.reading import describe, filter_words, time_words

_AGG_WORDS = {"avg": "the average", "median": "the median", "sum": "the total", "max": "the largest",
              "min": "the smallest", "count": "the number"}


def explain_reading(intent: StructuredIntent, model: SemanticModel) -> str:
    model = with_definitions(model, intent.definitions)
    lines = [f"I read your question as: {describe(intent, model)}"]
    table = base_table(intent, model)
    rows = _rows_word(model, table)
    for name in intent.all_metrics():
        metric = model.metric_by_name.get(name)
        if metric is None:
            continue
        lines.append(f"• {metric.label}: {_metric_words(metric, model, rows)}.")
    conditions = [filter_words(f, model) for f in intent.filters] + time_words(intent.time)
    if conditions:
        lines.append(f"• Only {rows} where " + " and ".join(conditions) + " are counted.")
    else:
        lines.append(f"• Every one of the {rows} in the data is counted (no condition).")
    if intent.dimensions:
        grouped = [model.dimension_by_name.get(d) for d in intent.dimensions]
        labels = [g.label if g is not None else name for g, name in zip(grouped, intent.dimensions)]
        lines.append("• One row per " + ", ".join(labels) + ".")
        for flag in (g for g in grouped if g is not None and g.kind == "flag"):  # a yes/no grouping: its two sides
            lines.append(f"• ‘{flag.label.removeprefix('whether ')}’ splits them in two: one row where it holds, "
                         "one where it does not.")
    for name in dict.fromkeys(intent.dimensions + [f.field for f in intent.filters]):
        held = _when_it_holds(model, name)
        if held:
            lines.append(f"• {held}")
    for dim in intent.dimensions + [f.field for f in intent.filters]:
        joined = _joined_from(model, dim, table)
        if joined:
            lines.append(f"• {joined}")
    if intent.order_by or intent.limit:
        order = intent.order_by[0] if intent.order_by else None
        word = "highest" if order is None or order.descending else "lowest"
        top = f"the {intent.limit} " if intent.limit else "all, "
        lines.append(f"• Ranked {top}{word} first.")
    return "\n".join(dict.fromkeys(lines))


def _rows_word(model: SemanticModel, table: str | None) -> str:
    spec = model.table_by_name.get(table) if table else None
    if spec is None:
        return "rows"
    word = spec.entity_words[0] if spec.entity_words else spec.label
    return word if word.endswith("s") else word + "s"


def _metric_words(metric: Metric, model: SemanticModel, rows: str) -> str:
    ratio = _ratio_words(metric, model, rows)
    if ratio is not None:
        return ratio
    agg = _AGG_WORDS.get(str(metric.agg), "")
    measure = model.dimension_by_name.get(metric.measure) if metric.measure else None
    counted = re.fullmatch(r"sum_boolean\((.*)\)", metric.expr.strip(), re.I | re.S)
    summed = re.fullmatch(r"(sum|avg|median|max|min)\s*\((.*)\)", metric.expr.strip(), re.I | re.S)
    if measure is not None:
        unit = f" (in {measure.unit})" if measure.unit else ""
        words = f"{agg} {measure.label}{unit} over the {rows}".strip()
        formula = measure.sources[0].expr.strip() if measure.sources else ""
        if formula and not re.fullmatch(r'"?\w+"?', formula):  # a measure the model works out ('speed')
            words += f", each one's {measure.label} being {_formula_words(formula)}"
    elif summed is not None and counted is None:
        # an aggregate of a formula ('sum(quantity * pizza.price)'): told as that formula, not as a count
        words = f"{_AGG_WORDS[summed.group(1).lower()]} of {_formula_words(summed.group(2))} over the {rows}"
    elif counted is not None:
        words = f"the number of {rows} where {_condition_words(counted.group(1), model)}"
    elif "distinct" in metric.expr.lower():
        words = f"the number of different values, counted over the {rows}"
    else:
        words = f"the number of {rows}"
    if metric.filter:
        words += f", counting only {rows} where {_condition_words(metric.filter, model)}"
    return words


_FORMULA_OPS = {"*": "times", "/": "divided by", "+": "plus", "-": "minus"}


def _formula_words(formula: str) -> str:
    """'quantity * pizza.price' as 'quantity times price': columns by their own names, operators in words."""
    def column(match: re.Match[str]) -> str:
        return match.group(0).split(".")[-1].strip('"').replace("_", " ")

    said = re.sub(r'"?[A-Za-z_][\w]*"?(?:\."?[A-Za-z_][\w]*"?)*', column, re.sub(r"\s*([*/+-])\s*", r" \1 ", formula))
    return " ".join(_FORMULA_OPS.get(t, t) for t in said.split())


def _ratio_words(metric: Metric, model: SemanticModel, rows: str) -> str | None:
    """A ratio told as its two metrics, each with the conditions it counts under."""
    project = model.project
    spec = next((m for m in project.metrics if m.name == metric.name), None) if project is not None else None
    if spec is None or spec.type != "ratio" or spec.numerator is None or spec.denominator is None:
        return None
    sides = []
    for side in (spec.numerator, spec.denominator):
        inner = model.metric_by_name.get(side.name)
        if inner is None:
            return None
        words = _metric_words(inner, model, rows)
        conditions = [_condition_words(f.text, model) for f in side.filters]
        if conditions:
            words += f" where {' and '.join(conditions)}"
        sides.append(words)
    return f"{sides[0]}, divided by {sides[1]}"


_CONDITION_OPS = [(r"\s+IS\s+NOT\s+NULL\b", " is known"), (r"\s+IS\s+NULL\b", " is missing"),
                  (r"\s*<=\s*", " is at most "), (r"\s*>=\s*", " is at least "), (r"\s*(?:<>|!=)\s*", " is not "),
                  (r"\s*<\s*", " is less than "), (r"\s*>\s*", " is more than "), (r"\s*=\s*", " is ")]


def _condition_words(condition: str, model: SemanticModel) -> str:
    """A metric's condition ("{{ Dimension('flight__arr_delay') }} <= 0") in words ('arrival delay is at
    most 0'): dimensions by their labels, a bare column by its name in words."""
    def label(match: re.Match[str]) -> str:
        name = match.group(1).split("__")[-1]
        dim = model.dimension_by_name.get(name)
        return dim.label if dim is not None else name.replace("_", " ")

    said = re.sub(r"\{\{\s*Dimension\(\s*'([^']+)'\s*\)\s*\}\}", label, condition)
    said = re.sub(r"\b([a-z]+(?:_[a-z]+)+)\b", lambda m: m.group(1).replace("_", " "), said)
    for pattern, words in _CONDITION_OPS:
        said = re.sub(pattern, words, said, flags=re.I)
    return re.sub(r"\bAND\b", "and", " ".join(said.split()), flags=re.I)


def _when_it_holds(model: SemanticModel, name: str) -> str | None:
    """A yes/no dimension the model defines by a condition ('rainy': precip > 0), told as that condition in words;
    None for a flag that is a column of its own."""
    dim = model.dimension_by_name.get(name)
    if dim is None or dim.kind != "flag" or not dim.sources:
        return None
    expr = dim.sources[0].expr.strip()
    if re.fullmatch(r'"?\w+"?', expr) or "(" in expr:
        return None  # a column of its own; or a formula SQL alone could tell (the reading line says it in words)
    return f"‘{dim.label.removeprefix('whether ')}’ holds where {_condition_words(expr, model)}."


@cache  # a model's few keys, read once per process, never a question's SQL
def _key_words(key: str) -> str:
    """A join key in words: a column as it is, a key built of columns ('origin || ' ' || CAST(time_hour AS
    VARCHAR)') as the columns it is built of ('origin and time_hour'), never the SQL."""
    try:
        columns = list(dict.fromkeys(c.name for c in sqlglot.parse_one(key).find_all(exp.Column)))
    except sqlglot.errors.ParseError:
        return key
    return " and ".join(columns) if columns else key


def _joined_from(model: SemanticModel, dimension: str, table: str | None) -> str | None:
    if table is None or dimension not in model.dimension_by_name:
        return None
    reached = model.resolve(dimension, table)
    if reached is None:
        return None
    source, join = reached
    if join is None:
        return None
    other = model.table_by_name.get(source.table)
    keys = ", ".join(_key_words(a) for a, _ in join.keys)
    label = model.dimension_by_name[dimension].label
    return f"{label.capitalize()} comes from the {other.label if other else source.table} data, matched on {keys}."
