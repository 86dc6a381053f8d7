"""The answer and insight sentences, built from the computed facts alone (no model involved)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from agent.chatbi.facts import is_additive
from agent.chatbi.formatting import is_number, label, number, percent, plural, points, quantity, unit_of
from agent.chatbi.meaning import ColumnMeaning, is_fraction
from agent.text.words import plural_phrase

_TREND_WORDS = {"up": "upward", "down": "downward", "flat": "flat", "mixed": "mixed, rising and falling with no steady direction"}
# A measure whose name starts with one of these reads "the average delay is …", not "… delays".
_AGGREGATE_WORDS = {
    "average", "maximum", "minimum", "total", "sum", "count", "number", "median", "percent",
    "share", "rate", "ratio",
}


@dataclass
class Measure:
    """How to talk about a measure: counted things ("58,665 flights") or an amount ("12.6 minutes")."""

    column: str
    meaning: ColumnMeaning | None = None

    @property
    def name(self) -> str:
        return (self.meaning.label if self.meaning is not None and self.meaning.label else None) or label(self.column)

    @property
    def things(self) -> str:
        """What a count counts: "employees" for a metric labelled "Employees count" or "Number of
        employees", so a sentence says "92 employees", not "92 employees count"."""
        name = self.name
        for prefix in ("number of ", "count of "):
            if name.lower().startswith(prefix):
                return name[len(prefix):]
        # a table's own count is labelled by its name, often singular ('Shipment count'): 624 shipments
        return plural_phrase(name[: -len(" count")]) if name.lower().endswith(" count") else name

    @property
    def counted(self) -> bool:
        first = self.name.split(" ")[0]
        # counted things are counted things even where groups overlap ('the most movies' by genre)
        meaning = replace(self.meaning, overlapping=False) if self.meaning is not None else None
        return (
            is_additive(self.column, meaning)
            and unit_of(self.column, self.meaning) is None
            and first not in _AGGREGATE_WORDS
        )

    @property
    def subject(self) -> str:
        return self.name[0].upper() + self.name[1:] if self.counted else f"The {self.name}"

    @property
    def most(self) -> str:
        return f"the most {self.things}" if self.counted else f"the highest {self.name}"

    @property
    def least(self) -> str:
        return f"the fewest {self.things}" if self.counted else f"the lowest {self.name}"

    def amount(self, value: float | None) -> str:
        return quantity(value, self.column, self.meaning)

    def difference(self, value: float, *, signed: bool = False) -> str:
        """A difference of two values: percentage points for rates, the unit otherwise."""
        if is_fraction(self.column, self.meaning):
            return points(value * 100, signed=signed)
        if unit_of(self.column, self.meaning) == "%":
            return points(value, signed=signed)
        text = self.amount(abs(value))
        return ("+" if value >= 0 else "-") + text if signed else text

    def statement(self, value: float | None) -> str:
        """A value on its own: "336,776 flights", "the average departure delay is 12.64 minutes", "4,043
        distinct planes flown" (a count of different things says what it counts, like any count)."""
        if self.counted or self.distinct_count:
            return f"{self.amount(value)} {self.things}"
        return f"the {self.name} is {self.amount(value)}"

    @property
    def distinct_count(self) -> bool:
        """A count of different things ('Distinct planes flown'): no total over groups, but said as a count."""
        return self.meaning is not None and self.meaning.aggregate == "count_distinct" and not self.meaning.percent \
            and unit_of(self.column, self.meaning) is None and self.name.split(" ")[0] not in _AGGREGATE_WORDS


Meanings = dict[str, ColumnMeaning]


def answer_sentence(facts: dict[str, Any], columns: list[str], meanings: Meanings | None = None) -> str:
    return _capital(_answer(facts, columns, meanings or {}))


def insight_sentences(facts: dict[str, Any], meanings: Meanings | None = None) -> list[str]:
    return [_capital(sentence) for sentence in _insights(facts, meanings or {})]


