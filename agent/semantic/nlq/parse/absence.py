"""Pass: things said to be missing ('customers who never placed an order', 'parts with no
suppliers', 'carriers without flights'): the table whose rows must not point at the counted
rows. Whether they can point there is checked once the measured table is known."""

from __future__ import annotations

from agent.semantic.nlq.parse.state import State, consume_with_mentions, mention_at
from agent.semantic.nlq.parse.draft import Draft
from agent.text.words import lemmas

_ABSENCE = [("never",), ("no",), ("without",), ("not", "any"), ("zero",)]
_FILLER = {"a", "an", "any", "placed", "made", "had", "have", "has", "received", "got", "been", "ever", "single",
           "one", "did", "do", "does", "not"}


def read_absence(state: State) -> list[tuple[str, str]]:
    """(table, words said) for each thing said to be missing."""
    found: list[tuple[str, str]] = []
    words = [t.low for t in state.tokens]
    for index in range(len(words)):
        cue = next((c for c in _ABSENCE if tuple(words[index:index + len(c)]) == c), None)
        if cue is None or index in state.used_tokens:
            continue
        j = index + len(cue)
        # 'never took an order', 'never actually left a review': the verb and adverbs between say how rows come to be
        while j < len(words) and mention_at(state, j) is None and (words[j] in _FILLER or _verb_or_adverb(words[j])):
            j += 1
        mention = mention_at(state, j)
        if mention is None or mention.start != j or mention.used or not mention.has("entity"):
            continue
        table = mention.of("entity")[0].name
        consume_with_mentions(state, list(range(index, mention.end)))
        found.append((table, " ".join(t.text for t in state.tokens[index:mention.end])))
    return found


def _verb_or_adverb(word: str) -> bool:
    """A verb's or an adverb's form that is no noun as said ('took', 'left', 'given', 'actually'; not 'order')."""
    forms = lemmas(word) if word.isalpha() else {}
    inflected_verb = word not in forms.get("VERB", (word,))  # 'left' is leave's, whatever else it is
    return ("VERB" in forms or "ADV" in forms) and ("NOUN" not in forms or inflected_verb)


def absence_pass(draft: Draft) -> Draft:
    draft.absent = read_absence(draft.state)
    return draft
