"""Words a warehouse's own descriptions and plain business English give its elements, beyond their names.

Three general sources, each recorded with why, so `python -m agent catalog words WORD` can say what a
word may mean and where that came from:

- descriptions: a word put in parentheses after a word of the element's own label is another name
  for it ('series (season) of the show' on a series number: 'season'; 'monthly income (salary)':
  'salary', 'monthly salary'); the same in a table's description for what its rows are
  ('One row per order (ticket)': 'ticket');
- the thesaurus (thesaurus.yaml `synonyms:`): a group joins an element when one of its words is the
  element's own (what a table's rows are called, a column label or its last word); the group's
  other words then name the element too ('staff', 'people' for an employees table);
- measure words (thesaurus.yaml `measure_adjectives:`, `measure_verbs:`): 'priciest' ranks by a price
  from the top, 'cheapest' from the bottom, 'earns' is an income, 'sold' a quantity.

Everything here is weaker than an element's own names: the lexicon keeps an element's own name over a
related word said in the same place, and a related word two elements share is left out (it would be a
guess between them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from agent.text.words import (
    all_inflections, frequency, inflection, inflections, is_common, is_english, lemmas, noun_forms,
)

# 'series (season)', 'monthly income (salary), USD': an aside of one to four plain words
_ASIDE = re.compile(r"(?P<before>[A-Za-z][\w\- ]*?)\s*\((?P<alias>[A-Za-z][A-Za-z\- ]{1,40})\)")


def ground(tables: list[dict[str, Any]], dimensions: dict[str, dict[str, Any]], thesaurus: dict[str, Any]) -> None:
    """Add `related` words (word -> why) to the view's tables and dimensions, and the ranking words
    measure adjectives give to `thesaurus['_ranking']` (filled here for the view to read)."""
    candidates: dict[str, list[tuple[str, str, str]]] = {}  # word -> [(kind, element name, why)]

    def offer(kind: str, name: str, word: str, why: str) -> None:
        word = " ".join(word.lower().split())
        if word:
            candidates.setdefault(word, []).append((kind, name, why))

    groups = [[" ".join(w.lower().split()) for w in group] for group in thesaurus.get("synonyms") or []]
    phrasings = [[" ".join(w.lower().split()) for w in group] for group in thesaurus.get("phrasings") or []]
    events = {noun: verb for noun, verb in (thesaurus.get("event_nouns") or {}).items()}
    for table in tables:
        for own in table["entity_words"]:
            verb = next((events[form] for form in noun_forms(own.split()[-1]) if form in events), None)
            for form in _verb_forms(verb) if verb else []:
                offer("table", table["name"], form, f"thesaurus: to {verb} is what a {own} records")
            for alias in _asides_after(table.get("description") or "", own, thesaurus, of_rows=True):
                offer("table", table["name"], alias, f"the table's description: “{_short(table['description'])}”")
            for word, group in _thesaurus_words(own, groups):
                offer("table", table["name"], word, f"thesaurus: {', '.join(group)}")
            if len(own.split()) > 1:  # 'tickets' for support tickets, 'items' for order items
                for form in noun_forms(own.split()[-1]):
                    offer("table", table["name"], form, f"{_LAST_NAME_WORD}, “{own}”")
        for said in _rows_described(table.get("description") or ""):  # 'One row per customer company'
            verb = next((events[form] for form in noun_forms(said.split()[-1]) if form in events), None)
            for form in _verb_forms(verb) if verb else []:  # 'one row per stream': what was streamed
                offer("table", table["name"], form, f"thesaurus: to {verb} is what a {said} records")
            for phrase in {said, *(w for w in (said.split()[0], said.split()[-1]) if "NOUN" in lemmas(w))}:
                for form in noun_forms(phrase.split()[-1]):
                    word = " ".join([*phrase.split()[:-1], form])
                    offer("table", table["name"], word, f"the table's description: “{_short(table['description'])}”")
    for word, table_name in _people_words(tables, dimensions, thesaurus):
        offer("table", table_name, word, ONLY_PEOPLE)
    for dim in dimensions.values():
        label = dim["label"].lower()
        words = label.split()
        if dim.get("kind") == "categorical" and len(words) > 1 and words[-1] in (thesaurus.get("id_suffixes") or []):
            for inflected in inflections(tuple(words[:-1])):  # 'user id' with no users table: 'users' are its values
                offer("dimension", dim["name"], " ".join(inflected), f"its name: the {' '.join(words[:-1])} it identifies")
        if dim.get("kind") == "flag":
            if len(words) > 1 and words[0] in (thesaurus.get("flag_prefixes") or []):
                for inflected in inflections(tuple(words[1:])):  # 'is series winner': the series winners
                    offer("flag", dim["name"], " ".join(inflected), f"its name: the rows that are {' '.join(words[1:])}")
            for word in _flag_phrases(dim.get("description") or ""):
                offer("flag", dim["name"], word, f"its description: “{_short(dim['description'])}”")
        for alias in _asides_after(dim.get("description") or "", label, thesaurus):
            offer("dimension", dim["name"], alias, f"its description: “{_short(dim['description'])}”")
            head = label.split()[-1]
            if head in alias.split() or len(label.split()) < 2:
                continue
            offer("dimension", dim["name"], " ".join(label.split()[:-1] + [alias]), "its description, with its label")
        for word, group in _thesaurus_words(label, groups):
            offer("dimension", dim["name"], word, f"thesaurus: {', '.join(group)}")
        if dim.get("kind") == "time" and (phrasal := _phrasal_verb(words[0])):  # 'signup date': signed up
            for form in _verb_forms(phrasal):
                offer("dimension", dim["name"], form, f"its name: “{words[0]}” is to {phrasal}")
        for said in dim.get("synonyms") or []:  # 'arrived late' said also 'landed late', 'arrived tardy'
            for word, group in _words_swapped(" ".join(said.lower().split()), phrasings):
                offer("dimension", dim["name"], word, f"thesaurus: {', '.join(group)}, in “{said}”")
        for word, rows in _money_in(dim, label, tables, thesaurus):
            offer("dimension", dim["name"], word, f"thesaurus: the amount of {rows} is money in")
    own_words = _own_words(tables, dimensions)
    kinds = set(thesaurus.get("kind_suffixes") or [])
    # the word a label is about, except the word before a kind ('visit type': visits are the rows, not the column)
    heads = {form for d in dimensions.values() if not d.get("identifier") and not _names_kinds(d["label"], kinds)
             for form in noun_forms(effective_head(d["label"].lower().split()))}
    for word, why, name in _distinctive_words(dimensions, own_words, kinds):
        offer("dimension", name, word, why)
    shared = dict(_shared_heads(dimensions, own_words, kinds))
    for word, names in shared.items():
        for name in names:
            offer("dimension", name, word, f"{_SHARED_HEAD} ({', '.join(dimensions[n]['label'] for n in names)})")
    for word, offers in candidates.items():
        elements = {(kind, name) for kind, name, _ in offers}
        if len(elements) > 1:  # the word a label is about outweighs a thesaurus's or a description's guess
            from_labels = [offer for offer in offers if offer[2].startswith(_LABEL_WORD)]
            described = [offer for offer in offers if offer[2].startswith(_DESCRIPTION)]
            # a table whose own name ends in the word ('customer account': accounts) outweighs a thesaurus's guess
            last_words = [offer for offer in offers if offer[2].startswith(_LAST_NAME_WORD)]
            if len({(kind, name) for kind, name, _ in from_labels}) == 1 and not described:
                offers, elements = from_labels, {from_labels[0][:2]}
            elif not from_labels and len({name for _, name, _ in last_words}) == 1 \
                    and all(why.startswith(("thesaurus", _LAST_NAME_WORD)) for *_, why in offers):
                offers, elements = last_words, {last_words[0][:2]}
            elif len(money := [o for o in offers if o[2].endswith("is money in")]) == 1 and all(
                    offer[0] == "table" and any(s.get("table") == offer[1] for s in dimensions[money[0][1]]["sources"])
                    for offer in offers if offer is not money[0]):
                # 'revenue': the money the sales bring in, not the sales (a thesaurus word of the table's name)
                offers, elements = money, {money[0][:2]}
            elif not last_words and all(kind == "table" for kind, _, _ in offers) \
                    and len(exact := _named_by_the_group(offers, tables)) == 1 and all(
                    why.startswith(("thesaurus", _LAST_NAME_WORD)) for _, name, why in offers if name != exact[0][1]):
                # 'song' for tracks, not for playlist tracks: the table called by the group's word alone (a
                # word that ends another table's name, 'account' of customer accounts, is not decided so)
                offers = [offer for offer in offers if offer[1] == exact[0][1]]
                elements = {exact[0][:2]}
            elif described and len(described) < len(offers) and word not in own_words:
                # the warehouse's own description names it, so does another's label: both are meant
                # possibly, and the question's other words (what can be reached) tell which
                for kind, name, why in offers:
                    target = next(t for t in tables if t["name"] == name) if kind == "table" else dimensions[name]
                    target.setdefault("related", {}).setdefault(word, why)
                continue
        if word in shared and all(why.startswith(_SHARED_HEAD) for *_, why in offers):
            # 'viewers' of 'viewers 7 day' and 'viewers 28 day': either is meant, and the reader asks which
            for _, name, why in offers:
                dimensions[name].setdefault("related", {}).setdefault(word, why)
            continue
        said_by = [why for *_, why in offers]
        if word in own_words or len(elements) > 1 or (" " not in word and word in heads and not any(
                why.startswith("a word") or why.endswith("records") for why in said_by)):
            continue  # an element's own name stays its own (also its label's main word); two sharing one is a guess
        kind, name, why = offers[0]
        target = next(t for t in tables if t["name"] == name) if kind == "table" else dimensions[name]
        target.setdefault("related", {}).setdefault(word, why)
    _measure_words(dimensions, thesaurus, own_words)


_PARTICLES = ("up", "in", "out", "off", "on", "over", "down", "back")


def _phrasal_verb(word: str) -> str | None:
    """'signup' -> 'sign up', 'checkin' -> 'check in', 'dropoff' -> 'drop off': a verb and its particle run
    together into a noun; None for any other word ('region', 'begin')."""
    if "VERB" in lemmas(word):  # 'begin' is no 'beg in'
        return None
    for particle in _PARTICLES:
        verb = word.removesuffix(particle)
        if verb != word and len(verb) >= 3 and "VERB" in lemmas(verb):
            return f"{verb} {particle}"
    return None


def _named_by_the_group(offers: list[tuple[str, str, str]], tables: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The thesaurus offers made to a table whose own word is one of the group's words, alone ('track' of
    [song, track, tune]), not a longer name ending in one ('playlist track')."""
    own = {t["name"]: {w for w in t["entity_words"] if " " not in w} for t in tables}
    return [(kind, name, why) for kind, name, why in offers if kind == "table" and why.startswith("thesaurus: ")
            and own.get(name, set()) & set(why.removeprefix("thesaurus: ").split(", "))]


