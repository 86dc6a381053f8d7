"""English word forms for the reader, from maintained libraries rather than suffix rules.

- `split_name`: an identifier as the words people say ('pizzaTypeId' -> 'pizza type id',
  'UkAirDate' -> 'uk air date', 'order_details' -> 'order details').
- `inflections`: a phrase with its last word in every noun form (lemminflect: people/person,
  children/child, series/series, showstoppers/showstopper for words it does not know).
- `lemmas`: the dictionary forms of a word, by part of speech ('priciest' -> pricey, 'sold' -> sell).
- `stem`: a word's stem (Snowball's English stemmer: 'doctorate' and 'doctor' -> doctor, 'performers'
  and 'performance' -> perform), so a word derived from the model's own reaches it.
- `is_common`: how often a word occurs in English (wordfreq), so an everyday word is never taken
  for a value of the data just because some value spells it.

The libraries load their data on first use; results are cached, since a model's words are few: in
memory, and on disk under DATA_DIR once `use_disk_cache` names the folder (`word_cache`), so a new
process reads its model's words without loading the libraries' tables.
"""

from __future__ import annotations

import atexit
import re
from functools import lru_cache
from pathlib import Path

from agent.text.vocabulary import english
from agent.text.word_cache import MISSING, WordCache

# Word boundaries inside an identifier: camelCase, acronyms, letters then digits, and digits then a
# lower-case word ('viewers7day': '7 day'; a letter or two after digits stays a code: '2b', 'utf8mb4').
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[a-z]{3})")
# A legacy type tag before a name's first capital ('strFirstName', 'tblGift'): vocabulary.yaml `name_type_tags`.
_TYPE_TAG = re.compile(r"^(?:%s)(?=[A-Z])" % "|".join(sorted(english()["name_type_tags"], key=len, reverse=True)))
# Nouns a word may be in the reader's sense: lemminflect's tags for singular and plural.
_NOUN_FORMS = ("NN", "NNS")
# Above this Zipf frequency (occurrences per billion words, log10) a word is everyday English:
# 'chicken' (4.6), 'delta' (4.1), 'menu' (4.3) are; 'nadiya' (2.0), 'ewr' (2.0) are not.
COMMON_ZIPF = 3.5
# At or above this, a word is in English at all (rare ones included): 'leaver' (2.3) is, 'arriver' (1.1) is not.
KNOWN_ZIPF = 2.0


_NO_PREFIX = {"is_", "has_", "was_", "had_", "did_", "does_", "num_", "no_"}  # words that say what a column is
_KEY_NAME = re.compile(r"(?:^|_)(?:id|key|pk|fk)$|[a-z](?:Id|ID|Key)$")


def shared_prefix(names: list[str]) -> str:
    """'l_' when the columns start with one short prefix (TPC-H's l_orderkey, l_shipdate; 'appt_status',
    'appt_date'), keys that point elsewhere ('doctor_id') aside: people say 'ship mode', never 'l shipmode'."""
    named = sorted({n for n in names if not _KEY_NAME.search(n)} or set(names))  # two columns at least, not one twice
    match = re.match(r"[a-z]{1,4}_", named[0].lower()) if named else None
    if match and match.group(0) not in _NO_PREFIX and len(named) > 1 \
            and all(n.lower().startswith(match.group(0)) and len(n) > len(match.group(0)) for n in named):
        return match.group(0)
    return ""


def split_name(name: str) -> str:
    """The words of an identifier, lower case: camelCase, PascalCase, snake_case, digits apart, and words
    run together in lower case ('orderdetailid' -> order detail id) split where English words meet."""
    bare = name.strip().strip('"`[]')
    bare = _TYPE_TAG.sub("", bare) if _TYPE_TAG.sub("", bare) else bare
    spaced = _CAMEL.sub(" ", bare)
    return " ".join(part for w in re.split(r"[\s_\-.]+", spaced.lower()) if w for part in compound_parts(w))


