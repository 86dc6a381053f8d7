"""Edits of a reading: what a follow-up in a thread does to the previous question's intent.

Each operation takes the previous `StructuredIntent` and returns a new one, with a few words
saying what changed ("EWR instead of JFK"), so the reading line can tell the person. They are
general: they know dimensions, filters, time windows, groupings, limits and metrics, never a
particular question. `agent/semantic/nlq/follow_up.py` decides which to apply to a message.
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from agent.semantic.compile.definitions import Definition, period_count
from agent.semantic.compile.intent import (Contrast, Filter, MetricFilter, OrderBy, Side, StructuredIntent, TimeFilter,
                                           base_table, contrast_column)
from agent.semantic.model.runtime import Metric, SemanticModel
from agent.semantic.nlq.days_apart import days_beside

ChartKind = str  # 'bar' | 'line' | 'none', as agent.charts.spec draws them; 'any': the one the shape calls for


@dataclass
class Edited:
    """An intent after edits, with what each edit changed in words and the chart asked for."""

    intent: StructuredIntent
    changes: list[str] = field(default_factory=list)
    chart: ChartKind | None = None

    def then(self, intent: StructuredIntent, change: str) -> "Edited":
        return Edited(intent, [*self.changes, change], self.chart)


def _label(model: SemanticModel, name: str) -> str:
    dim = model.dimension_by_name.get(name)
    return dim.label if dim is not None else name


def _values(flt: Filter) -> str:
    return ", ".join(str(v) for v in flt.values)


def _compared(flt: Filter) -> str:
    """A condition's values with its comparison ('< 1990'); a value alone when it is equality; 'is known'
    for a condition without values."""
    if flt.op in ("is_null", "not_null"):
        return "is unknown" if flt.op == "is_null" else "is known"
    return _values(flt) if flt.op in ("=", "in") else f"{_SIGNS.get(flt.op, flt.op)} {_values(flt)}"


_SIGNS = {">=": "≥", "<=": "≤", "!=": "≠"}  # as the reading line writes them


def same_subject(model: SemanticModel, first: str, second: str) -> bool:
    """Do two dimensions name the same things ('carrier' code and the airline's name, joined by it)?
    A grouping or a filter on one makes a filter on the other stale."""
    if first == second:
        return True
    dims = model.dimension_by_name
    one, two = dims.get(first), dims.get(second)
    if one is None or two is None:
        return False
    if {(s.table, s.expr) for s in one.sources} & {(s.table, s.expr) for s in two.sources}:
        return True  # one column under two names ('pizza_types__category' and 'category')
    for join in model.joins:
        for a, b in ((one, two), (two, one)):
            keyed = any(s.table == join.from_table and s.expr in {k for k, _ in join.keys} for s in a.sources)
            if keyed and any(s.table == join.to_table for s in b.sources) and not model.table_by_name[
                    join.to_table].time:
                return True
    return False


# -- filters -----------------------------------------------------------------------------------


def put_filter(edited: Edited, new: Filter, model: SemanticModel) -> Edited:
    """Replace the condition on the same dimension (or on one naming the same things), else add it."""
    intent = edited.intent
    if new in intent.filters and new.field not in intent.dimensions:  # 'go back to SFO' when it is SFO: no change
        return edited
    share = intent.contrast if intent.contrast is not None and intent.contrast.kind == "share" else None
    in_share = [f for f in share.first.filters if same_subject(model, f.field, new.field)] if share else []
    # 'and 60+' after the share arriving 30+ minutes late: the share's own bound changes; that the delay is
    # known is the whole the share is of, and stays
    replaced = [f for f in intent.filters if same_subject(model, f.field, new.field)
                and not (in_share and f.op in ("not_null", "is_null"))]
    if share is not None and in_share and not replaced:
        # 'same for united' after Delta's share: the share's own condition changes, never both at once (0%)
        side = share.first.model_copy(update={"filters": [f for f in share.first.filters if f not in in_share] + [new]})
        old = in_share[0]
        change = f"{_values(new)} instead of {_values(old)}" if old.field == new.field and old.op == new.op == "=" \
            else f"{_label(model, new.field)} {_compared(new)} instead of {_compared(old)}"
        return edited.then(intent.model_copy(update={"contrast": share.model_copy(update={"first": side})}), change)
    kept = [f for f in intent.filters if f not in replaced]
    dims = [d for d in intent.dimensions if not (same_subject(model, d, new.field) and new.op == "=")]
    updated = intent.model_copy(update={"filters": [*kept, new], "dimensions": dims})
    if replaced:
        old = replaced[0]
        change = f"{_values(new)} instead of {_values(old)}" if old.field == new.field and old.op == new.op == "=" \
            else f"{_label(model, new.field)} {_compared(new)} instead of {_compared(old)}" if old.field == new.field \
            else f"{_label(model, new.field)} {_compared(new)} instead of {_label(model, old.field)} {_compared(old)}"
    else:
        flag = model.dimension_by_name.get(new.field)
        if flag is not None and flag.kind == "flag" and new.op == "=":  # 'also took off', 'also not cancelled'
            change = f"also {'' if new.values[0] else 'not '}{_label(model, new.field)}"
        else:
            change = f"also {_label(model, new.field)} {_compared(new)}"  # 'year built < 2000', never '2000'
    return edited.then(updated, change)


def drop_filters(edited: Edited, fields: list[str], model: SemanticModel) -> Edited:
    """Take away the conditions on these dimensions (and on those naming the same things)."""
    intent = edited.intent
    gone = [f for f in intent.filters if any(same_subject(model, f.field, d) for d in fields)]
    if not gone:
        return edited
    kept = [f for f in intent.filters if f not in gone]
    said = ", ".join(f"{_label(model, f.field)} {_values(f)}" for f in gone)
    return edited.then(intent.model_copy(update={"filters": kept}), f"without {said}")


def exclude_value(edited: Edited, value: Filter, model: SemanticModel) -> Edited:
    """Leave one value out ('exclude UA'): taken off a condition that lists it, or kept out by a
    condition of its own when none does (the other values all stay)."""
    intent = edited.intent
    left_out = set(value.values)
    holding = next((f for f in intent.filters if f.field == value.field and f.op in ("=", "in")
                    and left_out & set(f.values)), None)
    said = f"without {_label(model, value.field)} {_values(value)}"
    if holding is not None:
        rest = [v for v in holding.values if v not in left_out]
        kept = [f for f in intent.filters if f is not holding]
        if rest:
            kept.append(Filter(field=holding.field, op="in" if len(rest) > 1 else "=", values=rest))
        return edited.then(intent.model_copy(update={"filters": kept}), said)
    if any(f.field == value.field and f.op == "!=" and f.values == value.values for f in intent.filters):
        return edited
    outs = [Filter(field=value.field, op="!=", values=[v]) for v in value.values]
    return edited.then(intent.model_copy(update={"filters": [*intent.filters, *outs]}), said)


def list_the_counted(edited: Edited, model: SemanticModel) -> Edited | None:
    """'full list pls' after 'how many routes had more than 1000 flights': the groups themselves, each with the
    total they passed by, largest first; None when the answer counted no groups."""
    intent = edited.intent
    if not intent.count_groups:
        return None
    ranked = [OrderBy(field=h.metric, descending=True) for h in intent.having[:1]]
    things = ", ".join(_label(model, d).lower() for d in intent.dimensions)
    return edited.then(intent.model_copy(update={"count_groups": False, "order_by": intent.order_by or ranked}),
                       f"the {things} values themselves, not how many")


def keep_groups(edited: Edited, kept: Sequence[MetricFilter], model: SemanticModel) -> Edited:
    """Only the groups whose total passes ('only the ones with 1000+ flights', 'ignore any under 50 planes'):
    a condition on the same total replaces the old one; the groups and the measure stay."""
    intent = edited.intent
    metrics = {h.metric for h in kept}
    having = [h for h in intent.having if h.metric not in metrics] + [h for h in kept if h not in intent.having]
    if having == intent.having:
        return edited
    said = " and ".join(f"{_metric_label(model, h.metric).lower()} {_SIGNS.get(h.op, h.op)} {h.value:g}" for h in kept)
    return edited.then(intent.model_copy(update={"having": having}), f"only groups where {said}")


def _metric_label(model: SemanticModel, name: str) -> str:
    metric = model.metric_by_name.get(name)
    return metric.label if metric is not None else name


def keep_rows(edited: Edited, field: str, keys: list[Any], model: SemanticModel, *, ranked_out: bool = True) -> Edited:
    """Only the things the previous answer listed ('which of them …' after a top 5): its keys become
    the condition on their dimension, replacing one on the same dimension. `ranked_out`: the answer's
    limit, when no bigger than the keys, is the previous ranking's cut (not one the message set)."""
    intent = edited.intent
    kept = [f for f in intent.filters if not same_subject(model, f.field, field)]
    flt = Filter(field=field, op="in" if len(keys) > 1 else "=", values=list(keys))
    said = f"among the {len(keys)} {_label(model, field).lower()} values of the previous answer" if len(keys) > 1 \
        else f"for {keys[0]}, the previous answer's {_label(model, field).lower()}"
    # the ranking's cut chose these things, and the condition holds them now: kept, it would cut their rows
    # again once they are split further ('split that by carrier' after the 5 longest routes)
    limit = None if ranked_out and intent.limit is not None and len(keys) <= intent.limit else intent.limit
    return edited.then(intent.model_copy(update={"filters": [*kept, flt], "limit": limit}), said)


def compare_values(edited: Edited, new: Filter, model: SemanticModel) -> Edited:
    """Set the new value beside the old one: one row per value, both kept ('compare with LGA')."""
    intent = edited.intent
    old = next((f for f in intent.filters if f.field == new.field and f.op in ("=", "in")), None)
    values = list(dict.fromkeys([*(old.values if old else []), *new.values]))
    kept = [f for f in intent.filters if f is not old]
    dims = intent.dimensions if new.field in intent.dimensions else [new.field, *intent.dimensions]
    flt = Filter(field=new.field, op="in" if len(values) > 1 else "=", values=values)
    updated = intent.model_copy(update={"filters": [*kept, flt], "dimensions": dims})
    return edited.then(updated, f"{' and '.join(map(str, values))} side by side")


# -- time window ---------------------------------------------------------------------------------


def _describe_time(time: TimeFilter | None) -> str:
    if time is None or time.is_empty():
        return "all dates"
    if _calendar_said(time) is None:  # only days of the week or hours of the day
        return " and ".join(filter(None, (_describe_weekdays(time.weekdays), _describe_hours(time.hours))))
    if time.months and not (time.days or time.hours or time.start):
        return " and ".join(calendar.month_name[m] for m in time.months)
    if time.relative is not None:
        return time.relative.words
    if time.start is not None and time.end is not None:
        return f"{time.start.isoformat()} to {time.end.isoformat()}"
    if time.year is not None:
        return str(time.year)
    return " ".join(_year_bounds(time)) or "the new dates"


def _year_bounds(time: TimeFilter) -> list[str]:
    return [f"{word} {year}" for word, year in (("from", time.from_year), ("until", time.until_year)) if year]


_CALENDAR_PARTS = ("year", "years", "from_year", "until_year", "months", "days", "from_day", "to_day", "start",
                   "end", "relative")


def _calendar_said(time: TimeFilter) -> TimeFilter | None:
    """The window's calendar part (years, months, days, ranges of dates); None when it says none."""
    part = TimeFilter(**{name: getattr(time, name) for name in _CALENDAR_PARTS})
    return None if part.is_empty() else part


def _describe_weekdays(days: list[int]) -> str:
    if days == [6, 7]:
        return "weekends"
    if days == [1, 2, 3, 4, 5]:
        return "weekdays"
    return ", ".join(calendar.day_name[d - 1] for d in days)


def _describe_hours(hours: list[int]) -> str:
    if not hours:
        return ""
    if len(hours) > 1 and hours == list(range(hours[0], hours[-1] + 1)):
        return f"hours {hours[0]}-{hours[-1]}"
    return "hour " + ", ".join(map(str, hours))


def set_time(edited: Edited, time: TimeFilter) -> Edited:
    """A new time window replaces the parts of the old one it says, and keeps the others: the calendar
    (years, months, days), the days of the week and the hours of the day are three conditions, so
    'only weekends' after 'in March' keeps March, and 'what about April' after 'March, weekends' keeps
    the weekends. A year said alone keeps the months said before ('in 2013' after 'in March')."""
    intent = edited.intent
    old = intent.time
    if old is not None and not old.is_empty():
        said_calendar = _calendar_said(time)
        if said_calendar is None or (time.year is not None and not (time.months or time.days or time.start
                                                                      or time.relative or time.from_day)):
            calendar_kept = _calendar_said(old) or TimeFilter()
            if said_calendar is not None:  # the year alone
                calendar_kept = calendar_kept.model_copy(update={"year": time.year, "years": [], "from_year": None,
                                                                 "until_year": None})
            said_calendar = calendar_kept
        merged = said_calendar.model_copy(update={"weekdays": time.weekdays or old.weekdays,
                                                   "hours": time.hours or old.hours})
        if merged == old:  # 'in February' again: nothing changes, and nothing is said to
            return edited
        if _calendar_said(time) is None:  # nothing of the calendar said: what was said is added, or replaced
            replaced = [d for d, new, was in (("weekdays", time.weekdays, old.weekdays), ("hours", time.hours, old.hours))
                        if new and was and new != was]
            said = _describe_time(time.model_copy(update={n: getattr(TimeFilter(), n) for n in _CALENDAR_PARTS}))
            change = f"{said} instead of {_describe_time(TimeFilter(weekdays=old.weekdays, hours=old.hours))}" \
                if replaced else f"only {said}"
            return edited.then(intent.model_copy(update={"time": merged}), change)
        time = merged
    change = f"{_describe_time(time)} instead of {_describe_time(old)}" if old and not old.is_empty() \
        else f"for {_describe_time(time)}"
    return edited.then(intent.model_copy(update={"time": time}), change)


def exclude_months(edited: Edited, months: list[int]) -> Edited:
    """Leave months out ('without December'): taken off the months asked, or off the whole year when none were."""
    intent = edited.intent
    old = intent.time or TimeFilter()
    kept = [m for m in (old.months or range(1, 13)) if m not in months]
    if not kept or kept == old.months:
        return edited
    said = "without " + " and ".join(calendar.month_name[m] for m in months)
    return edited.then(intent.model_copy(update={"time": old.model_copy(update={"months": kept})}), said)


def whole_period(edited: Edited) -> Edited:
    """Drop the calendar restriction below the year: 'for the whole year' after 'in June'."""
    intent = edited.intent
    old = intent.time
    if old is None or old.is_empty():
        return edited
    kept: TimeFilter | None = TimeFilter(year=old.year, years=old.years, from_year=old.from_year, until_year=old.until_year)
    if kept is not None and kept.is_empty():
        kept = None
    return edited.then(intent.model_copy(update={"time": kept}), f"all dates instead of {_describe_time(old)}")


def compare_periods(edited: Edited, time: TimeFilter, model: SemanticModel) -> Edited:
    """Months beside months ('compare to February' after January): one row per month, both kept."""
    intent = edited.intent
    old = intent.time or TimeFilter()
    if time.weekdays and old.weekdays and not (time.months or time.days or time.year or time.start):
        # 'vs weekdays' after weekends: one row for the weekend days, one for the others
        apart = days_beside(intent.model_copy(update={"time": old.model_copy(update={"weekdays": []})}),
                            old.weekdays, time.weekdays, model)
        if apart is not None:
            return edited.then(*apart)
    if time.year is not None and not (time.months or time.days or time.start or time.relative or time.from_day):
        return _compare_years(edited, time.year, model)
    if not (time.months and (old.months or old.is_empty())):
        return set_time(edited, time)
    months = sorted(set(old.months) | set(time.months))
    # quarters beside quarters ('compare with q2' after Q1) are one row each, not six months
    quarters = [_quarter(old.months), _quarter(time.months)]
    grain = month_dimension(intent, model, part="quarter") if None not in quarters else None
    said = " and ".join(f"Q{q}" for q in sorted({q for q in quarters if q is not None})) if grain is not None \
        else " and ".join(calendar.month_name[m] for m in months)
    grain = grain or month_dimension(intent, model)
    dims = intent.dimensions if grain is None or grain in intent.dimensions else [grain, *intent.dimensions]
    updated = intent.model_copy(update={"time": old.model_copy(update={"months": months}), "dimensions": dims})
    return edited.then(updated, said + " side by side")


def _quarter(months: list[int]) -> int | None:
    """The quarter these months are, whole; None when they are no calendar quarter."""
    return months[0] // 3 + 1 if len(months) == 3 and months[0] % 3 == 1 and months == list(
        range(months[0], months[0] + 3)) else None


