"""The warehouse's own values, so 'JetBlue', 'Newark' or 'EWR' in a question become filters.

Values are read once per warehouse and model and kept in memory: the distinct values of
each dimension marked `values: true`, the readable names of coded values (airline names
for carrier codes, airport names for airport codes), and the model's short aliases.
"""

from __future__ import annotations

import difflib
import logging
import re
import threading
from collections import Counter
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from agent.errors import AssistantError
from agent.semantic.model.runtime import DimensionSource, SemanticModel
from agent.text.phrases import CALENDAR_WORDS, STOPWORDS, phrase
from agent.text.words import frequency, inflection, lemmas
from agent.warehouse import Warehouse
from agent.warehouse.base import quote

log = logging.getLogger(__name__)
_CODE = re.compile(r"[A-Z0-9]{2,4}")
_MANY_VALUES = 300
# the things' own names ('Bluewater Analytics', a customer company) are what people type most: read up to the
# warehouse's sample of distinct values, while other free text stops at _MANY_VALUES
_MANY_NAMES = 1500
# part numbers, SKUs and the like ('BV-21409'): typed as they are, read like the things' own names
_PART_CODE = re.compile(r"(?=[^\s]*[A-Za-z])(?=[^\s]*\d)[A-Za-z0-9][A-Za-z0-9._/-]{2,23}")


@dataclass(frozen=True)
class ValuePhrase:
    words: tuple[str, ...]  # lower case, or as typed when case_sensitive
    dimension: str
    value: str
    case_sensitive: bool
    needs_cue: bool = False  # an everyday word ('den', 'sea') is this value only after a cue ('to den')