# A run-together name is split only into parts English uses this often (Zipf), so a code or an
# abbreviation ('lgid', 'visib', 'acctbal') stays whole; a two-letter part must be a function word
# ('at', 'in', 'up', 'uk') or the key word 'id'.
_PART_ZIPF, _SHORT_PART_ZIPF, _LONG_PART_ZIPF, _LONG_PART = 3.0, 5.0, 2.0, 7
_PART_COST = 1.5
_KEY_PART = "id"  # 'yearid', 'bakerid': the one short part names always end with


@lru_cache(maxsize=20000)
def compound_parts(word: str) -> tuple[str, ...]:
    """The English words a lower-case run of them is made of ('yearid' -> year id, 'worklifebalance' ->
    work life balance), by the likeliest split under wordfreq's frequencies; a word English knows as a
    whole ('invoice', 'hometown') or one that no split of known words covers stays as it is."""
    if len(word) < 6 or not word.isalpha() or not word.islower():
        return (word,)
    stored = _disk.get("compound", word)
    if stored is MISSING:
        stored = list(_likeliest_split(word))
        _disk.put("compound", word, stored)
    return tuple(stored)


def _likeliest_split(word: str) -> tuple[str, ...]:
    from wordfreq import zipf_frequency

    def usable(part: str, zipf: float) -> bool:
        if len(part) >= _LONG_PART:
            return zipf >= _LONG_PART_ZIPF
        return len(part) >= 2 and (zipf >= (_SHORT_PART_ZIPF if len(part) == 2 else _PART_ZIPF) or part == _KEY_PART)

    # best[i]: (log10 probability, parts) of the likeliest split of word[:i] into usable words
    best: list[tuple[float, tuple[str, ...]] | None] = [(0.0, ())] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(end):
            before = best[start]
            part = word[start:end]
            zipf = zipf_frequency(part, "en") if before is not None else 0.0
            if before is None or not usable(part, zipf):
                continue
            # Zipf is log10 of occurrences per billion words; each part costs a little more, so a longer word
            # beats a function word and the rest ('invoice line', not 'in voice line')
            score = before[0] + zipf - 9 - _PART_COST
            if best[end] is None or score > best[end][0]:  # type: ignore[index]
                best[end] = (score, (*before[1], part))
    found = best[-1]
    if found is None or len(found[1]) < 2 or zipf_frequency(word, "en") >= KNOWN_ZIPF:
        return (word,)  # 'invoice' is a word of its own, never 'in voice'
    return found[1]


_disk = WordCache()


def use_disk_cache(folder: Path) -> None:
    """Keep the look-ups in `folder` (read now, written by `save_disk_cache` and at exit)."""
    if _disk.path is None:
        atexit.register(_disk.save)
    _disk.use(folder)


def save_disk_cache() -> None:
    _disk.save()


@lru_cache(maxsize=20000)
def noun_forms(word: str) -> frozenset[str]:
    """Every singular and plural form of `word` read as a noun, the word itself included."""
    if not word.isalpha():
        return frozenset({word})
    stored = _disk.get("noun_forms", word)
    if stored is MISSING:
        stored = sorted(_noun_forms(word))
        _disk.put("noun_forms", word, stored)
    return frozenset(stored)


def _noun_forms(word: str) -> set[str]:
    from lemminflect import getAllInflections, getAllInflectionsOOV, getAllLemmas, getAllLemmasOOV

    lemmas = getAllLemmas(word, upos="NOUN").get("NOUN") or getAllLemmasOOV(word, upos="NOUN").get("NOUN") or (word,)
    forms = {word}
    for lemma in lemmas:
        forms.add(lemma)
        inflected = getAllInflections(lemma, upos="NOUN") or getAllInflectionsOOV(lemma, upos="NOUN")
        for tag in _NOUN_FORMS:
            forms.update(inflected.get(tag, ()))
    return {f.lower() for f in forms}


@lru_cache(maxsize=2000)
def plural_phrase(text: str) -> str:
    """A label with its last word in the plural, for counted things: 'day' -> 'days', 'job role' ->
    'job roles', 'series' -> 'series'."""
    *head, last = text.split(" ") if text else ["row"]
    singular = lemma(last, "NOUN") if last.isalpha() else ()
    already = bool(singular) and singular[0] != last  # 'ratings' stays 'ratings'
    forms = inflection(last, "NNS") if last.isalpha() and not already else ()
    return " ".join([*head, forms[0] if forms else last])