def _compare_years(edited: Edited, year: int, model: SemanticModel) -> Edited:
    """A year beside the year asked before ('compare with 2012'): one row per year, both kept; beside a
    reading of every year, the years are shown one row each, none left out."""
    intent = edited.intent
    old = intent.time or TimeFilter()
    before = old.years or ([old.year] if old.year is not None else [])
    years = sorted({*before, year})
    update: dict[str, Any] = {"year": None, "years": years} if before else {"year": None, "years": []}
    kept: TimeFilter | None = old.model_copy(update=update)
    if kept is not None and kept.is_empty():
        kept = None
    grain = month_dimension(intent, model, part="year")
    dims = intent.dimensions if grain is None or grain in intent.dimensions else [grain, *intent.dimensions]
    said = " and ".join(map(str, years)) + " side by side" if before else f"every year, one row each, beside {year}"
    return edited.then(intent.model_copy(update={"time": kept, "dimensions": dims}), said)


def month_dimension(intent: StructuredIntent, model: SemanticModel, part: str = "month") -> str | None:
    """The dimension naming the `part` of the calendar ('month', 'year') of the intent's table."""
    table = base_table(intent, model)
    spec = model.table_by_name.get(table) if table else None
    if spec is not None and part in spec.time:
        return spec.time[part]
    own = model.dimension_by_name.get(part)  # a calendar dimension of the table under that name ('quarter')
    if own is not None and own.kind == "time" and any(s.table == table for s in own.sources):
        return own.name
    grain = f"metric_time__{part}"
    return grain if grain in model.dimension_by_name else None