@dataclass
class ValueIndex:
    values: dict[str, list[str]] = field(default_factory=dict)
    labels: dict[str, dict[str, str]] = field(default_factory=dict)  # dimension -> value -> name
    phrases: list[ValuePhrase] = field(default_factory=list)
    # table (or 'table.date dimension') -> its latest date: what 'last month' counts back from
    latest: dict[str, date | None] = field(default_factory=dict)
    read_latest: Callable[[str, str | None], date | None] | None = field(default=None, repr=False)
    # table -> its earliest date: with the latest, the span a period asked about must fall in
    earliest: dict[str, date | None] = field(default_factory=dict)
    read_earliest: Callable[[str], date | None] | None = field(default=None, repr=False)
    value_words: dict[str, dict[str, list[str]]] | None = field(default=None, repr=False)  # see `containing`
    # dimension -> the items of a column whose values are lists ('Mushrooms, Red Onions, Garlic'): a question
    # naming one means the rows whose list contains it
    items: dict[str, list[str]] = field(default_factory=dict)
    # table -> a name several of its things share -> their keys ('Aurora': artists 105 and 120): naming
    # one of them by that name is asked about, never answered for all of them together
    namesakes: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # dimension -> a value -> the names of the things that hold it, for the columns of small tables whose
    # things have a name ('Chicago' -> its three branches): 'the chicago branch' is asked about
    holders: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for a CPU worker without the warehouse reader (it stays in the bot's process): the
        latest dates go as read so far (`read_all_latest` reads them first)."""
        return {**self.__dict__, "read_latest": None, "read_earliest": None}

    def read_all_latest(self, model: SemanticModel) -> None:
        """Read now every latest date a question may count back from (each table's own, and by each of
        its date dimensions); a date read already is not read again."""
        if self.read_latest is None:
            return
        for spec in model.tables:
            self.latest_date(spec.name)
            self.earliest_date(spec.name)
            for dim in model.dimensions:  # dates only: a month number or a weekday name has no latest date
                if model.is_date(dim.name) and any(s.table == spec.name for s in dim.sources):
                    self.latest_date(spec.name, dim.name)

    def latest_date(self, table: str, dimension: str | None = None) -> date | None:
        """The latest date in the data of `table`, by its own time dimension or the date `dimension`
        the question names (None when there is none or the warehouse does not say), read on first use
        only: one MAX over the table, within the warehouse's query budget."""
        key = f"{table}.{dimension}" if dimension else table
        if key not in self.latest and self.read_latest is not None:
            with _CACHE_LOCK:
                if key not in self.latest:
                    try:
                        self.latest[key] = self.read_latest(table, dimension)
                    except DateUnread:  # the warehouse did not answer this time: asked again next time
                        return None
        return self.latest.get(key)

    def earliest_date(self, table: str) -> date | None:
        """The earliest date in the data of `table` by its own time dimension (None when unknown), read on
        first use only, like the latest."""
        if table not in self.earliest and self.read_earliest is not None:
            with _CACHE_LOCK:
                if table not in self.earliest:
                    try:
                        self.earliest[table] = self.read_earliest(table)
                    except DateUnread:
                        return None
        return self.earliest.get(table)

    def containing(self, word: str) -> dict[str, list[str]]:
        """Values of which `word` is one word ('urgent' in '1-URGENT'), by dimension: a word said
        about a value without saying all of it. The words of every value are indexed on first use."""
        if self.value_words is None:
            index: dict[str, dict[str, list[str]]] = {}
            for dimension, values in self.values.items():
                for value in values:
                    for part in set(re.split(r"[^0-9a-z]+", str(value).lower())) - {"", str(value).lower()}:
                        index.setdefault(part, {}).setdefault(dimension, []).append(value)
            self.value_words = index
        return {dimension: hits[:5] for dimension, hits in self.value_words.get(word.lower(), {}).items()}

    @classmethod
    def from_warehouse(cls, warehouse: Warehouse, model: SemanticModel) -> "ValueIndex":
        key = (id(warehouse), id(model))
        with _CACHE_LOCK:
            cached = _CACHE.get(key)
            if cached is not None and cached[0] is warehouse and cached[1] is model:
                return cached[2]
        read = {key: found for name in _value_dimensions(model)
                for key, found in _read_values_by_holder(warehouse, model, name).items()}
        index = cls.build(read, {name: _read_labels(warehouse, model, name) for name in read}, model)
        index.namesakes = _read_namesakes(warehouse, model, read)
        index.holders = _read_holders(warehouse, model, read)
        index.read_latest = lambda table, dimension: _read_latest(warehouse, model, table, dimension)
        index.read_earliest = lambda table: _read_latest(warehouse, model, table, None, first=True)
        with _CACHE_LOCK:
            _CACHE[key] = (warehouse, model, index)
        return index

    @classmethod
    def kept(cls, index: "ValueIndex", warehouse: Warehouse, model: SemanticModel) -> "ValueIndex":
        """`index`, read by `from_warehouse` in an earlier process and pickled, for `warehouse` and `model`
        in this one: its latest dates are read from `warehouse` again, and `from_warehouse` returns it."""
        index.read_latest = lambda table, dimension: _read_latest(warehouse, model, table, dimension)
        index.read_earliest = lambda table: _read_latest(warehouse, model, table, None, first=True)
        with _CACHE_LOCK:
            _CACHE[(id(warehouse), id(model))] = (warehouse, model, index)
        return index

    @classmethod
    def build(cls, values: dict[str, list[str]], labels: dict[str, dict[str, str]], model: SemanticModel) -> "ValueIndex":
        """Index already-read values (the warehouse-free half, also used by tests)."""
        index = cls(values={k: sorted(map(str, v)) for k, v in values.items()}, labels=labels)
        seen: set[ValuePhrase] = set()

        def add(words: tuple[str, ...], dimension: str, value: str, case_sensitive: bool,
                needs_cue: bool = False) -> None:
            item = ValuePhrase(words, dimension, value, case_sensitive, needs_cue)
            if not case_sensitive and all(w in grammar for w in words):
                return  # '[a]', 'The': a value whose words are all grammar is no value when said in lower case
            if words and item not in seen:
                seen.add(item)
                index.phrases.append(item)

        # Words the model uses itself ('day', 'delay'): typed in lower case they mean that, never a code.
        grammar = STOPWORDS | model.function_words
        model_words = model.vocabulary | CALENDAR_WORDS | grammar
        everyday = frozenset(model.everyday_words)
        suffixes = frozenset(model.name_suffixes)
        shared_aliases = _shared_aliases(model, values)
        # the reader's own words for what to do with the numbers ('average', 'total', 'top'): a review titled
        # 'Average' is that review only as typed, with its capital; in lower case the word is the average
        reading_words = {(w,) for words in model.aggregations.values() for w in words} | \
            {(w,) for w in (*model.ranking.descending, *model.ranking.ascending)}
        for name in values:
            dim = model.dimension_by_name[name]
            known = set(index.values[name])
            for value in index.values[name]:
                if len(value.strip()) == 1:  # 'A', 'R': a letter is this value only as typed and after its name
                    add((value.strip(),), name, value, True, needs_cue=True)
                    continue
                if _CODE.fullmatch(value):
                    add(tuple(value.split()), name, value, True)
                    if value.isalpha() and len(value) >= 2 and not _kinds_of(value, known):
                        add((value + "s",), name, value, True)  # 'how many DVDs': a code in the plural
                    low = value.lower()
                    if len(value) >= 3 and low not in model_words:
                        add((low,), name, value, False, needs_cue=low in everyday)
                    elif len(value) == 2 and low.isalpha() and low not in model_words:
                        add((low,), name, value, False, needs_cue=True)  # 'on aa': a two-letter code after a cue
                elif phrase(value) in reading_words:
                    add(tuple(value.split()), name, value, True)
                else:
                    for variant in _name_variants(value, suffixes) | _suffix_shortened(value, suffixes):  # 'BOMBARDIER INC' is also 'Bombardier'
                        add(variant, name, value, False)
                    for plural in _plurals(value):  # 'comedies' for Comedy, 'veggies' for Veggie
                        if plural not in model_words:  # 'leads' names the leads table, never people named Lead
                            add((plural,), name, value, False)
            for value, label in labels.get(name, {}).items():
                if value in known:
                    for variant in _name_variants(label, suffixes) | _suffix_shortened(label, suffixes):
                        add(variant, name, value, False)
            for short, value in _shared_short_names(index, name, suffixes):
                add(short, name, value, False)  # 'portland': Portland Intl, and Portland Intl Jetport too
            for word, value in _own_rare_words(labels.get(name, {}), known, model_words):
                add((word,), name, value, False)  # 'midway' for Chicago Midway Intl, 'dulles', 'ohare'
            for codes in ("size_codes", "region_codes"):  # 'large pizzas' where the size is 'L'; 'texas' for TX
                for value, words in _coded_words(index.values[name], model.shapes.get(codes, [])).items():
                    add(phrase(words), name, value, False)
            for item in _list_items(index.values[name]):
                index.items.setdefault(name, []).append(item)
                for variant in {phrase(item), *((p,) for p in _plurals(item)), *_singulars(item)}:
                    add(variant, name, item, False)
            for alias, value in ((a, v) for a, said in dim.value_aliases.items()
                                 for v in ([said] if isinstance(said, str) else said)):
                if value in known:
                    # 'Low', 'High' label the codes of several columns: they are this column's value only
                    # beside its name ('low job satisfaction'); so is a word the model uses for itself
                    said = phrase(alias)
                    cue = any(len(shared_aliases[key]) > 1 for key in _alias_keys(said)) or " ".join(said) in model_words
                    add(said, name, value, False, needs_cue=cue)
                    forms = lemmas(said[-1]) if said else {}
                    # 'no-shows', 'how many reefers'; never a verb's form ('booked': no 'bookeds')
                    if said and len(said[-1]) >= 3 and said[-1].isalpha() and (not forms or "NOUN" in forms):
                        for plural in inflection(said[-1], "NNS"):
                            if plural != said[-1]:
                                add((*said[:-1], plural), name, value, False, needs_cue=cue)
                    head = _head_of_a_label(said, dim.value_aliases, model_words)
                    if head is not None:  # 'on probation' for 'academic probation'
                        add((head,), name, value, False, needs_cue=cue)
                    for initials in _acronyms(said, grammar):  # 'OTAs' for 'online travel agency'
                        add((initials,), name, value, False, needs_cue=cue)
        for spelt in _other_spellings(index, model.short_forms):  # 'water damage' is 'water dmg' too
            add(spelt.words, spelt.dimension, spelt.value, spelt.case_sensitive, spelt.needs_cue)
        return index

    def suggest(self, dimension: str, text: str, n: int = 3) -> list[str]:
        """Known values close to what was typed, for 'did you mean' answers."""
        options = self.values.get(dimension, [])
        return difflib.get_close_matches(text.upper(), options, n=n, cutoff=0.4) or options[:n]

    def label(self, dimension: str, value: str) -> str:
        name = self.labels.get(dimension, {}).get(value)
        return f"{name} ({value})" if name else value


_CACHE: dict[tuple[int, int], tuple[Warehouse, SemanticModel, ValueIndex]] = {}
_CACHE_LOCK = threading.Lock()


def spelling_key(value: str, short: dict[str, str]) -> str:
    """A value as it reads whatever its case, spaces, punctuation and short forms: 'Blue Water Analytics' and
    'Bluewater Analytics', 'Water Damage' and 'water dmg' read the same."""
    words = re.findall(r"[a-z0-9]+", value.lower())
    return "".join(short.get(w, w) for w in words)


def _other_spellings(index: ValueIndex, short: dict[str, str]) -> list[ValuePhrase]:
    """Values of one column that read the same (one thing typed two ways in the source system): the phrases
    of each name the others too, so a question naming one means every spelling of it."""
    spelled: dict[tuple[str, str], list[str]] = {}
    for name, values in index.values.items():
        for value in values:
            spelled.setdefault((name, spelling_key(value, short)), []).append(value)
    others = {(name, v): [o for o in group if o != v] for (name, _), group in spelled.items() if len(group) > 1
              for v in group}
    return [ValuePhrase(p.words, p.dimension, other, p.case_sensitive, p.needs_cue)
            for p in index.phrases for other in others.get((p.dimension, p.value), [])]


def _alias_keys(said: tuple[str, ...]) -> set[tuple[str, ...]]:
    """A label as its words read whatever the form of the last one: 'hire' (a rating) and 'hired' (a status)
    are one word to someone asking about hires."""
    if not said:
        return set()
    *head, last = said
    forms = {form for found in lemmas(last).values() for form in found} | {last}
    return {(*head, form) for form in forms}


def _shared_aliases(model: SemanticModel, values: Iterable[str]) -> dict[tuple[str, ...], set[str]]:
    """Which columns label a code with each word ('Low' for several satisfaction scores; 'hire' for a rating
    and 'hired' for a stage): such a word is a column's value only beside that column's name."""
    shared: dict[tuple[str, ...], set[str]] = {}
    for name in values:
        for alias in model.dimension_by_name[name].value_aliases:
            for key in _alias_keys(phrase(alias)):
                shared.setdefault(key, set()).add(name)
    return shared


def _value_dimensions(model: SemanticModel) -> list[str]:
    return [d.name for d in model.dimensions if d.values]


def _read_values_by_holder(warehouse: Warehouse, model: SemanticModel, name: str) -> dict[str, list[str]]:
    """The dimension's values under its name. A column name several tables hold ('name' of artists and
    of playlists, 'status' of members and of invoices) is read on each: a value every one of them holds
    stays under the name; a value only some hold is kept under the name as each holder's entity
    qualifies it ('artist__name'), so a filter on it reads the table that has it, not the nearest one
    with a column of that name."""
    dim = model.dimension_by_name[name]
    own = [s for s in dim.sources if s.join is None]
    entities = [model.table_by_name[s.table].entity for s in own]
    if len(own) < 2 or not all(entities):
        return {name: _read_values(warehouse, model, name, own[0] if own else dim.sources[0])}
    held = [set(_read_values(warehouse, model, name, source)) for source in own]
    everywhere = set.intersection(*held)
    found = {name: sorted(everywhere)} if everywhere else {}
    for entity, values in zip(entities, held):
        if values - everywhere:
            found[f"{entity}__{name}"] = sorted(values - everywhere)
    return found


def _read_namesakes(warehouse: Warehouse, model: SemanticModel, read: dict[str, list[str]]
                    ) -> dict[str, dict[str, list[str]]]:
    """For each table whose things have a name column with its values read, the names several things share,
    with their keys. A table read without a single-column key, or whose read fails, has none (logged)."""
    found: dict[str, dict[str, list[str]]] = {}
    dialect = warehouse.dialect
    for spec in model.tables:
        name = model.name_dimension(spec.name)
        dim = model.dimension_by_name.get(name) if name else None
        if dim is None or dim.identifier or len(spec.primary_key) != 1 or not spec.entity \
                or not ({name, f"{spec.entity}__{name}"} & set(read)):
            continue
        column = next((s.expr for s in dim.sources if s.table == spec.name and s.join is None), None)
        if column is None or not re.fullmatch(r"\w+", column.strip('"`')):
            continue
        table = warehouse.schema().reference(spec.table, dialect)
        named, key = quote(column.strip('"`'), dialect), quote(spec.primary_key[0].strip('"`'), dialect)
        sql = (f"SELECT {named}, {key} FROM {table} WHERE {named} IN "
               f"(SELECT {named} FROM {table} GROUP BY {named} HAVING COUNT(*) > 1) ORDER BY 1, 2")
        try:
            result = warehouse.slots.call_blocking(warehouse.run, sql, budget_s=warehouse.budget_s())
        except AssistantError as exc:
            log.warning("could not read which %s share a name: %s", spec.name, exc)
            continue
        for value, thing in result.rows[:_MANY_VALUES]:
            found.setdefault(spec.name, {}).setdefault(str(value), []).append(str(thing))
    return found


def _read_holders(warehouse: Warehouse, model: SemanticModel, read: dict[str, list[str]]
                  ) -> dict[str, dict[str, list[str]]]:
    """For each table of few rows whose things have a name, the things holding each value of its other
    columns with values read (one read of the table)."""
    found: dict[str, dict[str, list[str]]] = {}
    dialect = warehouse.dialect
    for spec in model.tables:
        name = model.name_dimension(spec.name)
        dim = model.dimension_by_name.get(name) if name else None
        named = next((s.expr for s in dim.sources if s.table == spec.name and s.join is None), None) if dim else None
        if dim is None or dim.identifier or named is None or not re.fullmatch(r"\w+", named.strip('"`')):
            continue
        columns: list[tuple[str, str]] = []  # (the value index's dimension, its column here)
        for other in model.dimensions:
            key = next((k for k in (f"{spec.entity}__{other.name}", other.name) if k in read), None)
            source = next((s for s in other.sources if s.table == spec.name and s.join is None), None)
            if key and source and other.name != name and other.kind == "categorical" \
                    and re.fullmatch(r"\w+", source.expr.strip('"`')):
                columns.append((key, source.expr.strip('"`')))
        if not columns:
            continue
        table = warehouse.schema().reference(spec.table, dialect)
        listed = ", ".join(quote(c, dialect) for c in [named.strip('"`'), *(c for _, c in columns)])
        try:
            result = warehouse.slots.call_blocking(warehouse.run, f"SELECT {listed} FROM {table} LIMIT {_MANY_VALUES + 1}",
                                                   budget_s=warehouse.budget_s())
        except AssistantError as exc:
            log.warning("could not read what the %s hold: %s", spec.name, exc)
            continue
        if len(result.rows) > _MANY_VALUES:
            continue
        for row in result.rows:
            for (key, _), value in zip(columns, row[1:]):
                if value is not None and row[0] is not None:
                    found.setdefault(key, {}).setdefault(str(value), []).append(str(row[0]))
    return found


def _read_values(warehouse: Warehouse, model: SemanticModel, name: str, source: DimensionSource) -> list[str]:
    """The values of the dimension's column `source`; none for an expression, or for free text with more
    distinct values than people name (names, comments, addresses) unless the model gives it aliases or
    labels."""
    dim = model.dimension_by_name[name]
    column = source.expr.strip('"`')
    if not re.fullmatch(r"\w+", column):
        return []
    values = [str(v) for v in warehouse.distinct_values(model.table_by_name[source.table].table, column)]
    named = model.name_dimension(source.table) == name.rpartition("__")[2]
    many = _MANY_NAMES if named or all(_PART_CODE.fullmatch(v) for v in values) else _MANY_VALUES
    if len(values) > many and not (dim.value_aliases or dim.value_labels):
        return []
    return values


class DateUnread(Exception):
    """The warehouse did not answer a latest (or earliest) date this time (busy, slow): not known to be
    missing, so not kept as missing."""


def _read_latest(warehouse: Warehouse, model: SemanticModel, table: str, dimension: str | None, *,
                 first: bool = False) -> date | None:
    """The latest date of `table` (by `dimension`, else its own date); with `first`, the earliest."""
    spec = model.table_by_name.get(table)
    if spec is None:
        return None
    if dimension is None:  # the table's own date, or that of the rows it belongs to (order lines: the order's)
        source = model.dated_by(table)
    else:
        dim = model.dimension_by_name.get(dimension)
        source = next((s for s in dim.sources if s.table == table), None) if dim is not None else None
    if source is None:
        return None
    try:
        # quoted as the engine reads names: a mixed-case table ('fit."checkIns"') is no lower-case one
        owner = warehouse.schema().reference(model.table_by_name[source.table].table, warehouse.dialect)
        result = warehouse.run(f'SELECT {"min" if first else "max"}(CAST({source.expr} AS DATE)) FROM {owner}', row_cap=1)
    except AssistantError as exc:  # a question on 'last month' then says the latest date is unknown, this time
        log.warning("could not read the latest date of %s: %s", table, exc)
        raise DateUnread(str(exc)) from exc
    value = result.rows[0][0] if result.rows else None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10]) if value else None