def _people_words(tables: list[dict[str, Any]], dimensions: dict[str, dict[str, Any]],
                  thesaurus: dict[str, Any]) -> Iterable[tuple[str, str]]:
    """'people', 'contestants', 'participants' for the one table whose rows are people (two or more columns
    a person has: a first and a last name, an age, a date of birth); none where no table or several are."""
    columns = [tuple(c.lower().split()) for c in thesaurus.get("person_columns") or []]
    found = []
    for table in tables:
        labels = {tuple(d["label"].lower().split()) for d in dimensions.values()
                  if any(s.get("table") == table["name"] for s in d.get("sources") or [])}
        if sum(1 for c in columns if any(label[-len(c):] == c for label in labels)) >= 2:
            found.append(table["name"])
    if len(found) == 1:
        for word in thesaurus.get("person_nouns") or []:
            yield " ".join(word.lower().split()), found[0]


def _distinctive_words(dimensions: dict[str, dict[str, Any]], own_words: set[str],
                       kinds: set[str]) -> Iterable[tuple[str, str, str]]:
    """'series' for a column labelled 'series number', 'showstoppers' for 'showstopper bake': the word a
    label is about (its main word past qualifiers), or a rare word of it, when no other column's label is
    about that word and no table is called so. Function words and bare qualifiers are left out, and so is
    the word before a kind ('visit type': 'visits' are the rows, counted, never the types)."""
    heads: dict[str, set[str]] = {}
    words: dict[str, set[str]] = {}
    for dim in dimensions.values():
        if dim.get("identifier"):
            continue
        label = dim["label"].lower().split()
        heads.setdefault(effective_head(label), set()).add(dim["name"])
        for word in label:
            words.setdefault(word, set()).add(dim["name"])
    tables = {w for w in own_words if " " not in w}
    for word, owners in [*heads.items(), *((w, o) for w, o in words.items() if not is_common(w))]:
        if len(owners) != 1 or len(word) < 4 or not word.isalpha() or word in _QUALIFIERS or word in tables:
            continue
        (name,) = owners
        label = dimensions[name]["label"].lower().split()
        if len(label) < 2 or word not in label or any(w in _PREPOSITIONS for w in label[:label.index(word)]):
            continue  # 'years at company': a word after a preposition says where, not what
        if label[-1] in kinds and label.index(word) == len(label) - 2:
            continue
        yield word, f"{_LABEL_WORD} ({dimensions[name]['label']}) no other name has", name


