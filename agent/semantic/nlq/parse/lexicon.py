"""The lexicon: every phrase the model, the vocabulary and the warehouse's values give, matched
against a question longest first. A `Mention` is one matched span with every entry of that length."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from agent.semantic.model.runtime import SemanticModel
from agent.text.phrases import (
    ABBREVIATIONS,
    MONTH_ABBREVIATIONS,
    MONTHS,
    WEEKDAYS,
    Token,
    phrase,
)
from agent.semantic.model.values import ValueIndex
from agent.text.words import inflection, inflections, is_english, lemmas, plural_phrase, stem

Kind = Literal["metric", "dimension", "grain", "entity", "agg", "rank", "month", "season", "weekday", "topic",
               "value", "context", "flag", "day"]


ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
             "last": 4, "final": 4}


@dataclass(frozen=True)
class Entry:
    words: tuple[str, ...]
    kind: Kind
    payload: object
    case_sensitive: bool = False
    needs_cue: bool = False
    # a related word (a description's aside, the thesaurus), not the element's own name: where both
    # are said in the same place, the own name wins
    related: bool = False

    # The payload's type follows the kind; each accessor says which kinds it is for and fails loudly on
    # another, so a pass cannot read one kind's payload as another's.
    @property
    def name(self) -> str:
        """An element's name: a metric, dimension, flag, grain, table, aggregation, direction or topic."""
        if not isinstance(self.payload, str):
            raise TypeError(f"a {self.kind} entry carries no name")
        return self.payload

    @property
    def month(self) -> int:
        """A month entry's month number."""
        if not isinstance(self.payload, int):
            raise TypeError(f"a {self.kind} entry carries no month")
        return self.payload

    @property
    def numbers(self) -> list[int]:
        """A weekday entry's day numbers, a season entry's month numbers."""
        if not isinstance(self.payload, list):
            raise TypeError(f"a {self.kind} entry carries no numbers")
        return [n for n in self.payload if isinstance(n, int)]

    @property
    def month_day(self) -> tuple[int, int]:
        """A named day's (month, day)."""
        if not (isinstance(self.payload, tuple) and len(self.payload) == 2
                and all(isinstance(n, int) for n in self.payload)):
            raise TypeError(f"a {self.kind} entry carries no date")
        return self.payload[0], self.payload[1]

    @property
    def dimension_value(self) -> tuple[str, str]:
        """A value entry's (dimension, value)."""
        if not (isinstance(self.payload, tuple) and len(self.payload) == 2
                and all(isinstance(n, str) for n in self.payload)):
            raise TypeError(f"a {self.kind} entry carries no value")
        return self.payload[0], self.payload[1]


@dataclass
class Mention:
    start: int
    end: int
    entries: list[Entry]
    used: bool = False

    def of(self, kind: Kind) -> list[Entry]:
        return [e for e in self.entries if e.kind == kind]

    def has(self, kind: Kind) -> bool:
        return any(e.kind == kind for e in self.entries)


_JOINABLE = {"dimension", "metric", "entity", "flag"}
_ARTICLES = frozenset({"the", "a", "an"})  # left out inside a name as often as said


def _known_word(word: str) -> bool:
    """English as it is, or an adjective's or a verb's form the dictionary has ('windiest' of windy): never a slip
    for another. (A plural is no such sign: 'cancelations' is still a slip for 'cancellations'.)"""
    return is_english(word) or any(word not in forms for pos, forms in lemmas(word).items() if pos in ("ADJ", "VERB"))


def _unexplained_codes(values: ValueIndex) -> dict[str, set[tuple[str, str]]]:
    """Code values of three letters or more ('EST', 'DECL') that no label or comment spells out, by first letter."""
    explained = {(p.dimension, p.value) for p in values.phrases if not p.case_sensitive and p.words != (p.value.lower(),)}
    codes: dict[str, set[tuple[str, str]]] = {}
    for p in values.phrases:
        code = p.value
        if p.case_sensitive and p.words == (code,) and code.isalpha() and code.isupper() and len(code) >= 3 \
                and (p.dimension, code) not in explained:
            codes.setdefault(code[0].lower(), set()).add((p.dimension, code))
    return codes