def _read_labels(warehouse: Warehouse, model: SemanticModel, name: str) -> dict[str, str]:
    labels = model.dimension_by_name[name].value_labels
    if labels is None:
        return {}
    dialect = warehouse.dialect  # quoted as the engine reads names: MySQL takes "x" for a string
    table = warehouse.schema().reference(labels.table, dialect)
    sql = f"SELECT {quote(labels.key, dialect)}, {quote(labels.label, dialect)} FROM {table}"
    result = warehouse.slots.call_blocking(warehouse.run, sql, budget_s=warehouse.budget_s())
    return {str(key): str(label) for key, label in result.rows if key is not None and label is not None}


# what separates the items of a list kept in one text column
_LIST_SEPARATOR = re.compile(r"\s*[,;|]\s*")


def _coded_words(values: list[str], codes: list[str]) -> dict[str, str]:
    """Each value of a column of codes ('S', 'M', 'L'; 'TX', 'NY') and the words said for it; none unless
    every value is such a code."""
    said = {code: words for code, _, words in (c.partition(" ") for c in codes)}
    if len(values) < 2 or any(v.strip().upper() not in said for v in values):
        return {}
    return {v: said[v.strip().upper()] for v in values}


def _list_items(values: list[str]) -> list[str]:
    """The distinct items of a column whose values are lists: most values hold two or more items and items
    recur across values ('Mushrooms, Red Onions' and 'Garlic, Mushrooms'); none for any other column."""
    lists = [[p for p in _LIST_SEPARATOR.split(v.strip()) if p] for v in values]
    several = sum(1 for parts in lists if len(parts) >= 2)
    items = Counter(p for parts in lists for p in set(parts))
    if several < max(2, len(values) / 2) or not any(n > 1 for n in items.values()):
        return []
    return sorted(item for item in items if item not in values and any(c.isalpha() for c in item))


