"""A follow-up as an LLM states it: the changes to the previous reading, as the operations of `edits.py`.

With an LLM, a message in a thread is read into `IntentEdit` (or into a whole new intent, when it is a
question of its own). `apply_edit` applies it to the previous reading with the same operations the
offline follow-up reader uses, in the same order, so both say what changed in the same words ("EWR
instead of JFK") and the result goes through the same checks before anything is compiled.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from agent.semantic.nlq import edits
from agent.semantic.nlq.edits import Edited
from agent.semantic.compile.intent import Filter, StructuredIntent, TimeFilter, validate_intent
from agent.semantic.model.runtime import Aggregation, SemanticModel


class IntentEdit(BaseModel):
    """Changes to the previous reading; an empty field changes nothing."""

    put_filters: list[Filter] = Field(
        default_factory=list, description="conditions that replace the one on the same dimension, or are added")
    compare_filters: list[Filter] = Field(
        default_factory=list, description="values set beside the one already filtered, one row each ('compare with LGA')")
    drop_filters: list[str] = Field(default_factory=list, description="dimensions whose conditions are taken away")
    exclude_values: list[Filter] = Field(
        default_factory=list, description="values left out, every other value kept ('exclude UA')")
    time: TimeFilter | None = Field(default=None, description="a new time window, replacing the old one")
    compare_time: TimeFilter | None = Field(default=None, description="months set beside the ones already asked")
    whole_period: bool = Field(default=False, description="drop the months and days ('for the whole year')")
    exclude_months: list[int] = Field(default_factory=list, description="months left out ('without December': 12)")
    group_by: list[str] = Field(default_factory=list, description="dimensions to group by")
    add_grouping: bool = Field(default=False, description="group_by goes beside the old grouping, not instead")
    metrics: list[str] = Field(default_factory=list, description="metrics measured instead of the previous ones")
    aggregation: Aggregation | None = Field(
        default=None, description="the same measure aggregated another way ('the median instead')")
    limit: int | None = Field(default=None, description="keep the top (or bottom) N groups")
    descending: bool | None = Field(default=None, description="with limit: highest first (true) or lowest (false)")
    all_rows: bool = Field(default=False, description="show every group, not only the top N")
    chart: Literal["bar", "line", "none"] | None = Field(default=None, description="the chart asked for")
    percent: bool = Field(default=False, description="the answer in percent ('as a %'): a rate, or each group's share")


def apply_edit(previous: StructuredIntent, edit: IntentEdit, model: SemanticModel) -> Edited | str:
    """The previous reading with `edit` applied, or why it cannot be (a sentence for the person)."""
    edited = Edited(previous)
    if edit.drop_filters:
        edited = edits.drop_filters(edited, edit.drop_filters, model)
    for flt in edit.exclude_values:
        edited = edits.exclude_value(edited, flt, model)
    if edit.whole_period:
        edited = edits.whole_period(edited)
    if edit.exclude_months:
        edited = edits.exclude_months(edited, edit.exclude_months)
    if edit.metrics:
        edited = edits.set_metrics(edited, edit.metrics, model)
    for flt in edit.put_filters:
        edited = edits.put_filter(edited, flt, model)
    for flt in edit.compare_filters:
        edited = edits.compare_values(edited, flt, model)
    if edit.time is not None and not edit.time.is_empty():
        edited = edits.set_time(edited, edit.time)
    if edit.compare_time is not None and not edit.compare_time.is_empty():
        edited = edits.compare_periods(edited, edit.compare_time, model)
    if edit.group_by and edit.group_by != edited.intent.dimensions:
        edited = edits.set_grouping(edited, edit.group_by, model, add=edit.add_grouping)
    if edit.aggregation is not None:
        switched = edits.switch_aggregation(edited, edit.aggregation, model)
        if switched is None:
            names = ", ".join(model.metric_by_name[m].label.lower() if m in model.metric_by_name else m
                              for m in edited.intent.metrics)
            return f"The semantic model has no {edit.aggregation} of {names}, so I did not change the measure."
        edited = switched
    if edit.percent:
        shown = edits.as_percent(edited, model)
        if isinstance(shown, str):
            return shown
        edited = shown
    if edit.all_rows:
        edited = edits.set_limit(edited, None)
    if edit.limit is not None:
        edited = edits.set_limit(edited, edit.limit, descending=edit.descending)
    if edit.chart is not None:
        edited = edits.set_chart(edited, edit.chart)
    problems = validate_intent(edited.intent, model)
    return " ".join(problems) if problems else edited
