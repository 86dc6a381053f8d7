"""Before the passes: definitions a question gives itself, read from its text and taken out of it.

'(availqty * supplycost summed over all suppliers)' after 'inventory value' defines the
measure 'inventory value'; 'late = l_receiptdate > l_commitdate' and 'arrived late (receipt date
after commit date)' define the condition 'late'; a formula with no name ('sum of
extendedprice*(1-discount)') is a measure named by its own text, or the model's own measure
when it computes the same thing. The question comes back with each formula replaced by the
words that now name it, so the passes read it like any other measure or flag.
"""

from __future__ import annotations

import re

import sqlglot

from agent.semantic.compile.definitions import (
    Definition,
    band_words,
    bands_sql,
    build,
    column_words,
    with_definitions,
)
from agent.semantic.compile.filters import Filter
from agent.semantic.model.runtime import SemanticModel
from agent.text.phrases import or_more, tokenize
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.durations import read_durations

# what `column_words` gives: a column's squashed words -> (model, column expression, kind)
ColumnWords = dict[str, list[tuple[str, str, str]]]
_OPERAND = r"\(*\s*(?:[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?)\s*\)*"
_FORMULA = re.compile(rf"{_OPERAND}(?:\s*(?:[*/+\-]|[<>]=?|!=)\s*{_OPERAND})+")
_NAMED = re.compile(r"([A-Za-z][A-Za-z ]{0,40}?)\s*(?:=|:)\s*$")
_SAID_COMPARISON = re.compile(
    r"^\s*(?P<a>[A-Za-z][\w ]*?)\s+(?P<op>after|later than|greater than|more than|above|bigger than|"
    r"before|earlier than|less than|below|smaller than|>=|<=|>|<)\s+(?P<b>[A-Za-z][\w ]*?)\s*$", re.IGNORECASE)
_SAID_OPS = {"after": ">", "later than": ">", "greater than": ">", "more than": ">", "above": ">",
             "bigger than": ">", "before": "<", "earlier than": "<", "less than": "<", "below": "<",
             "smaller than": "<", ">=": ">=", "<=": "<=", ">": ">", "<": "<"}
_AGG_WORDS = {"sum": "sum", "summed": "sum", "total": "sum", "totalled": "sum", "average": "average",
              "averaged": "average", "avg": "average", "mean": "average", "max": "max", "maximum": "max",
              "min": "min", "minimum": "min"}
_AGG_TAIL = re.compile(r"^\s*,?\s*(summed|totalled|averaged)(\s+(over|across)\s+(all\s+)?[A-Za-z]+)?", re.IGNORECASE)
_AGG_HEAD = re.compile(r"(sum|total|average|avg|mean|max|maximum|min|minimum)\s+of\s+(the\s+)?$", re.IGNORECASE)


def read_definitions(question: str, model: SemanticModel) -> tuple[str, list[Definition], SemanticModel]:
    """The question with its definitions replaced by their names, the definitions, and the model
    extended with them ([] and the same model when there are none)."""
    words = column_words(model)
    definitions: list[Definition] = []
    banded = _bands(question, model, words, 0)  # before '200+' is read as '200 or more': the band's name as said
    if banded is not None:
        question, band = banded
        definitions.append(band)
    question = or_more(question)  # '300+ seats' is no formula
    text = question
    for match in reversed(list(_FORMULA.finditer(question))):
        found = _formula(question, match, model, words, len(definitions))
        if found is None:
            continue
        definition, start, end, replacement = found
        if definition is not None:
            definitions.append(definition)
        text = text[:start] + replacement + text[end:]
    for match in reversed(list(_DAYS_BETWEEN.finditer(text))):
        between = _days_between(match, model, words, len(definitions))
        if between is not None:
            definitions.append(between)
            text = text[:match.start()] + f" {between.label} " + text[match.end():]
    text, timed = read_durations(text, model)
    definitions += timed
    for start, end, inner in reversed(asides(text)):
        said = _SAID_COMPARISON.match(inner)
        if said is None:
            continue
        built = build(f"{_join(said['a'])} {_SAID_OPS[said['op'].lower()]} {_join(said['b'])}", model, words)
        term = _term_before(text, start, model)
        if built is None or not built.condition or not term:
            continue
        table, expr = built.table, built.sql
        definitions.append(Definition(name=_name(term, len(definitions), model), label=term, table=table,
                                      kind="condition",
                                      expr=expr))
        text = text[:start] + text[end:]
    definitions.reverse()
    if not definitions:
        return text, [], model
    return text, definitions, with_definitions(model, definitions)


_DAYS_BETWEEN = re.compile(
    r"(?:(?P<agg>average|avg|mean|total|max|maximum|min|minimum)\s+)?(?:number\s+of\s+)?days\s+(?:from|between)\s+"
    r"(?P<a>[A-Za-z][\w ]*?)\s+(?:to|and|until|till)\s+(?P<b>[A-Za-z][\w ]*?)(?=\s*(?:[,?.;)]|$|\s(?:by|per|for|in|"
    r"of|when|where|across)\b))", re.IGNORECASE)