def _singulars(value: str) -> list[tuple[str, ...]]:
    """A plural item said in the singular ('Mushrooms' -> mushroom: 'a mushroom pizza')."""
    words = phrase(value)
    if not words or not words[-1].isalpha():
        return []
    from agent.text.words import lemma

    return [(*words[:-1], one) for one in lemma(words[-1], "NOUN") if one != words[-1]]


def _head_of_a_label(said: tuple[str, ...], labels: dict[str, str | list[str]], model_words: frozenset[str] | set[str]
                     ) -> str | None:
    """The noun of a code's two-word meaning after its adjective ('academic probation': probation), when no
    other meaning of the column and no name of the model has that word."""
    if len(said) != 2 or not said[1].isalpha() or len(said[1]) < 4 or said[1] in model_words:
        return None
    first, head = lemmas(said[0]), lemmas(said[1])
    if "ADJ" not in first or "NOUN" not in head:
        return None
    others = [phrase(label) for label in labels if phrase(label) != said]
    return None if any(head_word == said[1] for other in others for head_word in other) else said[1]


def _kinds_of(code: str, codes: set[str]) -> bool:
    """Do other codes of the column hold this one ('DIPA', 'NEIPA' beside 'IPA')? Then 'IPAs' may mean them all."""
    return any(code in other and other != code for other in codes)


