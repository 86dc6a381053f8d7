"""Pass: how many groups to keep ('top 5', 'which 3 carriers', 'the 10 routes'), and within what
('top 3 destinations for each carrier': 3 per carrier)."""

from __future__ import annotations

from agent.semantic.nlq.parse.lexicon import Mention
from agent.semantic.nlq.parse.state import WHICH, GroupKey, State, mention_at
from agent.semantic.nlq.parse.draft import Draft

# Cues that put a ranking inside each group: 'top 3 destinations for each carrier', 'the busiest day
# in each month', 'the 2 busiest routes per airport'. 'by' is left out: 'top 5 carriers by month'
# may as well rank carrier-months.
PER_GROUP_CUES = [("each",), ("every",), ("per",), ("for", "each"), ("for", "every"), ("in", "each"),
                  ("in", "every"), ("within", "each"), ("at", "each")]


def read_limit(state: State, periods: frozenset[str] = frozenset()) -> tuple[int | None, bool]:
    """'top 5', 'bottom 3', '5 busiest': how many groups to keep; and whether 'top' was said. `periods`: the words
    of calendar periods ('all 365 days' counts days, which a per-day average divides by: no set of things)."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.low in {"top", "bottom", "first"} and index + 1 < len(tokens):
            nxt = tokens[index + 1]
            if nxt.number is not None and index + 1 not in state.used_tokens:
                state.consume(index + 1)
                return int(nxt.number), token.low == "top"
            if token.low == "top":
                return None, True
        here = mention_at(state, index)
        if here is not None and here.has("rank") and here.end < len(tokens) and here.end not in state.used_tokens \
                and (count := tokens[here.end].number) is not None and float(count).is_integer() and count >= 1:
            state.consume(here.end)  # 'worst 5 airlines', 'highest 3': the ranking word says the order
            return int(count), False
        mention = mention_at(state, index + 1)
        if token.number is not None and index not in state.used_tokens and mention is not None \
                and (mention.has("dimension") or mention.has("entity")) and tokens[index + 1].low not in periods \
                and _the_whole_set(state, index):
            state.consume(index)  # 'each of the 3 nyc airports', 'all 3 airports': how many there are, no top 3
            continue
        if token.number is not None and index not in state.used_tokens and mention is not None \
                and (mention.has("dimension") or mention.has("entity")) and index > 0 and tokens[index - 1].low in WHICH:
            state.consume(index)  # "which 3 carriers ..."
            return int(token.number), False
        if token.number is not None and index not in state.used_tokens and mention is not None \
                and mention.has("dimension") and (index == 0 or tokens[index - 1].low in {"the", "show", "list", "me"}) \
                and tokens[mention.end - 1].low.endswith("s"):
            state.consume(index)  # "5 tail numbers that ...", "show the 10 routes ..."
            return int(token.number), False
        if token.number is not None and index not in state.used_tokens and mention is not None \
                and mention.has("rank") and (index == 0 or tokens[index - 1].low in {"the", "show", "list"}):
            state.consume(index)
            return int(token.number), False
        ranked = _ranked_after(state, index + 1)
        if token.number is not None and float(token.number).is_integer() and index not in state.used_tokens \
                and ranked is not None and (ranked.has("entity") or ranked.has("dimension")) \
                and tokens[ranked.end - 1].low.endswith("s"):
            state.consume(index)  # 'our 5 best-selling pizzas', 'the 3 most popular routes'
            return int(token.number), False
    return None, False


_WHOLE_SET = [("each", "of", "the"), ("all", "of", "the"), ("every", "one", "of", "the"), ("all", "the"), ("all",)]


def _the_whole_set(state: State, index: int) -> bool:
    """A number said after 'each of the', 'all (of) the': it counts the things named, every one of them."""
    return any(state.words_before(index, len(words)) == words for words in _WHOLE_SET)


def _ranked_after(state: State, index: int) -> Mention | None:
    """The things ranking words come before ('5 best-selling pizzas' -> pizzas); None without ranking words."""
    mention = mention_at(state, index)
    if mention is None or not mention.has("rank"):
        return None
    while mention is not None and mention.has("rank"):
        mention = mention_at(state, mention.end)
    return mention


def read_limit_per(state: State, mentions: dict[GroupKey, Mention | None], dimensions: list[str]) -> str | None:
    """With a ranking over two or more groupings, the one said after 'each' / 'per' is what the
    ranking restarts in; None when no single grouping is so marked (then the ranking is overall)."""
    if len(dimensions) < 2:
        return None
    marked = [d for d in dimensions if (m := mentions.get(d)) is not None
              and state.cue_before(m.start, PER_GROUP_CUES) is not None]
    return marked[0] if len(marked) == 1 else None


def limits_pass(draft: Draft) -> Draft:
    periods = frozenset(form for forms in draft.model.relative_grains.values() for form in forms)
    draft.limit, draft.top = read_limit(draft.state, periods)
    return draft