class Lexicon:
    def __init__(self, model: SemanticModel, values: ValueIndex):
        self.entries: dict[str, list[Entry]] = {}
        self._fillers = frozenset(model.coverage.get("fillers", []))
        # words of aggregation ('avg', 'max'): read as such by the passes, never spelt out into a phrase
        self._aggregating = frozenset(w for words in model.aggregations.values() for w in words)
        sides = [w.rsplit(" ", 1)[0] for w in model.shapes.get("signed_predicates", [])]
        for metric in model.metrics:
            for text in [metric.label, *metric.synonyms]:
                for words in _with_qualifier_first(phrase(text)):
                    self._add(words, "metric", metric.name)
                    if len(words) >= 2 and words[-1] == "rate":  # 'cancel rate' is also said 'cancel %'
                        for percent in _PERCENT_WORDS:
                            self._add((*words[:-1], percent), "metric", metric.name)
        # the words of each dimension's own label: a related phrase of several words that are all another
        # dimension's own ('job title' beside a 'job requisition title') names that one, not by the thesaurus
        label_words = {dim.name: set(dim.label.lower().split()) for dim in model.dimensions if not dim.identifier}
        for dim in model.dimensions:
            kind: Kind = "flag" if dim.kind == "flag" else "dimension"
            own = [dim.label] if dim.identifier else [dim.label, dim.name.replace("_", " "), *dim.synonyms]
            if 1 < len(dim.label.split()) <= 3 and not dim.identifier:
                own.append("".join(dim.label.split()))  # 'over time' is also said 'overtime'
            label = dim.label.lower().split()
            if len(label) == 2 and not dim.identifier and dim.kind in ("time", "numeric") and all(w.isalpha() for w in label):
                own.append(f"{label[1]} of {label[0]}")  # 'release year' is also 'year of release', 'date of birth'

            related_words = [text for text in dim.related if not _owned_elsewhere(text, dim.name, label_words)]
            if dim.kind == "numeric":
                own += _other_sides(own, sides)
                related_words += _other_sides(related_words, sides)
            for texts, related in ((own, False), (related_words, True)):
                for text in texts:
                    said = _with_qualifier_first(phrase(text))
                    forms = set(said) if kind == "flag" else {f for words in said for f in inflections(words)}
                    for form in forms:
                        self._add(form, kind, dim.name, related=related)
            for text in dim.grain_words:
                self._add(phrase(text), "grain", dim.name)
        if any(t.agg_time for t in model.tables):  # generic grain words where the model has none of its own
            for grain, texts in model.time_grains.items():
                for text in texts:
                    words = phrase(text)
                    # 'by month' is the model's own 'month' where it has one; a word of a longer name
                    # ('minimum term months') is no such month
                    taken = any(e.words == tail and e.kind in ("dimension", "grain") and not e.related
                                for tail in (words, words[1:]) if tail for e in self.entries.get(tail[0], []))
                    if not taken:
                        self._add(words, "grain", f"metric_time__{grain}")
        for table in model.tables:
            for texts, related in ((table.entity_words, False), (list(table.related), True)):
                for text in texts:
                    for form in inflections(phrase(text)):
                        self._add(form, "entity", table.name, related=related)
        for agg, texts in model.aggregations.items():
            for text in texts:
                self._add(phrase(text), "agg", agg)
        for direction, texts in (("desc", model.ranking.descending), ("asc", model.ranking.ascending)):
            for text in texts:
                self._add(phrase(text), "rank", direction)
        for number, name in enumerate(MONTHS, start=1):
            self._add((name,), "month", number)
        for name, number in MONTH_ABBREVIATIONS.items():
            self._add((name,), "month", number)
        for name, days in WEEKDAYS.items():
            for form in inflections(phrase(name)):
                self._add(form, "weekday", days)
        for name, months in model.seasons.items():
            self._add(phrase(name), "season", months)
        for name, (month, day) in model.named_days.items():
            self._add(phrase(name), "day", (month, day))
        for topic, texts in model.unsupported_topics.items():
            for text in texts:
                self._add(phrase(text), "topic", topic)
        for text in model.context_words:
            self._add(phrase(text), "context", None)
        for item in values.phrases:
            self._add(item.words, "value", (item.dimension, item.value), item.case_sensitive, item.needs_cue)
        self._codes = _unexplained_codes(values)
        # 'cancels' for a count named by what happened to the rows ('cancelled'): the verb's own noun, where no
        # other element reads it ('delays' is the delay measure's)
        for metric in model.metrics:
            for text in [metric.label, *metric.synonyms]:
                participle = phrase(text)
                if len(participle) != 1 or not participle[0].endswith("ed"):
                    continue
                for verb in lemmas(participle[0]).get("VERB", ()):
                    for noun in inflection(verb, "NNS"):
                        if noun != verb and not any(e.words == (noun,) for e in self.entries.get(noun, [])):
                            self._add((noun,), "metric", metric.name, related=True)
        # One-word names by their stem, for words derived from them ('doctorate' for a value Doctor,
        # 'performers' for a performance rating): read only where nothing else reads the word.
        self._one_words: list[str] | None = None  # one-word phrases, for misspellings (on first use)
        self._phrase_words: list[str] | None = None  # first words of every phrase, for misspelt ones
        self._inner_words: set[str] | None = None  # every word of every phrase: none is a slip for another
        self.stems: dict[str, list[Entry]] = {}
        for bucket in self.entries.values():
            for entry in bucket:
                word = entry.words[0]
                # a name, not a verb's form: 'books' is no 'booked' (a status), 'doctorate' is a Doctor
                if len(entry.words) == 1 and entry.kind in _STEMMED and word.isalpha() and len(word) >= _STEM_MIN \
                        and (not (kinds := lemmas(word)) or "NOUN" in kinds or "ADJ" in kinds):
                    derived = Entry(entry.words, entry.kind, entry.payload, needs_cue=entry.needs_cue, related=True)
                    found = self.stems.setdefault(stem(word), [])
                    if derived not in found:
                        found.append(derived)

    def _add(self, words: tuple[str, ...], kind: Kind, payload: object, case_sensitive: bool = False,
             needs_cue: bool = False, related: bool = False) -> None:
        if not words:
            return
        entry = Entry(words, kind, payload, case_sensitive, needs_cue, related)
        bucket = self.entries.setdefault(words[0].lower(), [])
        if entry not in bucket:
            bucket.append(entry)
        inner = tuple(w for i, w in enumerate(words) if not (0 < i < len(words) - 1 and w in _ARTICLES))
        if kind in _JOINABLE | {"grain"} and len(inner) > 1 and inner != words:
            self._add(inner, kind, payload, case_sensitive, needs_cue, related)  # 'day of month': 'day of the month'

    def match(self, tokens: list[Token]) -> list[Mention]:
        """Longest phrase first across the whole question, so 'per day of week' reads as
        'per' + 'day of week' rather than 'per day' + 'of week'; ties go to the leftmost.
        Every entry of the winning length is kept. A misspelt word of a phrase ('avg dep dealy', 'nubmer of
        flights') is read as the word it is one slip from, so the phrase is whole."""
        tokens = [self._respelled(t, tokens[i - 1] if i else None, tokens[i + 1] if i + 1 < len(tokens) else None)
                  for i, t in enumerate(tokens)]
        candidates = [m for i in range(len(tokens)) for m in self._matches_at(tokens, i)]
        # 'scheduled dep hour': a short form read as its word where that makes a phrase ('scheduled departure hour')
        spelt = [replace(t, low=full) if (full := ABBREVIATIONS.get(t.low, "")) and " " not in full
                 and t.low not in self._aggregating else t for t in tokens]
        if spelt != tokens:
            candidates += [m for i in range(len(spelt)) for m in self._matches_at(spelt, i)
                           if any(spelt[j] is not tokens[j] for j in range(m.start, m.end)) and m.end - m.start > 1]
        taken: set[int] = set()
        mentions: list[Mention] = []
        # of two phrases as long, one that does not lean on a filler word ('actually left' | 'left early') wins
        for mention in sorted(candidates, key=lambda m: (m.start - m.end, tokens[m.start].low in self._fillers, m.start)):
            span = set(range(mention.start, mention.end))
            if not span & taken:
                taken |= span
                mentions.append(mention)
        named = {m.start for m in mentions if any(e.kind == "entity" and not e.related for e in m.entries)}
        mentions += [m for i, token in enumerate(tokens) if i not in taken
                     for m in [self._by_stem(token, i) or self._by_spelling(token, i) or self._by_code(token, i)]
                     if m is not None
                     and not (m.entries[0].related and i + 1 in named)]  # 'insurance claims': the claims' kind
        return sorted(mentions, key=lambda m: m.start)

    def _respelled(self, token: Token, before: Token | None = None, after: Token | None = None) -> Token:
        """The token as the one word of the lexicon's phrases it is a slip from (a letter, or two swapped, for
        words up to six letters; two for longer ones), when it is no English word and exactly one is that
        close, or one of the closest makes a phrase with a word beside it ('arrival delya': delay, not
        delta); else the token as typed."""
        word = token.low
        full = ABBREVIATIONS.get(word) or (plural_phrase(ABBREVIATIONS[word[:-1]]) if word[-1:] == "s"
                                           and word[:-1] in ABBREVIATIONS else "")
        if word not in self.entries and " " not in full and full in self.entries:
            return replace(token, low=full)  # 'how many techs': the technicians, a short form of the model's word
        if self._inner_words is None:  # 'ohare' of 'chicago ohare intl' is no slip for 'share'
            self._inner_words = {w.lower() for bucket in self.entries.values() for e in bucket for w in e.words}
        if word in self.entries or word in self._inner_words or not word.isalpha() or _known_word(word):
            return token
        if len(word) == _SPELLING_MIN - 1:  # 'tpye': in a short word only two letters swapped are a slip
            swaps = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
            found = [w for w in swaps if w in self.entries]
            return replace(token, low=found[0]) if len(found) == 1 else token
        if len(word) < _SPELLING_MIN:
            return token
        from rapidfuzz.distance import OSA

        if self._phrase_words is None:
            self._phrase_words = sorted(k for k in self.entries if k.isalpha() and len(k) >= _SPELLING_MIN - 1)
        allowed = 1 if len(word) <= 6 else 2
        near = [(d, key) for key in self._phrase_words if (d := OSA.distance(word, key, score_cutoff=allowed)) <= allowed]
        if not near:
            return token
        best = min(d for d, _ in near)
        keys = [key for d, key in near if d == best]
        if len(keys) > 1:
            keys = [key for key in keys if self._in_a_phrase(before, key, after)] or _dropped_a_letter(word, keys)
        return replace(token, low=keys[0]) if len(keys) == 1 else token

    def _in_a_phrase(self, before: Token | None, key: str, after: Token | None) -> bool:
        """Does `key` make a phrase of the lexicon with the word before it or the one after it?"""
        return (before is not None and any(e.words[:2] == (before.low, key) for e in self.entries.get(before.low, [])
                                           if len(e.words) > 1)) or (
            after is not None and any(e.words[:2] == (key, after.low) for e in self.entries.get(key, [])
                                      if len(e.words) > 1))

    def _by_spelling(self, token: Token, i: int) -> Mention | None:
        """A word that is no English ('avrage', 'cancelation') read as the one word of the lexicon a letter or
        two away from it (a letter for words up to six letters), when exactly one is that close."""
        word = token.low
        if not word.isalpha() or len(word) < _SPELLING_MIN or _known_word(word):
            return None
        from rapidfuzz.distance import Levenshtein

        allowed = 1 if len(word) <= 6 else 2
        if self._one_words is None:
            self._one_words = sorted(k for k, bucket in self.entries.items() if any(len(e.words) == 1 for e in bucket)
                                     and k.isalpha() and len(k) >= _SPELLING_MIN - 1)
        near = [(Levenshtein.distance(word, key, score_cutoff=allowed), key) for key in self._one_words]
        near = [(d, key) for d, key in near if d <= allowed]
        if not near:
            return None
        best = min(d for d, _ in near)
        keys = [key for d, key in near if d == best]
        if len(keys) > 1:
            keys = _dropped_a_letter(word, keys)
        if len(keys) != 1:
            return None
        entries = [e for e in self.entries[keys[0]] if len(e.words) == 1 and not e.case_sensitive]
        return Mention(i, i + 1, entries) if entries else None

    def _by_code(self, token: Token, i: int) -> Mention | None:
        """An English word no phrase reads ('estimated', 'referrals', 'social'), read as the one code value
        nothing explains that the word begins with ('EST', 'REF', 'SOC'): a word cut short. Letters taken
        from further in ('STT' in 'state') fit too many words to be read without a comment."""
        word = token.low
        if not word.isalpha() or word in self._fillers or not lemmas(word):
            return None
        found = {code for code in self._codes.get(word[0], ()) if len(word) > len(code[1])
                 and word.startswith(code[1].lower())}
        if len(found) != 1:
            return None
        (dimension, value), = found
        return Mention(i, i + 1, [Entry((word,), "value", (dimension, value))])

    def _by_stem(self, token: Token, i: int) -> Mention | None:
        """A word no phrase reads, placed by its stem when that names one element only."""
        if not token.low.isalpha() or len(token.low) < _STEM_MIN:
            return None
        forms = lemmas(token.low)
        if forms and "NOUN" not in forms:  # 'flights that arrived': a verb tells how rows come to be, it names nothing
            return None
        entries = self.stems.get(stem(token.low), [])
        if len({(e.kind, e.payload) for e in entries}) != 1:
            return None
        if "ADJ" in forms and entries[0].kind == "dimension":
            return None  # 'the regional carriers': a kind of carrier, never 'by region'
        return Mention(i, i + 1, entries)

    def _matches_at(self, tokens: list[Token], i: int) -> list[Mention]:
        """Every phrase starting at token i, one mention per length."""
        by_length: dict[int, list[Entry]] = {}
        for entry in self.entries.get(tokens[i].low, []):
            n = len(entry.words)
            if i + n > len(tokens):
                continue
            window = tokens[i:i + n]
            if entry.case_sensitive:
                hit = all(t.text == w for t, w in zip(window, entry.words))
            else:
                hit = all(t.low == w for t, w in zip(window, entry.words))
            if hit and not (entry.kind == "month" and not _is_month_word(tokens, i)):
                by_length.setdefault(n, []).append(entry)
        # 'ship mode' for a column named shipmode, 'order priority' for orderpriority
        for n in (2, 3):
            if i + n <= len(tokens) and n not in by_length:
                joined = "".join(t.low for t in tokens[i:i + n])
                # 'jet blue' for JetBlue: a value's one word typed apart, never words of the question glued
                # into a code ('us air' is no USAIR code, 'la x' no LAX): a value needs a name's length
                found = [e for e in self.entries.get(joined, []) if len(e.words) == 1 and e.words[0] == joined
                         and (e.kind in _JOINABLE or e.kind == "value" and len(joined) >= _JOINED_VALUE_MIN
                              and not e.case_sensitive)]
                if found:
                    by_length[n] = found
        return [Mention(i, i + n, _own_names_first(entries)) for n, entries in by_length.items()]