# -- grouping ------------------------------------------------------------------------------------


def set_grouping(edited: Edited, dimensions: list[str], model: SemanticModel, *, add: bool) -> Edited:
    """Group by the new dimensions, instead of the old ones or beside them. A dimension now grouped
    by loses its filter of one value ('by airline now' after 'for United'); of several, it splits them."""
    intent = edited.intent
    old = intent.dimensions
    dims = list(dict.fromkeys([*old, *dimensions])) if add else list(dimensions)
    if not add and all(_calendar(d, intent, model) for d in dimensions) \
            and any(_calendar(d, intent, model) for d in old):
        # 'by week instead' after 'by carrier and month': a period replaces the period; the other groups stay
        # ('by month instead' after 'by carrier' has no period to replace: the month replaces the carrier)
        dims = list(dict.fromkeys([*(d for d in old if not _calendar(d, intent, model)), *dimensions]))
        old = [d for d in old if _calendar(d, intent, model)]
    # ('by airport' after 'to DCA or IAD' splits those two: a filter of several values stays)
    filters = [f for f in intent.filters if not any(same_subject(model, f.field, d) for d in dimensions)
               or (f.op == "in" and len(f.values) > 1)]
    dropped = [f for f in intent.filters if f not in filters]
    order = [o for o in intent.order_by if o.field in set(intent.all_metrics()) | set(dims)]
    limit_per = intent.limit_per if intent.limit_per in dims else None
    updated = intent.model_copy(update={"dimensions": dims, "filters": filters, "order_by": order, "limit_per": limit_per})
    new = " and ".join(_label(model, d) for d in dimensions)
    if add or not old:
        change = f"also by {new}" if old else f"by {new}"
    else:
        change = f"by {new} instead of by {' and '.join(_label(model, d) for d in old)}"
    if dropped:
        change += " (for every " + ", ".join(_label(model, f.field) for f in dropped) + ")"
    return edited.then(updated, change)


