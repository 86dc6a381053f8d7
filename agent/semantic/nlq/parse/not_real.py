"""Pass: rows the warehouse itself marks as no real business (a yes/no column such as 'is test': test and
sandbox accounts, training logins; a date such as 'deleted at' that is set on rows taken away) are left out,
as an analyst leaves them out, and the reading says so. A yes/no column is such a mark when a word of its
label is one of vocabulary.yaml `shapes.not_real_rows`, a date column when one is of `shapes.deleted_rows`; the mark
may sit on the counted rows or on a thing they belong to ('listings of a test agent'). A question that
names those rows itself ('how many test accounts') is read as asked. A row with no such thing at all (a
closing with no listing agent) is no test either, and stays."""

from __future__ import annotations

from agent.semantic.compile.filters import Filter
from agent.semantic.compile.intent import validate_intent
from agent.semantic.model.runtime import Dimension
from agent.semantic.nlq.parse.draft import Draft
from agent.text.words import noun_forms


def not_real_pass(draft: Draft) -> Draft:
    assert draft.intent is not None
    said: set[str] | None = None  # the question's words in every noun form, read for the first marking column
    for kind, shape, gone in (("flag", "not_real_rows", Filter(field="", op="!=", values=[True])),
                              ("time", "deleted_rows", Filter(field="", op="is_null"))):
        marks = set(draft.model.shapes.get(shape, []))
        columns = [dim for dim in draft.model.dimensions if dim.kind == kind and marks & set(dim.label.lower().split())]
        if not columns:
            continue
        if said is None:
            said = {form for t in draft.tokens for form in {t.low, *noun_forms(t.low)}}
        if not marks & said:  # 'how many test accounts', 'deleted leads': read as asked
            _leave_out(draft, columns, gone)
    return draft


def _leave_out(draft: Draft, marks: list[Dimension], gone: Filter) -> None:
    assert draft.intent is not None
    conditioned = {f.field for f in draft.intent.filters}
    tables = {m.table for name in draft.intent.all_metrics() if (m := draft.model.metric_by_name.get(name)) and m.table}
    for dim in marks:
        if dim.name in conditioned:
            continue
        if not tables or any(draft.model.resolve(dim.name, t) is None for t in tables):
            continue  # test lines of a store are no mark on the store: only its own, or what its rows belong to
        kept = draft.intent.model_copy(update={"filters": [*draft.intent.filters, gone.model_copy(update={"field": dim.name})]})
        if not validate_intent(kept, draft.model):  # only a mark the counted rows reach
            draft.intent = kept