# What a derived word may name, and the shortest word a stem is trusted for ('rate' and 'rating' are apart).
_STEMMED = ("value", "dimension", "entity", "flag")
_STEM_MIN = 5
# the shortest misspelt word read as a lexicon word ('avrage' for average; never a short code)
_SPELLING_MIN = 5
# the shortest value word read from words typed apart ('jet blue'): shorter ones are codes
_JOINED_VALUE_MIN = 6


_PERCENT_WORDS = ("%", "pct", "percent", "percentage")


def _owned_elsewhere(text: str, name: str, label_words: dict[str, set[str]]) -> bool:
    words = set(text.lower().split())
    return len(words) >= 2 and any(other != name and words <= own for other, own in label_words.items())


def _other_sides(texts: list[str], sides: list[str]) -> list[str]:
    """'arrived late' said the other way: 'arrived early'. A verb said with one side of a signed measure
    (vocabulary.yaml `signed_predicates`) names the same measure with any other side word, the reader
    taking the side from the word said. Only after a verb or noun: 'early' alone is no measure ('early 2013')."""
    found = []
    for text in texts:
        words = text.lower().split()
        if len(words) > 1 and words[-1] in sides:
            found += [" ".join([*words[:-1], side]) for side in sides if side != words[-1]]
    return [t for t in dict.fromkeys(found) if t not in texts]


