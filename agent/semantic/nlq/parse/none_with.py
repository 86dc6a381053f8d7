"""Pass: things none of whose rows meet a condition ('users who have never given a 5-star rating', 'which
departments have no employees with a doctorate'): the rows' count, filtered by the condition the earlier
passes read after the cue, must be 0 for each thing (HAVING), where a plain filter would count the rows
that do meet it. The cue words are vocabulary data (shapes `none_with`); the filtered count is a
definition like any other (a MetricFlow filter on the count's measure), so the SQL says what was read."""

from __future__ import annotations

from agent.semantic.compile.definitions import Definition, with_definitions
from agent.semantic.compile.intent import Filter, MetricFilter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import State, consume_with_mentions, covered, mention_at, phrased
from agent.semantic.compile.reading import filter_words
from agent.text.words import plural_phrase


def none_with_pass(draft: Draft) -> Draft:
    state, model = draft.state, draft.model
    cues = sorted(phrased(model.shapes.get("none_with", [])), key=len, reverse=True)
    words = [t.low for t in state.tokens]
    for index in range(len(words)):
        cue = next((c for c in cues if tuple(words[index:index + len(c)]) == c), None)
        if cue is None or index in state.used_tokens:
            continue
        after = index + len(cue)
        conditions = [f for f in draft.filters if _said_at(f, state) >= after]
        if not conditions:
            continue
        rows = _rows_named(state, after, min(_said_at(f, state) for f in conditions), model)
        table = rows.of("entity")[0].name if rows is not None else _only_table(conditions, model)
        things = _things_before(state, index, model)
        if table is None or things is None or table in {e.name for e in things.of("entity")}:
            continue
        if not all(any(s.table == table for s in model.dimension_by_name[f.field].sources) for f in conditions):
            continue
        read = covered(state)
        end = max(_said_at(f, state) for f in conditions) + 1
        while end < len(words) and end in read:  # the condition's own words ('5-star rating')
            end += 1
        end = max(end, rows.end if rows is not None else 0)
        name = f"__none_with_{len(draft.definitions)}"
        spec = model.table_by_name[table]
        rows_said = plural_phrase(spec.entity_words[0]) if spec.entity_words else table
        said = f"{rows_said} where " + " and ".join(filter_words(f, model) for f in conditions)
        definition = Definition(name=name, label=said, table=table, kind="filtered", where=conditions)
        draft.definitions.append(definition)
        draft.model = with_definitions(model, [definition])
        draft.filters = [f for f in draft.filters if f not in conditions]
        draft.having.append(MetricFilter(metric=name, op="=", value=0))
        consume_with_mentions(state, list(range(index, end)))  # the verb between too ('never given a …')
        return draft
    return draft


def _said_at(flt: Filter, state: State) -> int:
    """Where a filter was said (-1 when the passes did not note it)."""
    if flt.op in ("=", "in"):
        found = [state.positions.get((flt.field, str(v)), -1) for v in flt.values]
        if max(found, default=-1) >= 0:
            return max(found)
    return state.positions.get((flt.field, flt.op, tuple(flt.values)), -1)


def _rows_named(state: State, start: int, stop: int, model: SemanticModel) -> Mention | None:
    """The rows said between the cue and the condition ('no employees with a doctorate')."""
    for k in range(start, stop):
        mention = mention_at(state, k)
        if mention is not None and mention.start == k and mention.has("entity") and not mention.used:
            return mention
    return None


def _only_table(conditions: list[Filter], model: SemanticModel) -> str | None:
    """The one table every condition's dimension is a column of ('a 5-star rating': the ratings)."""
    tables = [{s.table for s in model.dimension_by_name[f.field].sources if s.join is None} for f in conditions]
    common = set.intersection(*tables) if tables else set()
    return next(iter(common)) if len(common) == 1 else None


def _things_before(state: State, index: int, model: SemanticModel) -> Mention | None:
    """The things the rows are missing for: the nearest thing named before the cue (a table's rows, a kind
    of them, or a column's values: 'users' on a table of ratings)."""
    for k in range(index - 1, -1, -1):
        mention = mention_at(state, k)
        if mention is None or mention.start != k:
            continue
        if mention.has("entity") or mention.has("flag") or any(
                model.dimension_by_name[e.name].kind == "categorical" for e in mention.of("dimension")):
            return mention  # 'series winners' (a flag): the rows it is said of
    return None