def _calendar(dimension: str, intent: StructuredIntent, model: SemanticModel) -> bool:
    """A part of the calendar ('metric_time__month', a table's own month or day of the week)."""
    table = model.table_by_name.get(base_table(intent, model) or "")
    own = model.dimension_by_name.get(dimension)
    return model.time_grain(dimension) is not None or (own is not None and own.kind == "time") \
        or (table is not None and dimension in table.time.values())


def drop_grouping(edited: Edited, dimensions: list[str], model: SemanticModel) -> Edited:
    """'drop the month' where the answer is by month and nothing filters on it: one total instead."""
    intent = edited.intent
    dims = [d for d in intent.dimensions if d not in dimensions]
    order = [o for o in intent.order_by if o.field in set(intent.all_metrics()) | set(dims)]
    limit_per = intent.limit_per if intent.limit_per in dims else None
    updated = intent.model_copy(update={"dimensions": dims, "order_by": order, "limit_per": limit_per,
                                        "limit": intent.limit if dims else None})
    return edited.then(updated, "no longer by " + " and ".join(_label(model, d) for d in dimensions))


# -- ranking -------------------------------------------------------------------------------------


def set_limit(edited: Edited, limit: int | None, *, descending: bool | None = None, per: str | None = None,
              model: SemanticModel | None = None) -> Edited:
    """Keep the top (or bottom) N groups by the first metric, within each group of `per` when given
    ('the longest route each of them flies'); None shows every group."""
    intent = edited.intent
    if limit is None:
        if intent.limit is None:
            return edited
        return edited.then(intent.model_copy(update={"limit": None, "limit_per": None}), "every row, not only the top")
    # the measure the answer is ranked by already ('top 10 by number of flights' beside the delay), else the first
    metric = next((o.field for o in intent.order_by if o.field in intent.metrics), None) \
        or (intent.metrics[0] if intent.metrics else None)
    if metric is None and intent.contrast is not None:  # a share or a change: ranked by what it computes
        metric = contrast_column(intent.contrast)
    order = intent.order_by
    if descending is not None or not order:
        down = True if descending is None else descending
        order = [OrderBy(field=metric, descending=down)] if metric else order
    word = "top" if (order[0].descending if order else True) else "bottom"
    if per is not None and per in intent.dimensions and len(intent.dimensions) > 1 and model is not None:
        return edited.then(intent.model_copy(update={"limit": limit, "order_by": order, "limit_per": per}),
                           f"{word} {limit} per {_label(model, per)}")
    return edited.then(intent.model_copy(update={"limit": limit, "order_by": order}), f"{word} {limit}")