def _shared_heads(dimensions: dict[str, dict[str, Any]], own_words: set[str],
                  kinds: set[str]) -> Iterable[tuple[str, list[str]]]:
    """'viewers' for the columns 'viewers 7 day' and 'viewers 28 day': the word several labels are about
    (each label's main word, in each of its noun forms) names one of them, which the question's other words
    or the person must tell. Not a qualifier, a table's word or a label of its own, nor the word before a
    kind ('trip status': the trips are the rows, sorted by it, never its statuses counted)."""
    owners: dict[str, list[str]] = {}
    for dim in dimensions.values():
        label = dim["label"].lower().split()
        head = effective_head(label)
        if dim.get("identifier") or len(label) < 2 or len(head) < 4 or not head.isalpha() or head in _QUALIFIERS \
                or _names_kinds(dim["label"], kinds):
            continue
        for form in noun_forms(head):
            if form not in own_words:
                owners.setdefault(form, []).append(dim["name"])
    for word, names in owners.items():
        if len(names) > 1:
            yield word, names


def effective_head(label: list[str]) -> str:
    """The word a label is about: its last word before any preposition ('years at company' -> years), past
    qualifiers and numbers ('series number' -> series, 'viewers 7 day' -> viewers)."""
    # ('rated at' is a time column's name, not a phrase: a preposition that ends a label cuts nothing)
    cut = next((i for i, w in enumerate(label) if w in _PREPOSITIONS and 0 < i < len(label) - 1), len(label))
    label = label[:cut]
    return next((w for w in reversed(label) if w not in _QUALIFIERS and not w.isdigit()), label[-1] if label else "")