def _measure(facts: dict[str, Any], meanings: Meanings) -> Measure:
    return Measure(facts["measure"], meanings.get(facts["measure"]))


def _answer(facts: dict[str, Any], columns: list[str], meanings: Meanings) -> str:
    shape = facts["shape"]
    if shape == "empty":
        return "No rows matched, so there is nothing to report; the filters may be too narrow."
    if shape == "single_value":
        return _single_value(facts, meanings)
    if shape == "single_row":
        return _single_row(facts, meanings)
    if shape == "list":
        return f"The query returned {_rows(facts['row_count'])} of {', '.join(label(c) for c in columns)}."
    measure = _measure(facts, meanings)
    if "top" not in facts and "first" not in facts:
        return f"The query returned {_rows(facts['row_count'])}, none with a value for {measure.name}."
    if shape == "category":
        return _category({**facts, "category_name": _category_name(facts, meanings)}, measure)
    if shape == "time_series":
        return _time_series(facts, measure)
    return _breakdown(facts, measure)


def _insights(facts: dict[str, Any], meanings: Meanings) -> list[str]:
    shape = facts["shape"]
    insights: list[str] = []
    measure = _measure(facts, meanings) if facts.get("measure") else None
    if measure is not None and shape == "category" and "top" in facts and facts["spread"] != 0:
        if "top3_share_pct" in facts and not facts.get("from_bottom"):  # of a bottom N, the top 3 are not shown
            insights.append(
                f"The top 3 {plural(_category_name(facts, meanings))} account for "
                f"{percent(facts['top3_share_pct'])} of {_total_phrase(facts)}."
            )
        bottom, top = facts["bottom"], facts["top"]
        if facts.get("from_bottom"):  # the highest of those shown, never 'the most' of all
            insights.append(
                f"{top['label']} has {measure.most} of these: {measure.amount(top['value'])}, "
                f"{measure.difference(facts['spread'])} above {bottom['label']}."
            )
        else:  # of a top N, the last shown is the least of these, not of all
            these = " of these" if facts.get("total_scope") in ("all", "shown") else ""
            insights.append(
                f"{bottom['label']} has {measure.least}{these}: {measure.amount(bottom['value'])}, "
                f"{measure.difference(facts['spread'])} below {top['label']}."
            )
    if measure is not None and shape == "time_series" and "first" in facts and "cycle" not in facts:
        trough = facts["trough"]
        insights.append(f"The trend over the {facts['points']} periods is {_TREND_WORDS[facts['trend']]}.")
        insights.append(f"The low point was {measure.amount(trough['value'])} {_at(trough['label'])}.")
    if measure is not None and shape == "breakdown" and "top" in facts:
        bottom = facts["bottom"]
        insights.append(f"{bottom['label']} has {measure.least}: {measure.amount(bottom['value'])}.")
    for column, count in facts.get("missing", {}).items():
        rows = "row has" if count == 1 else "rows have"
        insights.append(f"{number(count)} {rows} no value for {label(column)}; they are left out of the figures.")
    return insights


def _at(time_text: str) -> str:
    """The preposition a time label takes: on 2013-07-04, at 14:00, in July."""
    if re.match(r"^\d{4}-\d{2}-\d{2}", time_text):
        return f"on {time_text}"
    if re.match(r"^\d{2}:\d{2}$", time_text):
        return f"at {time_text}"
    return f"in {time_text}"


def _capital(text: str) -> str:
    # A sentence ending on a name that ends in a period ("Inc.") keeps a single full stop.
    if text.endswith(".."):
        text = text[:-1]
    return text[:1].upper() + text[1:]


def _rows(count: int) -> str:
    return f"{number(count)} row" if count == 1 else f"{number(count)} rows"


def _category_name(facts: dict[str, Any], meanings: Meanings) -> str:
    meaning = meanings.get(facts["category"])
    return (meaning.label if meaning is not None and meaning.label else None) or label(facts["category"])