def order_by_measure(edited: Edited, metric: str, descending: bool, model: SemanticModel) -> Edited:
    """'avg dep delay for each, worst first': every row, ordered by that measure that way."""
    intent = edited.intent
    if intent.order_by and intent.order_by[0].field == metric and intent.order_by[0].descending == descending:
        return edited
    labels = {**{d.name: d.label for d in intent.definitions}, **{m.name: m.label for m in model.metrics}}
    updated = intent.model_copy(update={"order_by": [OrderBy(field=metric, descending=descending)]})
    return edited.then(updated, f"{labels.get(metric, metric).lower()} {'highest' if descending else 'lowest'} first")


def rank_by(edited: Edited, metric: str, model: SemanticModel) -> Edited:
    """'top 10 by number of flights' when the answer shows the flights beside another measure: ranked by it,
    every measure kept."""
    intent = edited.intent
    if intent.order_by and intent.order_by[0].field == metric:
        return edited
    updated = intent.model_copy(update={"order_by": [OrderBy(field=metric, descending=True)]})
    label = model.metric_by_name[metric].label if metric in model.metric_by_name else metric
    return edited.then(updated, f"ranked by {label.lower()}")


def reverse_order(edited: Edited) -> Edited:
    """'flip it': the same ranking the other way round (the same number kept); an answer in no order is put in
    order, lowest first."""
    intent = edited.intent
    metric = intent.metrics[0] if intent.metrics else None
    if metric is None and intent.contrast is not None:
        metric = contrast_column(intent.contrast)
    order = intent.order_by or ([OrderBy(field=metric, descending=True)] if metric else [])
    if not order:
        return edited
    flipped = [o.model_copy(update={"descending": not o.descending}) for o in order[:1]] + list(order[1:])
    word = "highest" if flipped[0].descending else "lowest"
    return edited.then(intent.model_copy(update={"order_by": flipped}), f"{word} first")


