"""Pass: a superlative said of a thing ('the priciest pizza', 'the oldest bakers', 'the longest movie'):
which thing ranks first by the measure the adjective names, so the answer is grouped by what names
each thing (its name, title or key) and ranked; one thing when the noun is singular. A superlative
that names no measure ('our best employees') is left for the ranking pass to ask about."""

from __future__ import annotations

from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.groupings import name_of
from agent.semantic.nlq.parse.state import mention_at, phrased, plural, words_of


def superlatives_pass(draft: Draft) -> Draft:
    state, model = draft.state, draft.model
    implied = dict(zip(phrased(model.ranking.implies_measure), model.ranking.implies_measure.values()))
    busy = {model.phrases[w] for w in model.ranking.busy}
    for rank in state.mentions:
        measure = implied.get(words_of(state, rank)) if rank.has("rank") and not rank.used else None
        thing = mention_at(state, rank.end)
        if rank.has("rank") and words_of(state, rank) in busy and thing is not None and thing.has("entity") \
                and not thing.used and (count := _events_of(thing.of("entity")[0].name, model)) is not None:
            name = name_of(thing.of("entity")[0].name, model)
            if name is not None:  # 'the busiest doctor': doctors ranked by their appointments
                draft.grouping = {name: thing, **draft.grouping}
                draft.kept.add(name)
                draft.metric_choices.append([count])
                thing.used = True
                draft.which_singular = not plural(state, thing)
                break
        if measure is None or thing is None or not thing.has("entity") or not all(
                _names_the_thing(e.name, thing.of("entity")[0].name, model) for e in thing.of("dimension")):
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


def _names_the_thing(dimension: str, table: str, model: SemanticModel) -> bool:
    """'plane' in 'the oldest plane' also names the tail number, the column that names each plane: the word is
    the thing, not a grouping of its own."""
    name = name_of(table, model)
    if name is None:
        return False
    own = {s.expr for s in model.dimension_by_name[name].sources if s.table == table}
    return any(s.table == table and s.join is None and s.expr in own for s in model.dimension_by_name[dimension].sources)


def _events_of(table: str, model: SemanticModel) -> str | None:
    """The row count of the one dated table whose rows point at `table`'s things (a doctor's appointments),
    or of the one table that does when none is dated; None when there is no such table or several."""
    pointing = [j.from_table for j in model.joins if j.to_table == table and j.from_table != table]
    counted = [(t, c) for t in dict.fromkeys(pointing) if (c := model.table_by_name[t].count_metric)]
    dated = [(t, c) for t, c in counted if model.table_by_name[t].agg_time or model.table_by_name[t].time]
    chosen = dated if dated else counted
    return chosen[0][1] if len(chosen) == 1 else None