def _with_qualifier_first(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A name that ends with a number and its unit (a column Viewers7Day: 'viewers 7 day') is said with
    them before the noun too: '7 day viewers', 'average 7-day viewers'."""
    if len(words) >= 3 and words[-2].isdigit() and words[-1].isalpha():
        return [words, (*words[:-3], words[-2], words[-1], words[-3])]
    return [words]


def _own_names_first(entries: list[Entry]) -> list[Entry]:
    """Where an element's own name and another's related word are said alike, the own name is meant."""
    own = [e for e in entries if not e.related]
    return own or entries


def _is_month_word(tokens: list[Token], i: int) -> bool:
    """'may' is a month only where a month can stand: 'in May', 'May through July', 'May 5'."""
    if tokens[i].low != "may":
        return True
    before = tokens[i - 1].low if i else ""
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    return (tokens[i].text == "May" and i > 0) or before in {"in", "of", "during", "between", "through", "to",
                                                             "and", "from", "until", "since"} or (
        after is not None and after.number is not None)


_LEXICONS: dict[tuple[int, int], tuple[SemanticModel, ValueIndex, Lexicon]] = {}


def lexicon_for(model: SemanticModel, values: ValueIndex) -> Lexicon:
    key = (id(model), id(values))
    cached = _LEXICONS.get(key)
    if cached is None or cached[0] is not model or cached[1] is not values:
        cached = (model, values, Lexicon(model, values))
        _LEXICONS[key] = cached
    return cached[2]


def _dropped_a_letter(word: str, keys: list[str]) -> list[str]:
    """Of words equally close to a slip, those it is with one letter left out ('acounts': accounts, not amounts):
    the commonest slip in typing."""
    def within(key: str) -> bool:
        rest = iter(key)
        return len(key) == len(word) + 1 and all(letter in rest for letter in word)
    return [key for key in keys if within(key)]