def other_extreme(edited: Edited, model: SemanticModel, descending: bool | None) -> Edited | None:
    """'and the lowest' after 'the highest temperature' (one value, no groups, a maximum): the minimum of the
    same measure, and the reverse; None where the reading is not one extreme asked the other way."""
    intent = edited.intent
    metric = model.metric_by_name.get(intent.metrics[0]) if len(intent.metrics) == 1 else None
    if metric is None or intent.dimensions or descending is None or metric.agg not in ("max", "min") \
            or (metric.agg == "max") == descending:
        return None
    wanted = "max" if descending else "min"
    other = [m.name for m in model.metrics if metric.measure is not None and m.measure == metric.measure
             and m.table == metric.table
             and m.agg == wanted and not m.filter]
    return set_metrics(edited, other[:1], model) if len(other) == 1 else None


# -- what is measured ----------------------------------------------------------------------------


def set_metrics(edited: Edited, metrics: list[str], model: SemanticModel,
                defined: Sequence[Definition] = ()) -> Edited:
    """Measure something else; the ranking follows the new measure. `defined` are the message's own
    definitions ('the max' of a measure the model has no maximum of), kept for the new metrics they name."""
    intent = edited.intent
    if metrics == intent.metrics:
        return edited
    swap = dict(zip(intent.metrics, metrics))
    order = [o.model_copy(update={"field": swap.get(o.field, o.field)}) for o in intent.order_by]
    having = [h.model_copy(update={"metric": swap[h.metric]}) for h in intent.having if h.metric in swap]
    known = {d.name for d in intent.definitions}
    definitions = [*intent.definitions, *(d for d in defined if d.name in metrics and d.name not in known)]
    updated = intent.model_copy(update={"metrics": metrics, "order_by": order, "having": having,
                                        "definitions": definitions})
    label = {**{name: m.label for name, m in model.metric_by_name.items()}, **{d.name: d.label for d in definitions}}
    old = ", ".join(label[m].lower() if m in label else m for m in intent.metrics)
    if intent.contrast is not None:
        # 'what share were cancelled' after 'what % left late': the new measure replaces the contrast, which
        # would otherwise still be what is computed; the share's own condition ('delay is known') goes with it
        updated, old = _without_the_contrast(updated, intent.contrast, metrics, model), "the " + (
            "share" if intent.contrast.kind == "share" else "comparison") + (f" and {old}" if old else "")
    new = ", ".join(label[m].lower() if m in label else m for m in metrics)
    return edited.then(updated, f"{new} instead of {old}")


def _without_the_contrast(intent: StructuredIntent, contrast: Contrast, metrics: list[str],
                          model: SemanticModel) -> StructuredIntent:
    own = {f.field for f in contrast.first.filters} if contrast.kind == "share" else set()
    filters = [f for f in intent.filters if not (f.op == "not_null" and f.field in own)]
    column = contrast_column(contrast)
    order = [o.model_copy(update={"field": metrics[0]}) if o.field == column else o for o in intent.order_by]
    return intent.model_copy(update={"contrast": None, "filters": filters, "order_by": order})


def set_share(edited: Edited, share: Contrast, model: SemanticModel) -> Edited:
    """'what % of them left late' after a count: the share of the reading's rows that meet the message's
    condition, in place of what it measured; a ranking ranks by the share now."""
    intent = edited.intent
    if intent.contrast == share:
        return edited
    field_name = contrast_column(share)
    order = [o.model_copy(update={"field": field_name}) for o in intent.order_by]
    updated = intent.model_copy(update={"metrics": [], "contrast": share, "order_by": order, "having": [],
                                        "share_of_total": False})
    metric = model.metric_by_name.get(share.metric)
    things = metric.label.lower() if metric is not None else share.metric
    condition = " and ".join(f"{_label(model, f.field)} {_compared(f)}" for f in share.first.filters)
    old = ", ".join(model.metric_by_name[m].label.lower() if m in model.metric_by_name else m for m in intent.metrics)
    return edited.then(updated, f"the share where {condition} instead of {old or things}")


