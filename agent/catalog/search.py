"""Rank tables, docs and examples for a question: weighted word matches, no network, no model.

Each table becomes a map from stemmed word to its best evidence (the table's name beats a
column's name, which beats a word in a description). A question word scores its best
evidence times how rare the word is across tables, so "delay" (one table) counts more than
"year" (three tables). Synonyms from the catalog widen a word ("airline" -> "carrier"),
glossary terms pull in the columns they are defined on, and known values and value
patterns ("JetBlue", "N14228") point at the column that holds them.
"""

from __future__ import annotations

import functools

import math
import re
from dataclasses import dataclass, field

from agent.text.words import split_name
from agent.catalog.models import CatalogData, GlossaryTerm, HowToDoc
from agent.text.stems import (
    SCAFFOLDING,
    TABLE_SEARCH_STOP_WORDS,
    phrase,
    stem,
    terms,
)

# How much one matching word says about a table, by where it matched.
TABLE_NAME = 3.0
TABLE_ALIAS = 2.5
COLUMN_NAME = 2.0
COLUMN_VALUE = 2.2
COLUMN_ALIAS = 1.8
TABLE_DESCRIPTION = 0.8
COLUMN_DESCRIPTION = 0.6
PHRASE_BONUS = 1.0  # a multi-word column alias said in full ("departure delay")
GLOSSARY_BONUS = 1.5
GLOSSARY_COLUMN = 3.0  # a term's own columns lead the matched columns ("on-time" -> arr_delay)
PATTERN_BONUS = 2.0
SYNONYM_FACTOR = 0.9

MIN_TABLE_SCORE = 1.5
RELATIVE_CUTOFF = 0.25  # drop tables far behind the best one

# A value word shared by many values ("Airlines", "Inc") does not identify any of them.
_GENERIC_VALUE_SHARE = 3


@dataclass
class Evidence:
    weight: float
    reason: str  # {word} stands for the question's word, {column} for the column it chose
    column: str | None = None


@dataclass
class TableEntry:
    name: str
    words: dict[str, Evidence] = field(default_factory=dict)
    column_words: dict[str, dict[str, float]] = field(default_factory=dict)  # word -> column -> weight
    column_phrases: list[tuple[tuple[str, ...], str, str]] = field(default_factory=list)  # phrase, column, alias
    patterns: list[tuple[re.Pattern[str], str]] = field(default_factory=list)

    def add(self, word: str, evidence: Evidence) -> None:
        current = self.words.get(word)
        if current is None or evidence.weight > current.weight:
            self.words[word] = evidence
        if evidence.column is not None:
            columns = self.column_words.setdefault(word, {})
            columns[evidence.column] = max(columns.get(evidence.column, 0.0), evidence.weight)


@dataclass
class Scored:
    name: str
    score: float
    reasons: list[str]
    columns: dict[str, float]


class Synonyms:
    """Catalog synonyms by stem: a question word also counts as the words it stands for."""

    def __init__(self, mapping: dict[str, list[str]]):
        self._by_stem: dict[str, list[str]] = {}
        for key, targets in mapping.items():
            expansions = self._by_stem.setdefault(stem(key.lower()), [])
            for target in targets:
                expansions.extend(w for w in terms(target) if w not in expansions)

    def variants(self, word: str) -> list[tuple[str, float]]:
        return [(word, 1.0)] + [(other, SYNONYM_FACTOR) for other in self._by_stem.get(word, []) if other != word]


