"""The answer and insight sentences, built from the computed facts alone (no model involved)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agent.chatbi.facts import is_additive
from agent.chatbi.formatting import label, number, percent, plural, quantity, unit_of

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

    @property
    def name(self) -> str:
        return label(self.column)

    @property
    def counted(self) -> bool:
        first = self.name.split(" ")[0]
        return is_additive(self.column) and unit_of(self.column) is None and first not in _AGGREGATE_WORDS

    @property
    def subject(self) -> str:
        return self.name[0].upper() + self.name[1:] if self.counted else f"The {self.name}"

    @property
    def most(self) -> str:
        return f"the most {self.name}" if self.counted else f"the highest {self.name}"

    @property
    def least(self) -> str:
        return f"the fewest {self.name}" if self.counted else f"the lowest {self.name}"

    def amount(self, value: float | None) -> str:
        return quantity(value, self.column)

    def statement(self, value: float | None) -> str:
        """A value on its own: "336,776 flights", "the average departure delay is 12.64 minutes"."""
        if self.counted:
            return f"{self.amount(value)} {self.name}"
        return f"the {self.name} is {self.amount(value)}"


def answer_sentence(facts: dict[str, Any], columns: list[str]) -> str:
    return _capital(_answer(facts, columns))


def insight_sentences(facts: dict[str, Any]) -> list[str]:
    return [_capital(sentence) for sentence in _insights(facts)]


def _answer(facts: dict[str, Any], columns: list[str]) -> str:
    shape = facts["shape"]
    if shape == "empty":
        return "No rows matched, so there is nothing to report; the filters may be too narrow."
    if shape == "single_value":
        return _single_value(facts)
    if shape == "single_row":
        return _single_row(facts)
    if shape == "list":
        return f"The query returned {number(facts['row_count'])} rows of {', '.join(label(c) for c in columns)}."
    measure = Measure(facts["measure"])
    if "top" not in facts and "first" not in facts:
        return f"The query returned {number(facts['row_count'])} rows, none with a value for {measure.name}."
    if shape == "category":
        return _category(facts, measure)
    if shape == "time_series":
        return _time_series(facts, measure)
    return _breakdown(facts, measure)


def _insights(facts: dict[str, Any]) -> list[str]:
    shape = facts["shape"]
    insights: list[str] = []
    measure = Measure(facts["measure"]) if facts.get("measure") else None
    if shape == "category" and "top" in facts:
        if "top3_share_pct" in facts:
            insights.append(
                f"The top 3 {plural(label(facts['category']))} account for "
                f"{percent(facts['top3_share_pct'])} of the total."
            )
        bottom, top = facts["bottom"], facts["top"]
        insights.append(
            f"{bottom['label']} has {measure.least}: {measure.amount(bottom['value'])}, "
            f"{measure.amount(facts['spread'])} below {top['label']}."
        )
    if shape == "time_series" and "first" in facts:
        trough = facts["trough"]
        insights.append(f"The trend over the {facts['points']} periods is {_TREND_WORDS[facts['trend']]}.")
        insights.append(f"The low point was {measure.amount(trough['value'])} {_at(trough['label'])}.")
    if shape == "breakdown" and "top" in facts:
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


def _single_value(facts: dict[str, Any]) -> str:
    value = facts["value"]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        measure = Measure(facts["measure"])
        if measure.counted:
            return f"There are {measure.statement(value)}."
        return measure.statement(value) + "."
    shown = value if value is not None else "empty"
    return f"The {label(facts['measure'])} is {shown}."


def _single_row(facts: dict[str, Any]) -> str:
    values = [Measure(c).statement(v) for c, v in facts["values"].items() if v is not None]
    body = "; ".join(values) or "there are no numbers in the result"
    context = ", ".join(facts["labels"].values())
    return f"For {context}: {body}." if context else f"{body}."


def _category(facts: dict[str, Any], measure: Measure) -> str:
    top = facts["top"]
    categories = plural(label(facts["category"]))
    sentence = f"{top['label']} has {measure.most}: {measure.amount(top['value'])}"
    if "share_pct" in top:
        return sentence + (
            f" ({percent(top['share_pct'])} of the {measure.amount(facts['total'])} total"
            f" across {facts['count']} {categories})."
        )
    return sentence + f" (among {facts['count']} {categories})."


def _time_series(facts: dict[str, Any], measure: Measure) -> str:
    first, last, peak = facts["first"], facts["last"], facts["peak"]
    sentence = (
        f"{measure.subject} went from {measure.amount(first['value'])} {_at(first['label'])} "
        f"to {measure.amount(last['value'])} {_at(last['label'])}"
    )
    if "change_pct" in facts:
        sentence += f" ({percent(facts['change_pct'], signed=True)})"
    return sentence + f", peaking at {measure.amount(peak['value'])} {_at(peak['label'])}."


def _breakdown(facts: dict[str, Any], measure: Measure) -> str:
    top = facts["top"]
    sentence = f"{top['label']} has {measure.most}: {measure.amount(top['value'])}"
    if "total" in facts:
        return sentence + f" (of {measure.amount(facts['total'])} in total across {facts['count']} rows)."
    return sentence + f" (across {facts['count']} rows)."
