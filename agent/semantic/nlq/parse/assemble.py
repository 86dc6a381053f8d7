"""Pass: the StructuredIntent the earlier passes add up to (definitions the question gave that the
reading uses, metrics, groups, conditions, dates, ranking)."""

from __future__ import annotations

from agent.semantic.compile.intent import StructuredIntent
from agent.semantic.nlq.parse.draft import Draft


def assemble_pass(draft: Draft) -> Draft:
    used = set(draft.metrics) | {f.field for f in draft.filters} | set(draft.dimensions)
    used |= {str(d.denominator) for d in draft.definitions if d.kind == "ratio" and d.name in used}  # what it divides by
    time = draft.time
    draft.intent = StructuredIntent(
        definitions=[d for d in draft.definitions if d.name in used or any(h.metric == d.name for h in draft.having)],
        metrics=draft.metrics, dimensions=list(draft.dimensions), filters=draft.filters,
        time=time if time is not None and not time.is_empty() else None, time_dimension=draft.dated_by,
        having=draft.having, absent=[other for other, _ in draft.absent], order_by=draft.order_by,
        limit=draft.limit if draft.dimensions else None, limit_per=draft.limit_per,
        count_groups=draft.counted_period is not None and len(draft.dimensions) == 1,
    )
    return draft