_LABEL_WORD = "a word of its label"
_LAST_NAME_WORD = "the last word of its name"
_SHARED_HEAD = "the word its label is about, which other columns' labels are about too"
ONLY_PEOPLE = "thesaurus: its rows are the only people in the data"
_DESCRIPTION = "its description"
_PREPOSITIONS = {"at", "in", "on", "of", "with", "from", "to", "for", "by", "per", "since", "until", "before", "after"}
# words that say what kind of value a column holds, not which column: never a column's name alone
_QUALIFIERS = {"name", "names", "date", "time", "code", "type", "level", "number", "total", "count", "average",
               "value", "rate", "flag", "status", "year", "month", "week", "hour", "day", "days", "first", "last",
               "best", "worst", "median", "with", "from", "this", "that", "times"}


def _measure_words(dimensions: dict[str, dict[str, Any]], thesaurus: dict[str, Any], own_words: set[str]) -> None:
    """'priciest' -> ranks by price, from the top; 'earns' -> income. Only for a measure word one
    numeric dimension has (two prices: the word would be a guess)."""
    numeric = [d for d in dimensions.values() if d["kind"] == "numeric"]
    ranking: dict[str, Any] = {"descending": [], "ascending": [], "implies_measure": {}, "said_of": {}}
    for measure_word, sides in (thesaurus.get("measure_adjectives") or {}).items():
        owners = _measures_named(numeric, measure_word)
        if len(owners) > 1:  # 'fastest' of a flight's speed or the wind's: only of an answer measuring one
            for side, descending in (("high", True), ("low", False)):
                for adjective in sides.get(side) or []:
                    for form in _degrees(adjective):
                        if form not in own_words:
                            said = ranking["said_of"].setdefault(form, {"descending": descending, "measures": []})
                            said["measures"] += [o["name"] for o in owners if o["name"] not in said["measures"]]
        if len(owners) != 1:
            continue
        for side, direction in (("high", "descending"), ("low", "ascending")):
            for adjective in sides.get(side) or []:
                for form in _degrees(adjective):
                    if form in own_words:
                        continue
                    ranking[direction].append(form)
                    ranking["implies_measure"][form] = owners[0]["name"]
    for measure_word in thesaurus.get("counting_measures") or []:
        for owner in _measures_named(numeric, measure_word):
            owner["counts_things"] = True
    for measure_word, verbs in (thesaurus.get("measure_verbs") or {}).items():
        owners = _measures_named(numeric, measure_word)
        if len(owners) != 1:
            continue
        for verb in verbs:
            for form in _verb_forms(verb):
                if form not in own_words:
                    owners[0].setdefault("related", {}).setdefault(form, f"thesaurus: to {verb} is a {measure_word}")
            if " " in verb:
                continue
            doing = _verb_forms(verb, "VBG")  # 'best-selling' ranks by what is sold, from the top
            for high in thesaurus.get("ranking_by_verb", {}).get("high", []):
                for form in doing:
                    ranking["descending"].append(f"{high} {form}")
                    ranking["implies_measure"][f"{high} {form}"] = owners[0]["name"]
            for low in thesaurus.get("ranking_by_verb", {}).get("low", []):
                for form in doing:
                    ranking["ascending"].append(f"{low} {form}")
                    ranking["implies_measure"][f"{low} {form}"] = owners[0]["name"]
    thesaurus["_ranking"] = ranking


