"""Pass: a thing named by its number ('ratings by user 15', 'the series 7 final', 'order 1042'): an
equality filter on the column that numbers those things. The column is a key, or its label ends with a
numbering word (vocabulary `shapes.numbering`: 'user id', 'series number'); the number follows the
word at once, so 'top 5 users' or 'users in 2015' are not read so. A number the column does not hold
(where its values were read) is said to be missing, never filtered to an empty answer."""

from __future__ import annotations

from agent.semantic.compile.intent import Filter
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse.draft import Draft
from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import State, UnknownValue, consume_with_mentions, mention_text
from agent.semantic.model.values import ValueIndex


def read_numbered(state: State, model: SemanticModel, values: ValueIndex) -> tuple[list[Filter], list[UnknownValue]]:
    filters: list[Filter] = []
    missing: list[UnknownValue] = []
    for mention in state.mentions:
        if mention.used or mention.end >= len(state.tokens):
            continue
        number = state.tokens[mention.end].number
        if number is None or not float(number).is_integer() or mention.end in state.used_tokens:
            continue
        column = _numbering_column(mention, model)
        if column is None:
            continue
        value = int(number)
        held = values.values.get(column)
        if held and str(value) not in held:
            missing.append(UnknownValue(text=f"{mention_text(state, mention)} {value}", dimension=column,
                                        suggestions=values.suggest(column, str(value))))
        else:  # compared as the column keeps it: text where its values were read as text
            kept = str(value) if held else value
            filters.append(Filter(field=column, op="=", values=[kept]))
            state.positions[(column, "=", (kept,))] = mention.start
        consume_with_mentions(state, list(range(mention.start, mention.end + 1)))
    return filters, missing


def _numbering_column(mention: Mention, model: SemanticModel) -> str | None:
    """The one column that numbers what the mention names: a dimension said, else the key of a table said."""
    words = {w for text in model.shapes.get("numbering", []) for w in text.split()}
    named = [e.name for e in mention.of("dimension")]
    numbering = [d for d in named if model.dimension_by_name[d].identifier
                 or model.dimension_by_name[d].label.lower().split()[-1:] in ([w] for w in words)]
    if not named:
        for entry in mention.of("entity"):
            numbering += [d.name for d in model.dimensions if d.identifier and any(
                s.table == entry.name and s.join is None for s in d.sources)]
    numbering = list(dict.fromkeys(numbering))
    return numbering[0] if len(numbering) == 1 else None


def numbered_pass(draft: Draft) -> Draft:
    found, missing = read_numbered(draft.state, draft.model, draft.values)
    draft.filters += found
    draft.unknown += missing
    return draft
