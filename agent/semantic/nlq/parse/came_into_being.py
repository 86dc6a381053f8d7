"""Pass: 'how many new riders signed up in 2024', 'new leads in dec', 'member sign-ups per quarter': words that say
things came into being (vocabulary.yaml `shapes.came_into_being`) are what the counted things' own date already
says, when that date is the one they began on (its label has a word of `shapes.beginning_dates`: created, signed
up, joined, onboarded, ...) and the question counts them within a period or by one. They are read, and nothing
is added to the reading; anywhere else they stay unread and the reader asks about them, as before."""

from __future__ import annotations

from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft


def came_into_being_pass(draft: Draft) -> Draft:
    assert draft.intent is not None
    state, model, intent = draft.state, draft.model, draft.intent
    low = [t.low for t in state.tokens]
    said = [(i, len(p)) for p in {model.phrases[w] for w in model.shapes.get("came_into_being", [])}
            for i in range(len(low) - len(p) + 1) if tuple(low[i:i + len(p)]) == p
            and not any(j in state.used_tokens for j in range(i, i + len(p)))]
    if not said or intent.contrast is not None or not intent.metrics:
        return draft
    in_a_period = (intent.time is not None and not intent.time.is_empty()) or any(
        model.time_grain(d) is not None for d in intent.dimensions)
    began = {_beginning_of(m, model) for m in intent.metrics}
    if not in_a_period or None in began or len(began) != 1 or intent.time_dimension not in (None, *began):
        return draft  # 'joined in 2024' may have named the date already ('dated by joined on'): the same day
    for start, length in said:
        state.consume(*range(start, start + length))
    return draft


def _beginning_of(name: str, model: SemanticModel) -> str | None:
    """The date the metric's rows are counted by, when the metric counts rows of a table dated by the day each
    began ('signed up at', 'created date'); else None."""
    metric = model.metric_by_name.get(name)
    spec = model.table_by_name.get(metric.table) if metric is not None else None
    if metric is None or spec is None or metric.filter or not (metric.agg == "count" or spec.count_metric == name):
        return None
    source = model.dated_by(metric.table)
    dimension = next((d for d in model.dimensions if source is not None and source in d.sources), None)
    if dimension is None:
        return None
    beginnings = {w for said in model.shapes.get("beginning_dates", []) for w in said.split()}
    words = dimension.label.lower().split()
    # a name split one word too far ('onBoardedOn' read as 'on boarded on') still says 'onboarded'
    return dimension.name if beginnings & {*words, *(a + b for a, b in zip(words, words[1:]))} else None