_TRUE_MEANS = re.compile(r"""^\W*(?:yes|y|true|t|1)\W*\s*(?:=|means|:)\s*([^,;()]+)""", re.IGNORECASE)


def _flag_phrases(description: str) -> list[str]:
    """What a true flag means, said in its comment ("'Yes' = the employee left the company"): the
    phrase without its subject ('left the company') and the verb's agent noun where English has one
    ('leaver', 'leavers'; a word another element also claims, like 'workers', is dropped by the caller)."""
    found = _TRUE_MEANS.match(description.strip())
    if not found:
        return []
    words = re.findall(r"[a-z']+", found.group(1).lower())
    while words and (words[0] in {"the", "a", "an", "this", "that"} or set(lemmas(words[0])) == {"NOUN"}):
        words = words[1:]  # 'the employee': the row the flag is about, not what it says
    if not words or "VERB" not in lemmas(words[0]):
        return [" ".join(words)] if words else []
    phrases = [" ".join(words)]  # its verb alone ('works') says too little: 'who works in Sales' is no flag
    agent = _agent_noun(lemmas(words[0])["VERB"][0])
    if agent is not None:
        phrases += sorted(noun_forms(agent))
    return phrases


def _agent_noun(verb: str) -> str | None:
    """The one who does it ('leave' -> leaver, 'win' -> winner, 'work' -> worker): of the spellings
    English forms it with, the one in common use (a word list knows 'winner', barely 'winer')."""
    spellings = {verb + "r" if verb.endswith("e") else verb + "er", verb + verb[-1] + "er"}
    known = [s for s in spellings if is_english(s)]
    return max(known, key=frequency) if known else None


def _measures_named(numeric: list[dict[str, Any]], word: str) -> list[dict[str, Any]]:
    """Numeric dimensions whose label ends with the measure word (or its plural): 'unit price', 'price'; with
    none, those one of whose other names does ('year the plane was built', also called 'build year')."""
    forms = noun_forms(word)
    by_label = [d for d in numeric if d["label"].lower().split()[-1] in forms]
    return by_label or [d for d in numeric if any(said.lower().split()[-1:] and said.lower().split()[-1] in forms
                                                  for said in d.get("synonyms") or [])]