def count_instead_of_share(edited: Edited, model: SemanticModel) -> Edited:
    """'how many per month' after 'what % of them left late': the rows themselves counted again, all of
    them; the condition that made the share's rows known ('departure delay is known') goes with it."""
    intent = edited.intent
    share = intent.contrast
    if share is None or share.kind != "share":
        return edited
    own = {f.field for f in share.first.filters}
    filters = [f for f in intent.filters if not (f.op == "not_null" and f.field in own)]
    order = [o.model_copy(update={"field": share.metric}) for o in intent.order_by]
    updated = intent.model_copy(update={"metrics": [share.metric], "contrast": None, "filters": filters,
                                        "order_by": order})
    metric = model.metric_by_name.get(share.metric)
    return edited.then(updated, f"{metric.label.lower() if metric else share.metric} instead of the share")


def add_metrics(edited: Edited, metrics: list[str], model: SemanticModel,
                defined: Sequence[Definition] = ()) -> Edited:
    """Measure something more beside what the reading measures ('add humidity'); the order stays the first's."""
    intent = edited.intent
    more = [m for m in metrics if m not in intent.metrics]
    if not more:
        return edited
    known = {d.name for d in intent.definitions}
    definitions = [*intent.definitions, *(d for d in defined if d.name in more and d.name not in known)]
    updated = intent.model_copy(update={"metrics": [*intent.metrics, *more], "definitions": definitions})
    label = {**{name: m.label for name, m in model.metric_by_name.items()}, **{d.name: d.label for d in definitions}}
    return edited.then(updated, "also " + ", ".join(label[m].lower() if m in label else m for m in more))


def average_per_period(edited: Edited, grain: str, model: SemanticModel) -> Edited | None:
    """'avg per month instead': the reading's count or total over the different months its rows fall on
    (already an average per day: the same count, per month now). None when it measures something else
    or its rows have no date."""
    intent = edited.intent
    if len(intent.metrics) != 1:
        return None
    name = intent.metrics[0]
    own = next((d for d in intent.definitions if d.name == name), None)
    periods_before = next((d for d in intent.definitions if own is not None and own.kind == "ratio"
                           and d.name == own.denominator and d.agg == "count_distinct"), None)
    numerator = str(own.numerator) if periods_before is not None and own is not None else name
    metric = model.metric_by_name.get(numerator)
    expr = (metric.expr or "").lower().replace(" ", "") if metric is not None else ""
    if metric is None or metric.table is None or not (
            metric.agg in ("count", "sum") or (metric.agg is None and expr.startswith(("count(", "sum(")))):
        return None
    periods = period_count(model, metric.table, grain)
    if periods is None or (periods_before is not None and periods_before.name == periods.name):
        return None
    said = metric.label.lower()
    ratio = Definition(name=f"{numerator}_per_{grain}", label=f"{said} per {grain}", table=metric.table,
                       kind="ratio", numerator=numerator, denominator=periods.name)
    kept = [d for d in intent.definitions if d not in (own, periods_before)] if periods_before is not None \
        else list(intent.definitions)
    swap = {name: ratio.name}
    updated = intent.model_copy(update={
        "metrics": [ratio.name], "definitions": [*kept, periods, ratio],
        "order_by": [o.model_copy(update={"field": swap.get(o.field, o.field)}) for o in intent.order_by],
        "having": []})
    return edited.then(updated, f"{said} per {grain} on average")


def switch_aggregation(edited: Edited, agg: str, model: SemanticModel) -> Edited | None:
    """The same measure aggregated another way ('the median instead'); None when the model has no
    such metric for it (then the person is told, not given another number)."""
    swapped = []
    for name in edited.intent.metrics:
        metric = model.metric_by_name.get(name)
        if agg == "count":  # 'count instead of avg': how many of the measure's rows there are
            counted = model.table_by_name[metric.table].count_metric if metric and metric.table in model.table_by_name \
                else None
            if counted is None:
                return None
            swapped.append(counted)
            continue
        sibling = next((m for m in model.metrics if metric is not None and metric.measure is not None
                        and m.measure == metric.measure and m.agg == agg and not m.filter), None)
        if sibling is None:
            return None
        swapped.append(sibling.name)
    return set_metrics(edited, swapped, model)