_NUMBER = r"\d+(?:\.\d+)?"
_ONE_BAND = (rf"(?:(?:under|below|less than|<)\s*{_NUMBER}|{_NUMBER}\s*(?:-|to|\u2013)\s*{_NUMBER}"
             rf"|{_NUMBER}\s*(?:\+|or more|and up|and over|or above)|(?:over|above|more than|>)\s*{_NUMBER})")


def _bands(text: str, model: SemanticModel, words: ColumnWords, n: int) -> tuple[str, Definition] | None:
    """'flights by distance band: under 500, 500-1000, over 1000 miles': rows grouped by the band their
    number falls in, the bands named as said. The list must follow the column's name (and may end each
    band with a unit); the question comes back with 'distance band' where the list was."""
    units = sorted({*model.unit_words, *(f for forms in model.relative_grains.values() for f in forms),
                    "yr", "yrs", "hr", "hrs", "mo", "mos", "wk", "wks"}, key=len, reverse=True)
    unit = rf"(?:\s*(?:{'|'.join(re.escape(u) for u in units)})\b\.?)?"
    listed = re.compile(rf"(?<![\w.]){_ONE_BAND}{unit}(?:\s*(?:,|/|;|\band\b|\bor\b)\s*{_ONE_BAND}{unit})+(?![\w.]\d)",
                        re.IGNORECASE)
    named = "|".join(re.escape(w) for w in band_words())
    for match in listed.finditer(text):
        bands = [re.sub(rf"{unit}$", "", b.group(0), flags=re.IGNORECASE).strip()
                 for b in re.finditer(rf"{_ONE_BAND}{unit}", match.group(0), re.IGNORECASE)]
        before = re.sub(rf"(?:\s+(?:{named}))?[\s:\-\u2013(]*$", "", text[:match.start()], flags=re.IGNORECASE)
        # 'by wind speed at the origin: under 10 mph, …': where the number is read stands between, kept as said
        place = re.search(r"\s+at\s+(?:the\s+)?[A-Za-z]+$", before, re.IGNORECASE)
        at = place.group(0) if place else ""
        before = before[:len(before) - len(at)]
        said = re.findall(r"[A-Za-z]+", before)[-3:]
        for size in range(len(said), 0, -1):
            phrase = said[-size:]
            columns = {(t, e) for t, e, k in words.get("".join(phrase).lower(), []) if k == "numeric"}
            if len(columns) != 1:
                continue
            (table, column), = columns
            dialect = model.project.dialect if model.project else "duckdb"
            sql = bands_sql(column, bands, dialect)
            if sql is None:
                return None
            label = f"{' '.join(phrase).lower()} band"
            start = before.lower().rfind(" ".join(phrase).lower())
            start = start if start >= 0 else len(before)
            rest = re.sub(rf"^\s*(?:{named})\s+", "", text[:start], flags=re.IGNORECASE)  # 'bucket flights by …'
            definition = Definition(name=_name(label, n, model), label=label, table=table, kind="bands", expr=sql,
                                    bands=bands, column=column)
            return f"{rest} {label}{at} {text[match.end():]}", definition
        return None
    return None


def _days_between(match: re.Match[str], model: SemanticModel, words: ColumnWords, n: int) -> Definition | None:
    """'average days from order date to ship date': a measure of whole days between two dates of a
    row or of the row it belongs to (an average unless a total, maximum or minimum is asked)."""
    built = build(f"{_join(match['b'])} - {_join(match['a'])}", model, words)
    if built is None or not built.days:
        return None  # not two dates one row can reach: said back, never guessed
    table, expr = built.table, built.sql
    agg = _AGG_WORDS.get((match["agg"] or "average").lower(), "average")
    said = {"sum": "total", "average": "average", "max": "maximum", "min": "minimum"}[agg]
    label = f"{said} days from {match['a'].strip().lower()} to {match['b'].strip().lower()}"
    return Definition(name=_name(label, n, model), label=label, table=table, kind="measure", expr=expr, agg=agg)