def _degrees(adjective: str) -> list[str]:
    """The superlative and comparative of an adjective ('pricey' -> priciest, pricier); a phrase
    ('well paid', 'highest rated') is used as it is."""
    if " " in adjective:
        return [adjective]
    forms = [*inflection(adjective, "JJS"), *inflection(adjective, "JJR")]
    if not forms:  # 'expensive': most expensive, more expensive
        return [f"most {adjective}", f"more {adjective}"]
    return list(dict.fromkeys(forms))


def _verb_forms(verb: str, tag: str | None = None) -> list[str]:
    """'earn' -> earn, earns, earned, earning (or only the forms of `tag`, e.g. 'VBG'); only forms that
    are not also a noun ('sell', not 'sales')."""
    if " " in verb:
        head, _, rest = verb.partition(" ")
        return [f"{form} {rest}" for form in _verb_forms(head, tag)]
    inflected = all_inflections(verb, "VERB")
    forms = set(inflected.get(tag, ())) if tag else {verb, *[f for fs in inflected.values() for f in fs]}
    participles = set(inflected.get("VBN", ())) - {verb}  # 'given': a participle, whatever noun it also is
    return sorted(f for f in forms if "NOUN" not in lemmas(f) or tag == "VBG" or f in participles)


def metric_words(metrics: list[dict[str, Any]], tables: list[dict[str, Any]], dimensions: dict[str, dict[str, Any]],
                 thesaurus: dict[str, Any]) -> None:
    """A metric named by a thesaurus word ('revenue' for a line's net amount) is named by the group's other
    words too ('spend', 'turnover'), unless one is another element's own word or several metrics would share it."""
    groups = [[" ".join(w.lower().split()) for w in group] for group in thesaurus.get("synonyms") or []]
    own = _own_words(tables, dimensions) | {" ".join(w.lower().split()) for m in metrics
                                            for w in [m["label"], *m.get("synonyms", [])]}
    offered: dict[str, list[dict[str, Any]]] = {}
    by_word: dict[str, list[set[str]]] = {}  # word -> what each taker says of its group
    for metric in metrics:
        said = {" ".join(w.lower().split()) for w in [metric["label"], *metric.get("synonyms", [])]}
        for group in groups:
            if said & set(group):
                for word in group:
                    if word not in own and metric not in offered.setdefault(word, []):
                        offered[word].append(metric)
                        by_word.setdefault(word, []).append(said & set(group))
    for word, takers in offered.items():
        # several metrics take a word only as they already share its group's word: the total and the average
        # of one column both called 'duration' are both called 'length', and 'avg' or 'total' tells them apart
        if len(takers) == 1 or set.intersection(*by_word[word]):
            for taker in takers:
                taker["synonyms"] = [*taker.get("synonyms", []), word]


def _money_in(dim: dict[str, Any], label: str, tables: list[dict[str, Any]],
              thesaurus: dict[str, Any]) -> Iterable[tuple[str, str]]:
    """'revenue', 'billings' for the amount of an invoices (orders, payments) table: a number column whose label
    is an amount word, on the one table of such rows it belongs to; and what the rows are payments of ('tuition'
    for the amount of tuition payments)."""
    if label not in (thesaurus.get("money_in_amounts") or []) or not dim.get("sources"):
        return
    rows_words = {form for w in thesaurus.get("money_in_rows") or [] for form in noun_forms(w)}
    owner = next((t for t in tables if t["name"] == dim["sources"][0].get("table")), None)
    said = [w.split()[-1] for w in owner["entity_words"]] if owner else []
    if any(w in rows_words for w in said):
        for word in thesaurus.get("money_in_words") or []:
            yield word, said[0]
        for words in (w.split() for w in owner["entity_words"] if owner) if owner else []:
            if len(words) > 1 and words[-1] in rows_words:  # 'total tuition' of tuition payments
                yield " ".join(words[:-1]), said[0]


_ROW_IS = re.compile(r"\bone (?:row|record|line|entry) (?:per|for each|for every|for one) (?:single )?"
                     r"([a-z][a-z -]{1,40}?)(?=$|[.,;:()]| and | with | of | in | that | who | which )", re.I)