def as_percent(edited: Edited, model: SemanticModel, of_each: bool = False) -> Edited | str:
    """'as a %': a share is shown in percent already; a count with the model's rate over it becomes that
    rate ('cancelled flights' -> 'share of flights cancelled'); a count or total by group becomes each
    group's share of the total, or, said 'of each group's rows' (`of_each`), the share of each group's own
    rows that meet the answer's conditions. Else a sentence: what it would be a percentage of is not said."""
    intent = edited.intent
    metric = model.metric_by_name.get(intent.metrics[0]) if len(intent.metrics) == 1 else None
    if metric is None:
        return "I can show one measure at a time as a percentage; say which one."
    if metric.expr in ("ratio", "derived"):
        return edited.then(intent, "in percent (it is a share already)")
    rate = model.rate_of(metric.name)
    if rate is not None:
        return set_metrics(edited, [rate], model)
    conditions = [f for f in intent.filters if f.field not in intent.dimensions and f.op != "not_null"]
    if of_each and intent.dimensions and conditions and _adds_up(metric) and not metric.filter:
        # 'flights that left early' then 'as a % of each airline's flights': each airline's own rate
        share = Contrast(kind="share", metric=metric.name, first=Side(filters=conditions), percent=True)
        label = " and ".join(_label(model, d) for d in intent.dimensions)
        updated = intent.model_copy(update={"metrics": [], "contrast": share, "order_by": [], "limit": None,
                                            "filters": [f for f in intent.filters if f not in conditions]})
        return edited.then(updated, f"as a percentage of each {label}'s own")
    # 'as a % of all flights' after the one carrier's count: its share of them all, not 100% of itself
    fixed = [f for f in intent.filters if f.field in intent.dimensions and f.op == "=" and len(f.values) == 1]
    if fixed and _adds_up(metric) and not metric.filter:
        share = Contrast(kind="share", metric=metric.name, first=Side(filters=fixed), percent=True)
        dims = [d for d in intent.dimensions if all(f.field != d for f in fixed)]
        updated = intent.model_copy(update={
            "metrics": [], "filters": [f for f in intent.filters if f not in fixed], "contrast": share,
            "dimensions": dims, "order_by": [], "limit": None,
            "drop_unknown_groups": intent.drop_unknown_groups and bool(dims)})
        return edited.then(updated, "as a percentage of the total")
    if intent.dimensions and _adds_up(metric) and not metric.filter:
        label = " and ".join(_label(model, d) for d in intent.dimensions)
        return edited.then(intent.model_copy(update={"share_of_total": True}),
                           f"each {label}'s share of the total, in percent")
    kept = [f for f in intent.filters if f.op != "not_null"]
    if not intent.dimensions and _adds_up(metric) and (kept or (intent.time is not None and not intent.time.is_empty())):
        # 'as a % of all planes' after the planes built before 1990: those among all of them
        share = Contrast(kind="share", metric=metric.name, first=Side(filters=kept, time=intent.time), percent=True)
        updated = intent.model_copy(update={"metrics": [], "filters": [f for f in intent.filters if f not in kept],
                                            "time": None, "contrast": share})
        return edited.then(updated, "as a percentage of the total")
    return (f"I can't tell what {metric.label.lower()} should be a percentage of. Say it, for example "
            f"as a share of the total by some grouping.")


def _adds_up(metric: Metric) -> bool:
    """Counts and totals add up over the groups, so each group's share of their total means something;
    averages and counts of different values do not."""
    expr = metric.expr.lower().replace(" ", "")
    if metric.agg is not None:
        return metric.agg in ("count", "sum")
    return expr.startswith("sum") or (expr.startswith("count(") and "distinct" not in expr)


def set_chart(edited: Edited, kind: ChartKind) -> Edited:
    word = {"none": "as a table", "any": "as a chart"}.get(kind, f"as a {kind} chart")
    return Edited(edited.intent, [*edited.changes, word], kind)


def change_between_sides(edited: Edited, falling: bool, percent: bool) -> Edited:
    """'which one grew the most' after two periods side by side: the change between them is what the answer
    shows and ranks now, the later period minus the earlier; said of a fall ('dropped the most'), the earlier
    minus the later, so the biggest fall ranks first. Each period's value stays beside it."""
    contrast = edited.intent.contrast
    if contrast is None or contrast.kind not in ("side_by_side", "difference", "pct_change"):
        return edited
    first, second = contrast.first, contrast.second
    at_first, at_second = first.period(), second.period()
    if at_first is None or at_second is None or at_first == at_second:
        return edited  # two places, not two periods: which way is a movement is not said
    if (at_first < at_second) != falling:
        first, second = second, first
    if contrast.kind != "side_by_side" and (first, second) == (contrast.first, contrast.second) and \
            (contrast.kind == "pct_change") == percent:
        return edited  # the change it shows already
    kind: Literal["difference", "pct_change"] = "pct_change" if percent else "difference"
    changed = contrast.model_copy(update={"kind": kind, "first": first, "second": second})
    order = [o.model_copy(update={"field": contrast_column(changed)}) if o.field == contrast_column(contrast) else o
             for o in edited.intent.order_by]
    word = "% change" if percent else ("fall" if falling else "change")
    return edited.then(edited.intent.model_copy(update={"contrast": changed, "order_by": order}),
                       f"the {word} between the two")