def _formula(question: str, match: re.Match[str], model: SemanticModel, words: ColumnWords,
             n: int) -> tuple[Definition | None, int, int, str] | None:
    """A Definition for one formula match, and the span to replace and what replaces it."""
    formula = match.group(0).strip()
    start = match.start() + (len(match.group(0)) - len(match.group(0).lstrip()))
    end = start + len(formula)
    formula, start, end = _balanced(formula, start, end)
    built = build(formula, model, words)
    if built is None:
        return None
    table, expr, condition = built.table, built.sql, built.condition
    head = question[:start]
    named = _NAMED.search(head)
    term = None
    if named is not None:
        term = _last_words(named.group(1))
        start = named.start(1) + (len(named.group(1)) - len(named.group(1).lstrip()))
        start = head.rfind(term, 0, named.end(1)) if term else start
    agg = "sum"
    head_agg = _AGG_HEAD.search(question[:start])
    if head_agg is not None:
        agg = _AGG_WORDS[head_agg.group(1).lower()]
        start = head_agg.start()
    tail_agg = _AGG_TAIL.match(question[end:])
    if tail_agg is not None:
        agg = _AGG_WORDS[tail_agg.group(1).lower()]
        end += tail_agg.end()
    if term is None:
        paren = question.rfind("(", 0, start)
        if paren >= 0 and not question[paren + 1:start].strip(" ,") and ")" in question[end:]:
            term = _term_before(question, paren, model)  # 'inventory value (availqty * supplycost summed ...)'
    kind = "condition" if condition else "measure"
    if kind == "measure":
        same = _same_measure(model, table, expr, agg)
        if same is not None:  # the model's own measure, restated: read it as that
            return None, start, end, f" {model.metric_by_name[same].label} " if not term else " "
    label = term or (f"{agg} of {formula}" if kind == "measure" else formula)
    name = _name(label, n, model)
    # a named definition is read where its name is said elsewhere ('late delivery rate … (late = …)');
    # said nowhere else, or unnamed, it is read where it stands
    elsewhere = term is not None and term in (question[:start] + " " + question[end:]).lower()
    replacement = " " if elsewhere else f" {label} "
    return Definition(name=name, label=label, table=table, kind=kind, expr=expr, agg=agg), start, end, replacement


def _balanced(formula: str, start: int, end: int) -> tuple[str, int, int]:
    """Drop brackets that open or close something around the formula ('(a * b summed)')."""
    while formula.count(")") > formula.count("(") and formula.endswith(")"):
        kept = formula[:-1].rstrip()
        formula, end = kept, end - (len(formula) - len(kept))
    while formula.count("(") > formula.count(")") and formula.startswith("("):
        kept = formula[1:].lstrip()
        formula, start = kept, start + (len(formula) - len(kept))
    return formula, start, end


def _same_measure(model: SemanticModel, table: str, expr: str, agg: str) -> str | None:
    project = model.project
    if project is None:
        return None
    wanted = _normal(expr, project.dialect)
    for metric in model.metrics:
        if metric.table != table or metric.filter:
            continue
        dbt_metric = project.metric_by_name.get(metric.name)
        if dbt_metric is None or dbt_metric.type != "simple" or dbt_metric.measure is None:
            continue
        measure = project.measure(dbt_metric.measure.name)
        if measure.agg == agg and _normal(measure.expr, project.dialect) == wanted:
            return metric.name
    return None


def _normal(expr: str, dialect: str) -> str:
    try:
        tree = sqlglot.parse_one(expr, read=dialect)
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
        return expr
    for column in tree.find_all(sqlglot.exp.Column):
        column.replace(sqlglot.exp.column(column.name.lower()))
    return tree.sql(dialect="duckdb").lower()


def asides(text: str) -> list[tuple[int, int, str]]:
    """(start, end, inner text) of each bracketed aside, outermost brackets only."""
    found, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "(":
            depth, start = depth + 1, (index if depth == 0 else start)
        elif char == ")" and depth:
            depth -= 1
            if depth == 0:
                found.append((start, index + 1, text[start + 1:index]))
    return found


_FUNCTION_WORDS = frozenset("""a an the of in on at for to from by per with and or is are was were be been do does
    did has have had which what who how many much that this these those it its their our my your all each every
    most least more less top bottom up down arrived departed got""".split())


def _term_before(text: str, index: int, model: SemanticModel) -> str | None:
    """The words just before a bracket that name what it defines ('arrived late (' -> 'late',
    'the most inventory value (' -> 'inventory value'): up to three words, back to a function word."""
    stops = _FUNCTION_WORDS | {w for words in (model.ranking.descending, model.ranking.ascending,
                                               *model.aggregations.values()) for w in words}
    words = [t.text for t in tokenize(text[:index])]
    term: list[str] = []
    for word in reversed(words):
        if word.lower() in stops or not word.isalpha() or len(term) == 3:
            break
        term.insert(0, word)
    return " ".join(term).lower() or None


def _last_words(text: str) -> str | None:
    words = [w for w in text.split() if w.isalpha()]
    kept: list[str] = []
    for word in reversed(words):
        if word.lower() in _FUNCTION_WORDS or len(kept) == 3:
            break
        kept.insert(0, word)
    return " ".join(kept).lower() or None


def _join(words: str) -> str:
    return "".join(words.split())


def _name(label: str, n: int, model: SemanticModel) -> str:
    slug = re.sub(r"[^0-9a-z]+", "_", label.lower()).strip("_")[:40]
    if not slug or not slug[0].isalpha():
        slug = f"defined_{n + 1}"
    if slug in model.metric_by_name or slug in model.dimension_by_name:
        slug = f"{slug}_as_asked"  # the question's own meaning of a word the model also uses
    return slug


def definitions_pass(draft: Draft) -> Draft:
    """Definitions the question gives itself are taken out of its text and added to (a copy of) the model."""
    draft.question, draft.definitions, draft.model = read_definitions(draft.question, draft.model)
    for banded in (d for d in draft.definitions if d.kind == "bands"):  # a row with no number is in no band
        draft.filters.append(Filter(field=banded.name, op="not_null"))
    return draft