class TableIndex:
    def __init__(self, data: CatalogData):
        self.order = list(data.tables)
        self.synonyms = Synonyms(data.synonyms)
        self.glossary = list(data.glossary.values())
        self.entries = {name: self._entry(name, data) for name in self.order}
        self.idf = self._idf()
        # The longest multi-word column alias: the question's runs of words are taken up to this many.
        self.phrase_width = max((len(p) for e in self.entries.values() for p, _, _ in e.column_phrases), default=0)

    @staticmethod
    def _entry(name: str, data: CatalogData) -> TableEntry:
        table = data.tables[name]
        entry = TableEntry(name)
        for word in _table_terms(table.description + " " + (table.grain or "")):
            entry.add(word, Evidence(TABLE_DESCRIPTION, f"table '{_literal(name)}' description mentions '{{word}}'"))
        for word in _name_terms(name):
            entry.add(word, Evidence(TABLE_NAME, f"table name '{name}' matches '{{word}}'"))
        for alias in table.aliases:
            for word in _table_terms(alias):
                entry.add(word, Evidence(TABLE_ALIAS, f"table '{name}' is about '{{word}}'"))
        value_counts = {column: _value_word_counts(doc.values) for column, doc in table.columns.items()}
        for column, doc in table.columns.items():
            for word in _table_terms(doc.description):
                entry.add(word, Evidence(COLUMN_DESCRIPTION, "column '{column}' description mentions '{word}'", column))
            for alias in doc.aliases:
                for word in _table_terms(alias):
                    entry.add(word, Evidence(COLUMN_ALIAS, "column '{column}' matches '{word}'", column))
                alias_phrase = phrase(alias)
                if len(alias_phrase) > 1:
                    entry.column_phrases.append((alias_phrase, column, alias))
            for word in _name_terms(column):
                entry.add(word, Evidence(COLUMN_NAME, "column '{column}' matches '{word}'", column))
            for value in doc.values:
                for word in _table_terms(value):
                    if value_counts[column].get(word, 0) < _GENERIC_VALUE_SHARE:
                        reason = "column '{column}' has the value '" + _literal(value) + "'"
                        entry.add(word, Evidence(COLUMN_VALUE, reason, column))
            if doc.pattern:
                entry.patterns.append((re.compile(doc.pattern, re.IGNORECASE), column))
        return entry

    def _idf(self) -> dict[str, float]:
        """Rarity of a word across tables, counted where the word names something (a table,
        column, alias or value): descriptions mention other tables ("details in planes"),
        which would make every table's own name look common."""
        naming: dict[str, int] = {}
        anywhere: dict[str, int] = {}
        for entry in self.entries.values():
            for word, evidence in entry.words.items():
                anywhere[word] = anywhere.get(word, 0) + 1
                if evidence.weight >= COLUMN_ALIAS:
                    naming[word] = naming.get(word, 0) + 1
        total = len(self.entries)
        return {word: 1.0 + math.log(total / naming.get(word, count)) for word, count in anywhere.items()}

    def rank(self, question: str) -> list[Scored]:
        question_words = list(dict.fromkeys(_table_terms(question)))
        question_phrase = phrase(question)  # tokenized once, for the aliases and the glossary both
        said = spans(question_phrase, self.phrase_width)  # each alias is looked up, not searched for
        raw_words = re.findall(r"[A-Za-z0-9]+", question)
        matched_terms = terms_said(self.glossary, question_phrase)
        results = []
        for name in self.order:
            entry = self.entries[name]
            score = 0.0
            reasons: list[str] = []
            columns: dict[str, float] = {}
            word_hits: list[tuple[str, Evidence, str]] = []
            for word in question_words:
                best: tuple[float, Evidence, str] | None = None
                for variant, factor in self.synonyms.variants(word):
                    evidence = entry.words.get(variant)
                    if evidence is None:
                        continue
                    value = evidence.weight * factor * self.idf[variant]
                    if best is None or value > best[0]:
                        best = (value, evidence, variant)
                if best is None:
                    continue
                value, evidence, variant = best
                score += value
                word_hits.append((word, evidence, variant))
                for column, weight in entry.column_words.get(variant, {}).items():
                    columns[column] = columns.get(column, 0.0) + weight
            for alias_phrase, column, alias in entry.column_phrases:
                if alias_phrase in said:
                    score += PHRASE_BONUS
                    columns[column] = columns.get(column, 0.0) + PHRASE_BONUS
                    reasons.append(f"column '{column}' is called '{alias}'")
            for term in matched_terms:
                term_columns = [c.split(".")[1] for c in term.columns if c.split(".")[0] == name]
                if term_columns:
                    score += GLOSSARY_BONUS
                    reasons.append(f"glossary: {term.term}")
                    for column in term_columns:
                        columns[column] = columns.get(column, 0.0) + GLOSSARY_COLUMN
            for pattern, column in entry.patterns:
                hit = next((w for w in raw_words if pattern.fullmatch(w)), None)
                if hit is not None:
                    score += PATTERN_BONUS
                    columns[column] = columns.get(column, 0.0) + PATTERN_BONUS
                    reasons.append(f"'{hit}' looks like a value of column '{column}'")
            reasons = [_explain(entry, hit, columns) for hit in word_hits] + reasons
            if score > 0:
                results.append(Scored(name, round(score, 3), list(dict.fromkeys(reasons)), columns))
        results.sort(key=lambda s: (-s.score, self.order.index(s.name)))
        if not results:
            return []
        floor = max(MIN_TABLE_SCORE, results[0].score * RELATIVE_CUTOFF)
        return [s for s in results if s.score >= floor]


