"""Pass: conditions on part of a text value ('type ends in BRASS', 'name starts with Smith',
'comment containing "urgent"'), for values too many to list: a LIKE filter on the dimension
named right before the pattern word."""

from __future__ import annotations

from agent.semantic.compile.intent import Filter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.state import State, consume_with_mentions, mention_at, phrased
from agent.semantic.nlq.parse.draft import Draft


def read_patterns(state: State, model: SemanticModel) -> tuple[list[Filter], list[str]]:
    """Filters, and the pattern phrases whose dimension could not be told (never dropped)."""
    cues = sorted(((said, op) for op, texts in model.text_patterns.items() for said in phrased(texts)),
                  key=lambda item: -len(item[0]))
    words = [t.low for t in state.tokens]
    filters: list[Filter] = []
    unresolved: list[str] = []
    for i in range(len(words)):
        for cue, op in cues:
            end = i + len(cue)
            if tuple(words[i:end]) != cue or end >= len(words) or i in state.used_tokens:
                continue
            value = state.tokens[end].text.strip("'\"")
            dimension = _dimension_before(state, i, model)
            said = mention_at(state, end)
            if dimension is None and said is not None and said.start == end and said.has("value"):
                state.consume(*range(i, end))  # 'contain mushrooms': a value the values pass places
                break
            if dimension is None:
                unresolved.append(" ".join(t.text for t in state.tokens[i:end + 1]))
                break
            filters.append(Filter(field=dimension, op=op, values=[value]))
            state.positions[(dimension, op, (value,))] = i
            same = [k for k, t in enumerate(state.tokens) if t.text == state.tokens[end].text]
            consume_with_mentions(state, [*range(i, end + 1), *same])  # 'BRASS parts (type ends in BRASS)'
            mention = mention_at(state, i - 1)
            if mention is not None:
                mention.used = True
            break
    return filters, unresolved


def _dimension_before(state: State, index: int, model: SemanticModel) -> str | None:
    """The text dimension named just before the pattern word ('type ends in', 'whose name starts with')."""
    mention = mention_at(state, index - 1)
    if mention is None:
        return None
    dims = [e.name for e in mention.of("dimension") if model.dimension_by_name[e.name].kind == "categorical"]
    if len(dims) > 1:  # 'parts whose name starts with': the name of the thing named
        named = {e.name for m in state.mentions for e in m.of("entity")}
        dims = [d for d in dims if {s.table for s in model.dimension_by_name[d].sources} & named]
    return dims[0] if len(dims) == 1 else None


def patterns_pass(draft: Draft) -> Draft:
    patterned, unplaced = read_patterns(draft.state, draft.model)
    draft.filters += patterned
    draft.unresolved += unplaced
    return draft
