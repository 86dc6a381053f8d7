"""Which column points at which table's key: declared foreign keys, and references inferred from
names in any style ('StoreId', 'store_id', 'storeId', TPC-H's 'l_suppkey', a role such as
'ManagerId' or 'ReportsTo' pointing at people, a 'ParentId' pointing at its own table), each kept
only when its values are confirmed to lie inside the other table's key (`Probe`), never on the name
alone."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Callable, Literal

from agent.catalog.naming import bootstrap_words, column_prefix, key_stem, thing, words_of
from agent.warehouse import Schema

log = logging.getLogger(__name__)

_INTEGER = re.compile(r"int|serial|long|short|number\(\d+\)|numeric\(\d+\)|decimal\(\d+,\s*0\)|^number$", re.IGNORECASE)
_TEXT = re.compile(r"char|text|string|uuid|enum", re.IGNORECASE)


@dataclass(frozen=True)
class Reference:
    """`table.column` holds keys of `target` (its single-column primary key `target_column`)."""

    table: str  # keys of `Schema.tables`
    column: str
    target: str
    target_column: str
    how: Literal["declared", "name", "role"] = "declared"


# Is every (sampled) distinct value of the reference's column a key of its target? None: not known
# (no budget left, or the warehouse could not say).
Probe = Callable[[Reference], "bool | None"]


@dataclass
class Shape:
    """What the whole schema says about one table before its measures are written."""

    key: str
    name: str  # the semantic model's name
    entity: str | None  # the primary entity, when the table has a single-column key
    references: list[Reference] = field(default_factory=list)
    entity_refs: dict[str, str] = field(default_factory=dict)  # column -> foreign entity name
    role_refs: dict[str, Reference] = field(default_factory=dict)  # column -> a second or self reference
    bridge: bool = False

    def reference(self, column: str) -> Reference:
        return next(r for r in self.references if r.column == column)


@dataclass
class References:
    kept: list[Reference] = field(default_factory=list)
    rejected: list[Reference] = field(default_factory=list)  # named like a key, values elsewhere
    unchecked: list[Reference] = field(default_factory=list)  # no answer in the budget: not used

    def of(self, table: str) -> list[Reference]:
        return [r for r in self.kept if r.table == table]

    def summary(self) -> dict[str, int]:
        return {"declared": sum(r.how == "declared" for r in self.kept),
                "inferred": sum(r.how != "declared" for r in self.kept),
                "rejected": len(self.rejected), "unchecked": len(self.unchecked)}


def find_references(schema: Schema, probe: Probe | None) -> References:
    """Declared single-column foreign keys, then every name candidate that `probe` confirms; with no
    probe (no warehouse to ask) only the declared ones."""
    found = References()
    declared: set[tuple[str, str]] = set()
    for table, info in schema.info.items():
        for fk in info.foreign_keys:
            if len(fk.columns) == 1 and fk.table in schema.tables:
                found.kept.append(Reference(table, fk.columns[0], fk.table, fk.ref_columns[0] if fk.ref_columns
                                            else _key(schema, fk.table) or fk.columns[0]))
                declared.add((table, fk.columns[0]))
    by_column: dict[tuple[str, str], list[Reference]] = {}
    for ref in candidates(schema):
        if (ref.table, ref.column) not in declared:
            by_column.setdefault((ref.table, ref.column), []).append(ref)
    # keys that are another table's key first ('Ratings.EpisodeId' extends Episodes one to one): a
    # column whose values fit both points at the table extended, not at its extension
    ordered = sorted(by_column.values(), key=lambda options: _key(schema, options[0].table) != options[0].column)
    for options in ordered:
        confirmed = []
        for ref in options:
            verdict = probe(ref) if probe is not None else None
            if verdict is None:
                found.unchecked.append(ref)
            elif verdict:
                confirmed.append(ref)
            else:
                found.rejected.append(ref)
        named = [r for r in confirmed if r.how == "name"] or confirmed
        extensions = {r.table for r in found.kept if _key(schema, r.table) == r.column}
        named = [r for r in named if r.target not in extensions] or named
        if len({r.target for r in named}) == 1:
            found.kept.append(named[0])
        elif named:  # values fit two tables' keys and nothing in the name says which: none is used
            log.info("%s.%s could point at %s; not used", named[0].table, named[0].column,
                     ", ".join(r.target for r in named))
            found.rejected.extend(named)
    return found


def candidates(schema: Schema) -> list[Reference]:
    """Every (column, table) pair a name suggests, with a type that could hold the other's key."""
    words = bootstrap_words()
    keys = {table: key for table in schema.tables if (key := _key(schema, table))}
    names: dict[str, set[str]] = {}
    full_keys: dict[str, str] = {}  # a key's words as they stand ('region cd'), for a role put before them
    for table, key in keys.items():
        prefix = column_prefix([c.name for c in schema.tables[table]])
        full_keys[table] = "".join(words_of(key, prefix))
        stem = key_stem(words_of(key, prefix))
        own = thing(schema.info[table].name)
        names[table] = {"".join(stem), "".join(own)} - {""} if stem not in ((), ("id",), ("key",)) else {"".join(own)}
    people = set(words["people"])
    roles = words["roles"]
    found = []
    for table, columns in schema.tables.items():
        info = schema.info.get(table)
        if info is None:
            continue
        prefix = column_prefix([c.name for c in columns])
        own_key = info.primary_key[0] if len(info.primary_key) == 1 else None
        for column in columns:
            if _family(column.type) is None:
                continue
            said = words_of(column.name, prefix)
            stem = key_stem(said)
            keyish = stem != said
            pointing = keyish or said[-1:] in [(w,) for w in words["role_endings"]]
            for target, key in keys.items():
                if _family(_type_of(schema, target, key)) != _family(column.type):
                    continue
                how: Literal["name", "role"] | None = _named_after(stem, keyish, names[target], target == table) \
                    or _role_before_key(said, full_keys[target], target == table)
                if column.name == own_key and (how is None or "".join(stem) != "".join(thing(schema.info[target].name))):
                    continue  # a table's own key points elsewhere only when named after that table's thing
                if how is None and pointing and target != table and set(said) & set(roles["person"]) \
                        and thing(schema.info[target].name)[-1:] and thing(schema.info[target].name)[-1] in people:
                    how = "role"
                if how is None and target == table and set(said) & set(roles["self"]) and pointing:
                    how = "role"
                if how is not None:
                    found.append(Reference(table, column.name, target, key, how))
    return found


