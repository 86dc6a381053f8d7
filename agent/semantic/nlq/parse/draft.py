"""A question on its way to a StructuredIntent, as the reader's passes hand it on.

Each pass (`Draft -> Draft`, one module each, in the order `extract.PASSES` lists) reads the
tokens and mentions, marks what it understood on `state`, and fills its own fields. A pass that
finds the question cannot be answered as asked sets `outcome` (ask back, or say what is missing);
the reader stops there. `Extraction` is what the reader returns either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from agent.semantic.compile.definitions import Definition
from agent.semantic.compile.intent import Filter, MetricFilter, OrderBy, StructuredIntent, TimeFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import Ambiguity, GroupKey, State, UnknownValue, covered
from agent.text.phrases import Token
from agent.semantic.model.values import ValueIndex


class Extraction(BaseModel):
    intent: StructuredIntent | None = None
    unknown_values: list[UnknownValue] = Field(default_factory=list)
    unsupported: str | None = None  # why the warehouse cannot answer, naming what it holds
    ambiguous: list[Ambiguity] = Field(default_factory=list)
    reason: str | None = None  # why no intent came out, when it did not
    ignored_words: list[str] = Field(default_factory=list)
    understood: str = ""  # asked back over some words: what the rest reads as ('Customers count')
    understood_tables: list[str] = Field(default_factory=list)  # and the table that reading measures
    confidence: float = 0.0


@dataclass
class Draft:
    question: str
    model: SemanticModel
    values: ValueIndex
    # dimensions the thread's previous reading filters on: a value of several dimensions that is a
    # value of one of these is read as that one (it replaces or joins that filter), not asked about
    thread_fields: list[str] = field(default_factory=list)
    # what the previous answer measured: 'flights per plane' after a count of planes divides by that count
    thread_metrics: list[str] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    state: State = field(default_factory=lambda: State([], []))
    # calendar and dates
    time: TimeFilter | None = None
    dated_by: str | None = None  # the time dimension calendar words are about
    year_column: str | None = None  # a year a verb names ('released per year': the release year), grouped by 'year'
    # conditions
    filters: list[Filter] = field(default_factory=list)
    having: list[MetricFilter] = field(default_factory=list)
    absent: list[tuple[str, str]] = field(default_factory=list)  # (table, words) said to be missing
    # what could not be placed (each stops the reading with a question or a reason)
    ambiguous: list[Ambiguity] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    unknown: list[UnknownValue] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)  # measures the model lacks ('median of price')
    uncounted: list[str] = field(default_factory=list)  # things to count distinctly that no metric counts
    # groups, ranking and limits
    limit: int | None = None
    top: bool = False  # 'top' was said (a ranking even without a number)
    grouping: dict[GroupKey, Mention | None] = field(default_factory=dict)  # dimension (or options) -> said where
    which_singular: bool = False  # 'which carrier …' asks for one group
    by_metric: list[Mention] = field(default_factory=list)  # 'top 5 carriers by average delay'
    rank_mentions: list[Mention] = field(default_factory=list)
    compared: list[str] = field(default_factory=list)  # dimensions whose values are set against each other
    # what is measured
    counted_metrics: list[str] = field(default_factory=list)  # distinct counts asked for
    counted_period: str | None = None  # 'on how many days': the grain whose periods with rows are counted
    metric_choices: list[list[str]] = field(default_factory=list)  # per metric said: its candidates
    subjects: list[str] = field(default_factory=list)  # tables whose things a condition on a total is about
    defaulted: bool = False  # no measure was said: the model's default metric is measured
    metrics: list[str] = field(default_factory=list)
    table: str | None = None  # the table the first metric is measured on
    dimensions: list[str] = field(default_factory=list)
    order_by: list[OrderBy] = field(default_factory=list)
    limit_per: str | None = None
    listing: bool = False  # the things themselves are asked for, not a number
    display_unit: str | None = None  # 'in hours': the unit word the answer is wanted in
    amount_in_unit: bool = False  # 'how many hours did …': an amount in that unit is asked for, not a count
    kept: set[str] = field(default_factory=set)  # groupings said on purpose (a list, a superlative's things)
    intent: StructuredIntent | None = None
    outcome: Extraction | None = None  # set by a pass that ends the reading early

    def ignored(self) -> list[str]:
        """Words no pass placed (function words and numbers aside)."""
        understood = covered(self.state)
        return [t.text for i, t in enumerate(self.tokens) if i not in understood
                and t.low not in self.state.function_words and t.number is None]

    def measured_tables(self) -> list[str]:
        """The table a measure was found on, or the first one a measure said could be on: the question is about
        the data, even where it is asked back ('avg time to close a ticket': tickets, whatever 'time' is)."""
        if self.table:
            return [self.table]
        said = [m for options in self.metric_choices for m in options[:1] if isinstance(m, str)]
        return [self.model.metric_by_name[m].table for m in said if m in self.model.metric_by_name][:1]

    def stop(self, reason: str | None = None, **fields: Any) -> Draft:
        """End the reading: the question is asked back or declined with `reason`."""
        fields.setdefault("understood_tables", self.measured_tables())
        self.outcome = Extraction(reason=reason, ignored_words=self.ignored(), **fields)
        return self
