"""Pass: a superlative said of a thing ('the priciest pizza', 'the oldest bakers', 'the longest movie'):
which thing ranks first by the measure the adjective names, so the answer is grouped by what names
each thing (its name, title or key) and ranked; one thing when the noun is singular. A superlative
that names no measure ('our best employees') is left for the ranking pass to ask about."""

from __future__ import annotations

from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.groupings import name_of
from agent.semantic.nlq.parse.state import mention_at, plural, words_of
from agent.text.phrases import phrase


def superlatives_pass(draft: Draft) -> Draft:
    state, model = draft.state, draft.model
    implied = {phrase(w): m for w, m in model.ranking.implies_measure.items()}
    for rank in state.mentions:
        measure = implied.get(words_of(state, rank)) if rank.has("rank") and not rank.used else None
        thing = mention_at(state, rank.end)
        if measure is None or thing is None or not thing.has("entity") or thing.has("dimension"):
            continue
        grouped_already = any(said is thing for said in draft.grouping.values())  # 'the 2 newest movies'
        if thing.used and not grouped_already:
            continue
        nxt = mention_at(state, thing.end)
        if nxt is not None and nxt.start == thing.end and any(
                model.dimension_by_name[e.name].kind == "numeric" for e in nxt.of("dimension")):
            continue  # 'the longest flight distance': the measure itself is named
        table = thing.of("entity")[0].name
        name = name_of(table, model)
        on_rows = any(s.table == table for s in model.dimension_by_name[measure].sources)
        # 'the highest rated movie': the ratings point at the movies, so each movie's ratings rank it
        if name is None or not (on_rows or model.reaches_back(measure, table)):
            continue
        # 'the highest rated movie in each genre': the movies rank within each genre's group
        draft.grouping = {name: thing, **draft.grouping}
        draft.kept.add(name)
        thing.used = True
        draft.which_singular = not plural(state, thing)
        break
    return draft