@lru_cache(maxsize=20000)
def inflection(word: str, tag: str) -> tuple[str, ...]:
    """lemminflect's forms of `word` for one Penn tag ('NNS' plural, 'JJS' superlative, 'VBG'), guessed
    for a word it does not know."""
    stored = _disk.get(f"inflection {tag}", word)
    if stored is MISSING:
        from lemminflect import getInflection

        stored = list(getInflection(word, tag=tag))
        _disk.put(f"inflection {tag}", word, stored)
    return tuple(stored)


@lru_cache(maxsize=20000)
def all_inflections(word: str, upos: str) -> dict[str, tuple[str, ...]]:
    """Every form of `word` as one part of speech ('VERB'), by Penn tag; {} for a word it does not know."""
    stored = _disk.get(f"inflections {upos}", word)
    if stored is MISSING:
        from lemminflect import getAllInflections

        stored = {tag: list(forms) for tag, forms in getAllInflections(word, upos=upos).items()}
        _disk.put(f"inflections {upos}", word, stored)
    return {tag: tuple(forms) for tag, forms in stored.items()}


@lru_cache(maxsize=20000)
def lemma(word: str, upos: str) -> tuple[str, ...]:
    """The dictionary form of `word` as one part of speech ('movies' -> movie as a NOUN), guessed for a
    word it does not know."""
    stored = _disk.get(f"lemma {upos}", word)
    if stored is MISSING:
        from lemminflect import getLemma

        stored = list(getLemma(word, upos=upos))
        _disk.put(f"lemma {upos}", word, stored)
    return tuple(stored)


def inflections(words: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The phrase with its last word in each of its noun forms, so 'carrier' also finds 'carriers'."""
    if not words:
        return set()
    *head, last = words
    return {(*head, form) for form in noun_forms(last)}


@lru_cache(maxsize=20000)
def lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Dictionary forms by part of speech ('NOUN', 'VERB', 'ADJ', 'ADV'); {} for an unknown word."""
    word = word.lower()
    stored = _disk.get("lemmas", word)
    if stored is MISSING:
        from lemminflect import getAllLemmas

        stored = {pos: list(found) for pos, found in getAllLemmas(word).items()}
        _disk.put("lemmas", word, stored)
    return {pos: tuple(found) for pos, found in stored.items()}


def load() -> None:
    """Load both libraries' data now (about a second), whatever the disk cache holds: a process that
    forks workers does it once for all, so no worker loads it within a step's budget."""
    from lemminflect import getAllInflections, getAllLemmas
    from wordfreq import zipf_frequency

    getAllLemmas("warmed")
    getAllInflections("warm", upos="NOUN")
    zipf_frequency("warm", "en")


@lru_cache(maxsize=50000)
def stem(word: str) -> str:
    word = word.lower()
    stored = _disk.get("stems", word)
    if stored is MISSING:
        stored = _stemmer().stemWord(word)
        _disk.put("stems", word, stored)
    return str(stored)


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=50000)
def is_common(word: str) -> bool:
    return _zipf(word.lower()) >= COMMON_ZIPF


@lru_cache(maxsize=50000)
def frequency(word: str) -> float:
    """How often English uses the word (wordfreq's Zipf scale: 0 unknown, 7 'the')."""
    return _zipf(word.lower())


@lru_cache(maxsize=50000)
def is_english(word: str) -> bool:
    """A word English uses at all ('leaver' 2.3), not one made up by adding a suffix ('arriver')."""
    return _zipf(word.lower()) >= KNOWN_ZIPF


def _zipf(word: str) -> float:
    stored = _disk.get("zipf", word)
    if stored is MISSING:
        from wordfreq import zipf_frequency

        stored = zipf_frequency(word, "en")
        _disk.put("zipf", word, stored)
    return float(stored)