def _plurals(value: str) -> list[str]:
    """The plural of a one-word value that is a noun ('Comedy' -> comedies), so 'horror flicks and comedies'
    finds both; a value that is already plural or not a word is left as it is."""
    word = value.strip()
    if not word.isalpha() or len(word) < 3 or not word[1:].islower():
        return []
    low = word.lower()
    return [p for p in inflection(low, "NNS") if p != low]


def _shared_short_names(index: ValueIndex, dimension: str, suffixes: frozenset[str]) -> list[tuple[tuple[str, ...], str]]:
    """A short name one value's name gives ('portland' of 'Portland Intl') that begins another value's name
    too ('Portland Intl Jetport'): said alone, it may mean either, so it is a name of both (the reader asks
    which, unless both are one thing spelt two ways)."""
    names = {value: phrase(index.labels.get(dimension, {}).get(value) or value) for value in index.values[dimension]
             if not _CODE.fullmatch(value) or value in index.labels.get(dimension, {})}
    shorts = {short for value, full in names.items()
              for short in _name_variants(" ".join(full), suffixes) if short != full}
    return [(short, value) for short in shorts for value, full in names.items()
            if len(full) > len(short) and full[:len(short)] == short]


# A word of a place's name said alone is that place only when English says it less often than this (Zipf):
# 'midway' (3.7), 'dulles', 'reagan' (3.95) are; 'liberty' (4.3), 'field', 'lake' are not. A proper name (no
# dictionary word: 'charlotte' 4.2, 'kennedy' 4.3) is, up to the second bound: above it first names and the
# like ('john' 5.4, 'george' 5.0) are too common to stand for one place.
_NAME_WORD_ZIPF = 4.0
_PROPER_NAME_ZIPF = 4.5


