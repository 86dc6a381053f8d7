"""Pass: 'how many reps do we have right now': where the counted rows carry one yes/no column for being so at
present (a column whose comment says 'NULL = still employed'), the words that say 'as things stand today'
(vocabulary.yaml `shapes.present_said`) keep only those rows, and the reading says so. With no such column, or
several, the words stay unread and the reader asks about them, as before: never a condition dropped in silence."""

from __future__ import annotations

from agent.semantic.compile.filters import Filter
from agent.semantic.compile.intent import validate_intent
from agent.semantic.nlq.parse.draft import Draft


def present_pass(draft: Draft) -> Draft:
    assert draft.intent is not None
    state, model = draft.state, draft.model
    low = [t.low for t in state.tokens]
    said = [(i, len(p)) for p in (model.phrases[w] for w in model.shapes.get("present_said", []))
            for i in range(len(low) - len(p) + 1) if tuple(low[i:i + len(p)]) == p
            and not any(j in state.used_tokens for j in range(i, i + len(p)))]
    marks = set(model.shapes.get("present_marks", []))
    if not said or not marks:
        return draft
    tables = {m.table for name in draft.intent.all_metrics() if (m := model.metric_by_name.get(name)) and m.table}
    conditioned = {f.field for f in draft.intent.filters}
    present = [d.name for d in model.dimensions if d.kind == "flag"
               and any(s.table in tables and s.join is None for s in d.sources)
               and marks & set(f"{d.label} {d.description}".lower().replace(";", " ").split())]
    if len(present) != 1:
        return draft
    if present[0] not in conditioned:
        kept = draft.intent.model_copy(update={"filters": [*draft.intent.filters,
                                                           Filter(field=present[0], op="=", values=[True])]})
        if validate_intent(kept, model):
            return draft
        draft.intent = kept
    for start, length in said:
        state.consume(*range(start, start + length))
    return draft