def _rows_described(description: str) -> list[str]:
    """What a description says one row is ('One row per customer company': 'customer company')."""
    found = []
    for match in _ROW_IS.finditer(description):
        if description[match.end():].lower().startswith(" and "):
            continue  # 'one row per user and movie': the row is a pair, neither thing alone
        words = match.group(1).lower().split()
        # the noun phrase only: 'appointment booked with a doctor' is an appointment, 'user login belonging …'
        cut = next((i for i, w in enumerate(words) if "NOUN" not in lemmas(w) and "ADJ" not in lemmas(w)), len(words))
        while cut and "NOUN" not in lemmas(words[cut - 1]):
            cut -= 1
        if 0 < cut <= 3:
            found.append(" ".join(words[:cut]))
    return found[:1]


def _words_swapped(said: str, groups: list[list[str]]) -> Iterable[tuple[str, list[str]]]:
    """A phrase with one of a group's words (whole) put in place of another ('arrived late' -> 'landed late')."""
    padded = f" {said} "
    for group in groups:
        for member in group:
            if f" {member} " not in padded:
                continue
            for other in group:
                if other != member:
                    yield padded.replace(f" {member} ", f" {other} ", 1).strip(), group


def _thesaurus_words(label: str, groups: list[list[str]]) -> Iterable[tuple[str, list[str]]]:
    """For a label that is a group's word, or ends with one: the group's other words, in the label's
    place ('monthly income' with [income, salary, …] gives 'salary' and 'monthly salary')."""
    words = label.split()
    for group in groups:
        for member in group:
            size = len(member.split())
            if words[-size:] != member.split():
                continue
            qualifier = words[:-size]
            for other in group:
                if other == member:
                    continue
                yield other, group
                if qualifier:
                    yield " ".join(qualifier + [other]), group
            break


def _asides_after(description: str, label: str, thesaurus: dict[str, Any], of_rows: bool = False) -> list[str]:
    """Words put in parentheses right after a word of `label` in a description, or named after one with a
    cue ('Depots, also called hubs: …', 'Shipments, a.k.a. loads'; thesaurus.yaml `alias_cues:`). Of a
    table's rows (`of_rows`), also a name its own word explains ('Our properties (hotels)') or that leads
    its description ('Bookings: one row per reservation')."""
    label_words = {form for word in label.lower().split() for form in noun_forms(word)}
    cues = "|".join(re.escape(c) for c in sorted(thesaurus.get("alias_cues") or [], key=len, reverse=True))
    cued = re.compile(rf"(?P<before>[A-Za-z][\w\-]*)\s*,?\s*(?:{cues})\s+(?P<alias>[A-Za-z][A-Za-z\- ]{{0,40}}?)"
                      r"\s*(?=[,:;.()]|$)", re.I) if cues else None
    found = []
    for match in [*_ASIDE.finditer(description), *(cued.finditer(description) if cued else [])]:
        before = match.group("before").lower().split()
        alias = match.group("alias").strip().lower()
        if before and before[-1] in label_words and alias not in label_words and len(alias.split()) <= 4:
            found.append(alias)
        elif of_rows and before and alias in label_words and before[-1] not in label_words \
                and "NOUN" in lemmas(before[-1]):
            found.append(before[-1])  # 'Our properties (hotels)': the table's own word explains another name
    lead = re.match(r"\s*([A-Za-z]+):", description)  # 'Bookings: one row per reservation made'
    if of_rows and lead and lead.group(1).lower() not in label_words and "NOUN" in lemmas(lead.group(1).lower()) \
            and any(w in description.lower() for w in label_words):
        found.append(lead.group(1).lower())
    return found


def _names_kinds(label: str, kinds: set[str]) -> bool:
    """'visit type', 'order status': a label of two words whose last sorts rows into kinds."""
    words = label.lower().split()
    return len(words) == 2 and words[-1] in kinds


def _own_words(tables: list[dict[str, Any]], dimensions: dict[str, dict[str, Any]]) -> set[str]:
    own: set[str] = set()
    for table in tables:
        own.update(w.lower() for w in table["entity_words"])
    for dim in dimensions.values():
        own.add(dim["label"].lower())
        own.update(s.lower() for s in dim["synonyms"])
    return {form for word in own for form in _all_forms(word)}


def _all_forms(phrase: str) -> set[str]:
    *head, last = phrase.split() or [""]
    return {" ".join([*head, form]) for form in noun_forms(last)} if last else set()


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "…"