def _total_phrase(facts: dict[str, Any]) -> str:
    """Which total a share is of: everything, or only the rows shown ("of these 10")."""
    if facts.get("total_scope") == "shown":
        return f"these {facts['count']}"
    if facts.get("total_scope") == "all" and facts.get("whole_count"):
        return f"the total across all {number(facts['whole_count'])}"
    return "the total"


def _single_value(facts: dict[str, Any], meanings: Meanings) -> str:
    value = facts["value"]
    if is_number(value):
        measure = _measure(facts, meanings)
        if measure.counted or measure.distinct_count:
            return f"There are {measure.statement(value)}."
        return measure.statement(value) + "."
    shown = value if value is not None else "empty"
    return f"The {label(facts['measure'])} is {shown}."


def _single_row(facts: dict[str, Any], meanings: Meanings) -> str:
    values = [Measure(c, meanings.get(c)).statement(v) for c, v in facts["values"].items() if v is not None]
    body = "; ".join(values) or "there are no numbers in the result"
    context = ", ".join(facts["labels"].values())
    return f"For {context}: {body}." if context else f"{body}."


def _category(facts: dict[str, Any], measure: Measure) -> str:
    top = facts["top"]
    categories = plural(facts["category_name"])
    if facts["spread"] == 0 and facts["count"] > 1 and facts.get("total_scope") != "shown":
        # 'list the bakers from London': one each, no 'most' (a cut result keeps its 'of these N' share)
        same = f"number of {measure.things}" if measure.counted else measure.name
        return f"The {facts['count']} {categories} have the same {same}: {measure.amount(top['value'])} each."
    if facts.get("from_bottom"):  # 'bottom 3 carriers': the lowest answers, and only the lowest is claimed
        bottom = facts["bottom"]
        return f"{bottom['label']} has {measure.least}: {measure.amount(bottom['value'])} (of the {facts['count']} {categories} shown)."
    sentence = f"{top['label']} has {measure.most}: {measure.amount(top['value'])}"
    if "share_pct" in top:
        if facts.get("total_scope") == "shown":
            return sentence + f" ({percent(top['share_pct'])} of these {facts['count']} {categories} combined)."
        across = facts.get("whole_count") or facts["count"]
        return sentence + (
            f" ({percent(top['share_pct'])} of the {measure.amount(facts['total'])} total"
            f" across {number(across)} {categories})."
        )
    return sentence + f" (among {facts['count']} {categories})."


def _time_series(facts: dict[str, Any], measure: Measure) -> str:
    first, last, peak = facts["first"], facts["last"], facts["peak"]
    if "cycle" in facts:  # 'flights by hour of the day': where it peaks and where it is lowest, no change
        trough = facts["trough"]
        return (f"{measure.subject} peaks at {measure.amount(peak['value'])} {_at(peak['label'])} and is lowest at "
                f"{measure.amount(trough['value'])} {_at(trough['label'])} (over {facts['points']} {facts['cycle']}).")
    sentence = (
        f"{measure.subject} went from {measure.amount(first['value'])} {_at(first['label'])} "
        f"to {measure.amount(last['value'])} {_at(last['label'])}"
    )
    if "change_pct" in facts:
        sentence += f" ({percent(facts['change_pct'], signed=True)})"
    elif "change" in facts and facts["change"] != 0:
        sentence += f" ({measure.difference(facts['change'], signed=True)})"
    return sentence + f", peaking at {measure.amount(peak['value'])} {_at(peak['label'])}."


def _breakdown(facts: dict[str, Any], measure: Measure) -> str:
    top = facts["top"]
    sentence = f"{top['label']} has {measure.most}: {measure.amount(top['value'])}"
    if "total" in facts:
        return sentence + f" (of {measure.amount(facts['total'])} in total across {facts['count']} rows)."
    return sentence + f" (across {facts['count']} rows)."