def _own_rare_words(labels: dict[str, str], known: set[str], model_words: Container[str]) -> list[tuple[str, str]]:
    """A word of one coded value's name only, rare in English or a proper name, and none of the model's own words
    ('midway' of Chicago Midway Intl, 'charlotte' of Charlotte Douglas Intl): said alone, people mean that value."""
    owners: dict[str, set[str]] = {}
    for value, label in labels.items():
        if value in known:
            for word in set(phrase(label)):
                owners.setdefault(word, set()).add(value)
    return [(word, next(iter(values))) for word, values in owners.items()
            if len(values) == 1 and len(word) >= 4 and word.isalpha() and word not in model_words
            and (frequency(word) < _NAME_WORD_ZIPF or (frequency(word) < _PROPER_NAME_ZIPF and not lemmas(word)))]


def _acronyms(words: tuple[str, ...], grammar: Container[str]) -> list[str]:
    """The initials of a name of three words or more ('online travel agency': ota, otas), when they are no word of
    the dictionary: people say 'OTAs' for it."""
    content = [w for w in words if w not in grammar and w[:1].isalpha()]
    initials = "".join(w[0] for w in content)
    if len(content) < 3 or len(initials) != len(content) or lemmas(initials):
        return []
    return [initials, initials + "s"]


def base_name(name: str, suffixes: frozenset[str]) -> tuple[str, ...]:
    """A name without the words people leave out ('CANADAIR LTD' -> canadair): two values with one base name
    are one thing spelt two ways."""
    return min(_name_variants(name, suffixes), key=len)


def _suffix_shortened(name: str, suffixes: frozenset[str]) -> set[tuple[str, ...]]:
    """'us air' for 'US Airways Inc.': a name whose first trailing word people leave out or cut short, with
    that word said as a shorter word of the same list ('air' of 'airways')."""
    words = phrase(name)
    found = set()
    for i in range(1, len(words)):
        if all(w in suffixes for w in words[i:]):
            found |= {words[:i] + (short,) for short in suffixes
                      if short != words[i] and words[i].startswith(short)}
            break
    return found


def _name_variants(name: str, suffixes: frozenset[str]) -> set[tuple[str, ...]]:
    """'JetBlue Airways' -> {('jetblue','airways'), ('jetblue',)}; never a bare common word."""
    words = phrase(name)
    variants = {words}
    trimmed = list(words)
    while len(trimmed) > 1 and trimmed[-1] in suffixes:
        trimmed.pop()
        short = tuple(trimmed)  # every step: "american airlines inc" -> "american airlines" -> "american"
        if not (len(short) == 1 and (len(short[0]) < 3 or short[0] in STOPWORDS)):
            variants.add(short)
    return variants