def _named_after(stem: tuple[str, ...], keyish: bool, target_names: set[str], own: bool) -> Literal["name"] | None:
    """'name' when the column's words are the target's key or thing ('store id', 'suppkey'), or end
    with them after a role ('home team id', 'billing address id')."""
    if own or not stem:
        return None
    joined = "".join(stem)
    if joined in target_names:
        return "name"
    if keyish and len(stem) > 1 and any("".join(stem[i:]) in target_names for i in range(1, len(stem))):
        return "name"
    return None


def _role_before_key(said: tuple[str, ...], key: str, own: bool) -> Literal["name"] | None:
    """'name' when the column is another table's key column with a role in front ('home region cd' for
    a region's 'region cd', 'ship to state code' for a state's 'state code'), whatever its key word."""
    if own or len(said) < 2 or len(key) < 3:
        return None
    return "name" if any("".join(said[i:]) == key for i in range(1, len(said))) else None


def _key(schema: Schema, table: str) -> str | None:
    info = schema.info.get(table)
    return info.primary_key[0] if info is not None and len(info.primary_key) == 1 else None


def _type_of(schema: Schema, table: str, column: str) -> str:
    return next((c.type for c in schema.tables.get(table, []) if c.name == column), "")


def _family(type_name: str) -> str | None:
    """integer or text: what keys are made of; a reference and its key share one."""
    if _INTEGER.search(type_name):
        return "integer"
    if _TEXT.search(type_name):
        return "text"
    return None