def spans(words: tuple[str, ...], width: int) -> frozenset[tuple[str, ...]]:
    """Every run of one to `width` consecutive words of `words`: a phrase of at most `width` words is
    said in them exactly when it is one of these (what `contains_phrase` answers, for one phrase)."""
    return frozenset(words[i:i + n] for n in range(1, min(width, len(words)) + 1) for i in range(len(words) - n + 1))


def _explain(entry: TableEntry, hit: tuple[str, Evidence, str], columns: dict[str, float]) -> str:
    """The reason for one word, naming the column the whole question leans to when the word
    fits several equally ("delay" in "arrival delay" names arr_delay, not dep_delay)."""
    word, evidence, variant = hit
    column = evidence.column
    if column is not None:
        tied = [c for c, w in entry.column_words.get(variant, {}).items() if w == evidence.weight]
        column = max(tied, key=lambda c: columns.get(c, 0.0), default=column)
    reason = evidence.reason.format(word=variant, column=column)
    return reason if variant == word else f"{reason} (said '{word}')"


def _table_terms(text: str) -> list[str]:
    # Bare numbers ("top 5", "in 2013") say nothing about which table holds the data.
    return [w for w in terms(text, TABLE_SEARCH_STOP_WORDS) if not w.isdigit()]


def _name_terms(name: str) -> list[str]:
    """A table's or column's name as its words ('Viewers7Day': viewers, day; 'orderLines': order, lines),
    and as written ('tailnum'), so a question may say either."""
    return list(dict.fromkeys(_table_terms(name) + _table_terms(split_name(name))))


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _value_word_counts(values: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        for word in set(_table_terms(value)):
            counts[word] = counts.get(word, 0) + 1
    return counts


# -- glossary --------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _said_as(term: str, synonyms: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """A glossary term's phrases, made once (the glossary is read for every question)."""
    return tuple(phrase(said) for said in (term, *synonyms))


def matching_terms(glossary: list[GlossaryTerm], question: str) -> list[GlossaryTerm]:
    """Terms said in the question, in the order they appear; a term said inside a longer one
    ("delay" inside "departure delay") gives way to the longer, more specific term."""
    return terms_said(glossary, phrase(question))


def terms_said(glossary: list[GlossaryTerm], question_phrase: tuple[str, ...]) -> list[GlossaryTerm]:
    """`matching_terms` on a question already in phrase form."""
    spans: list[tuple[int, int, GlossaryTerm]] = []
    for term in glossary:
        best: tuple[int, int] | None = None
        for needle in _said_as(term.term, tuple(term.synonyms)):
            start = _find(question_phrase, needle)
            if start is not None and (best is None or len(needle) > best[1] - best[0]):
                best = (start, start + len(needle))
        if best is not None:
            spans.append((best[0], best[1], term))
    kept = [
        (start, end, term)
        for start, end, term in spans
        if not any(
            other_start <= start and end <= other_end and (other_end - other_start) > (end - start)
            for other_start, other_end, _ in spans
        )
    ]
    kept.sort(key=lambda item: (item[0], -(item[1] - item[0])))
    return [term for _, _, term in kept]


def _find(haystack: tuple[str, ...], needle: tuple[str, ...]) -> int | None:
    width = len(needle)
    for i in range(len(haystack) - width + 1):
        if width and haystack[i : i + width] == needle:
            return i
    return None


# -- docs and examples -----------------------------------------------------------------

DOC_TITLE = 3.0
DOC_KEYWORD = 2.5
DOC_QUESTION = 2.0
DOC_BODY = 1.0
MIN_DOC_SCORE = 2.0


class DocIndex:
    """How-to docs: a doc needs a hit in its title, keywords or sample questions to count,
    so a data question that happens to share a word with a doc's body does not pull it in."""

    def __init__(self, docs: list[HowToDoc]):
        self.docs = docs
        self.fields = [self._fields(doc) for doc in docs]
        frequency: dict[str, int] = {}
        for fields in self.fields:
            for word in fields:
                frequency[word] = frequency.get(word, 0) + 1
        # Sharper than the tables' idf: with few docs, words such as "query" sit in most titles.
        total = len(docs) + 1
        self.idf = {word: math.log(total / count) for word, count in frequency.items()}

    @staticmethod
    def _fields(doc: HowToDoc) -> dict[str, tuple[float, str]]:
        best: dict[str, tuple[float, str]] = {}

        def add(text: str, weight: float, where: str) -> None:
            for word in terms(text, SCAFFOLDING):
                if word not in best or weight > best[word][0]:
                    best[word] = (weight, where)

        add(doc.body, DOC_BODY, "text")
        add(" ".join(doc.questions), DOC_QUESTION, "question")
        add(" ".join(doc.keywords), DOC_KEYWORD, "keyword")
        add(doc.title, DOC_TITLE, "title")
        return best

    def rank(self, question: str) -> list[tuple[HowToDoc, float, list[str]]]:
        question_words = list(dict.fromkeys(terms(question, SCAFFOLDING)))
        ranked = []
        for doc, fields in zip(self.docs, self.fields):
            score, reasons, strong = 0.0, [], False
            for word in question_words:
                if word in fields:
                    weight, where = fields[word]
                    score += weight * self.idf[word]
                    reasons.append(f"{where} matches '{word}'")
                    strong = strong or weight > DOC_BODY
            if strong and score >= MIN_DOC_SCORE:
                ranked.append((doc, round(score, 3), reasons))
        ranked.sort(key=lambda item: -item[1])
        return ranked


class TextIndex:
    """Plain idf-weighted word overlap, for short texts such as example questions."""

    def __init__(self, texts: list[str]):
        self.words = [set(terms(text, TABLE_SEARCH_STOP_WORDS)) for text in texts]
        frequency: dict[str, int] = {}
        for words in self.words:
            for word in words:
                frequency[word] = frequency.get(word, 0) + 1
        total = max(len(texts), 1)
        self.idf = {word: 1.0 + math.log(total / count) for word, count in frequency.items()}

    def rank(self, question: str, synonyms: Synonyms) -> list[tuple[int, float]]:
        question_words = set(terms(question, TABLE_SEARCH_STOP_WORDS))
        ranked = []
        for position, words in enumerate(self.words):
            score = 0.0
            for word in question_words:
                score += max(
                    (self.idf[v] * factor for v, factor in synonyms.variants(word) if v in words),
                    default=0.0,
                )
            if score > 0:
                ranked.append((position, round(score, 3)))
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked
