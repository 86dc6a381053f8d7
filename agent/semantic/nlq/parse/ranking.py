"""Pass: what the answer is ordered by and how many groups it keeps ('top 5 carriers by average
delay', 'the busiest route', 'best first'), and the group a ranking restarts in ('for each carrier')."""

from __future__ import annotations

from agent.semantic.compile.intent import OrderBy
from agent.semantic.nlq.parse.choice import asks_share
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.limits import read_limit_per
from agent.semantic.nlq.parse.measures import rankable, ranked_metric, singular_superlative
from agent.semantic.nlq.parse.state import words_of
from agent.text.phrases import phrase


def ranking_pass(draft: Draft) -> Draft:
    model, state, metrics, grouping = draft.model, draft.state, draft.metrics, draft.dimensions
    rank_mentions, limit = draft.rank_mentions, draft.limit
    if rank_mentions and not grouping:
        said = " ".join(t.text for m in rank_mentions for t in state.tokens[m.start:m.end])
        return draft.stop(f"I could not tell what “{said}” ranks: say what to rank and by which measure "
                          "(for example 'the top 5 … by …').")
    if limit is not None and not grouping:  # 'slowest 3': three of what, the reading does not say
        return draft.stop(f"I could not tell what to keep {limit} of: say which things to rank "
                          f"(for example 'the {limit} … with the highest …').")
    order_by: list[OrderBy] = []
    descending = next((m.of("rank")[0].name == "desc" for m in rank_mentions), True)
    if grouping and (rank_mentions or draft.top):
        ranked = ranked_metric(draft.by_metric, metrics, state, model) or rankable(metrics, draft.having, model)
        polar = rank_mentions and words_of(state, rank_mentions[0]) in {phrase(w) for w in model.shapes.get("polarity", [])}
        counted = not draft.by_metric and not asks_share(draft, model) and (
            model.metric_by_name[ranked].agg in ("count", "count_distinct") or ranked in {t.count_metric for t in model.tables})
        # 'which airline is the best?', 'which dept has the best profs': best by what is not said (how many
        # there are is no quality)
        if polar and (draft.defaulted or counted):
            said = " ".join(t.text for t in state.tokens[rank_mentions[0].start:rank_mentions[0].end])
            example = next((m.label.lower() for m in model.metrics if m.name != ranked), "a measure")
            return draft.stop(f"I could not tell what “{said}” means here: say by which measure "
                              f"(for example “{said} by {example}”).")
        if polar and model.metric_by_name[ranked].higher_is_better:
            descending = not descending  # 'best first' of an on-time share is the highest
        order_by = [OrderBy(field=ranked, descending=descending if rank_mentions else True)]
        if limit is None and (draft.which_singular or singular_superlative(state, rank_mentions, model)):
            limit = 1
        if limit is None and draft.top:
            limit = 5
    elif limit is not None and grouping:
        order_by = [OrderBy(field=metrics[0], descending=True)]
    draft.order_by, draft.limit = order_by, limit
    if order_by and limit is not None:
        draft.limit_per = read_limit_per(state, draft.grouping, grouping)
    if draft.limit_per is not None:  # the group the ranking restarts in comes first
        draft.dimensions = [draft.limit_per] + [d for d in grouping if d != draft.limit_per]
    return draft
