"""What a table's comment calls its rows, beside the table's own name: 'Depots, also called hubs' (hub),
'Lanes (routes) we run' (route), 'Shipments, a.k.a. loads' (load), 'Suppliers we buy from' on a table named
`vendors` (supplier). A data team's description says how its people speak, so the reader takes these words as
names of the rows, as it takes the table's name.

Read from the comment's leading noun phrase (its last two words, the last in the plural: 'Keg deliveries, one
row per …' gives 'keg delivery'), from a parenthesis right after it ('Distribution centres (warehouses)'), from
'one row per …', and from 'also called', 'also known as', 'a.k.a.'. Words naming no thing in particular
('records', 'rows': vocabulary.yaml `row_name_generic`) and the bootstrap's placeholder comment name nothing.
"""

from __future__ import annotations

import re
from functools import cache

from agent.text.phrases import STOPWORDS
from agent.text.vocabulary import english
from agent.text.words import lemma, lemmas

PLACEHOLDER = "Bootstrapped from {}."
_PLACEHOLDER = re.compile(r"^Bootstrapped from \S+\.$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*|[^\sA-Za-z]")
_ALSO = re.compile(r"\b(?:also called|also known as|a\.k\.a\.?|aka)\s+([A-Za-z][A-Za-z -]*)", re.I)
_DETERMINERS = frozenset({"our", "the", "a", "an", "all", "each", "every", "any"})


def placeholder_description(table: str) -> str:
    """The comment a bootstrapped table gets when the warehouse has none: no words of the data team's."""
    return PLACEHOLDER.format(table)


@cache
def _generic() -> frozenset[str]:
    return frozenset(str(w) for w in english().get("row_name_generic") or [])


def row_names(description: str) -> list[str]:
    """The names the comment gives the rows, in the singular, most telling first."""
    if not description.strip() or _PLACEHOLDER.match(description.strip()):
        return []
    words = _WORD.findall(description)
    low = [w.lower() for w in words]
    start = 0
    if low[:3] == ["one", "row", "per"]:  # 'One row per club (gym location)': the thing after 'per'
        start = 3
    while start < len(low) and low[start] in _DETERMINERS:
        start += 1
    end = start
    while end < len(low) and words[end][0].isalpha() and low[end] not in STOPWORDS and end - start < 4 \
            and not (end > start and _describes_the_noun_before(low[end - 1], low[end])):
        end += 1
    names: list[str] = []
    if start == 3 and end < len(low) and low[end] == "and":
        return []  # 'one row per user and movie': a row is a pair, named by neither
    phrase = low[max(start, end - 2):end]
    head = _singular(phrase[-1]) if phrase else None
    if head is not None and (head != phrase[-1] or start == 3) and head not in _generic():
        names.append(" ".join([*phrase[:-1], head]))
    if end < len(low) and low[end] == "(":
        close = low.index(")", end) if ")" in low[end:] else len(low)
        inside = " ".join(low[end + 1:close])
        items = re.split(r"\s*[/,]\s*|\s+or\s+", inside)
        if len(items) <= 2:  # 'aircraft (manufacturer, model, engines, seats)' lists what a row holds
            names += [n for item in items if (n := _name(item))]
    names += [n for m in _ALSO.finditer(description) if (n := _name(re.split(r"\s*[,;:.()]\s*", m.group(1))[0]))]
    return list(dict.fromkeys(names))


def _name(item: str) -> str | None:
    """A short noun phrase in the singular ('gift shops' -> 'gift shop'), or None for anything longer or odd."""
    parts = item.lower().split()
    while parts and parts[0] in _DETERMINERS:
        parts = parts[1:]
    if not 1 <= len(parts) <= 2 or not all(p.isalpha() for p in parts) or any(p in STOPWORDS for p in parts):
        return None
    head = _singular(parts[-1])
    return None if head is None or head in _generic() else " ".join([*parts[:-1], head])


def _describes_the_noun_before(before: str, word: str) -> bool:
    """'Accounts receiving kegs', 'Orders placed online': a verb's -ing or -ed form after a noun in the plural
    starts what is said of the rows; the rows' name ends before it (they are accounts, not 'receiving kegs')."""
    return before.isalpha() and word.endswith(("ing", "ed")) and "VERB" in lemmas(word) \
        and _singular(before) not in (None, before)


def _singular(word: str) -> str | None:
    forms = lemma(word, "NOUN")
    return forms[0] if forms else None
