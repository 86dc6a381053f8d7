"""Who may read what: the policy's rules narrowed to one person in one channel, and the check
every query passes before it runs.

How rules combine (the README says the same): a rule applies when it names the person, the
channel, one of the person's groups, or everyone. What is readable is the intersection of
the `allow` lists of the rules that apply (the policy's `default` when none has one), minus
every applying rule's `deny`; `mask` from any applying rule masks. So a person in two groups
gets the more restrictive of the two, and a channel's rule limits everyone who asks there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path
from typing import TypeVar

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokenizer_core import TokenType

from agent.errors import AssistantError
from agent.policy.model import LoadedPolicy, PolicyFileError, Rule, field_name, line_of, load_policy_file
from agent.policy.reads import ColumnName, Reads, TableName, find_reads, spelt, table_of
from agent.sql.checked import SqlInput
from agent.sql.parse import sqlglot_dialect

Q = TypeVar("Q", bound=SqlInput)

MASK = "***"
SYSTEM_NAMES = frozenset({"information_schema", "pg_catalog", "sqlite_master", "sqlite_schema", "pg_class",
                          "pg_tables", "pg_attribute", "pg_namespace", "pg_roles", "pg_user", "pg_settings",
                          "performance_schema"})
MAX_NAMED = 3


class AccessDenied(AssistantError):
    """The access policy does not let this person read something the request needs."""

    code = "access_denied"


@dataclass(frozen=True)
class Identity:
    user: str | None = None
    channel: str | None = None
    groups: frozenset[str] = frozenset()


@dataclass(frozen=True)
class NamePattern:
    """A policy pattern ('schema.table' or 'schema.table.column', globs allowed) as it matches this
    warehouse's names: spelt exactly when it matches some name exactly, so `bakers` and `Bakers` stay
    apart where the engine keeps both; regardless of letter case when it matches nothing exactly (a deny
    written `orders` for the table the engine lists as `Orders` still denies it: never fails open)."""

    text: str
    blind: bool = False

    @property
    def columned(self) -> bool:
        return self.text.count(".") == 2

    def matches(self, table: TableName, column: str | None = None) -> bool:
        parts = self.text.split(".")
        names: list[str | None] = [table[0], table[1], column]
        if self.blind:
            parts = [p.lower() for p in parts]
            names = [n.lower() if n is not None else None for n in names]
        if not (fnmatchcase(names[0] or "", parts[0]) and fnmatchcase(names[1] or "", parts[1])):
            return False
        if len(parts) == 2:
            return True
        return names[2] is not None and fnmatchcase(names[2], parts[2])


def qualified(patterns: Iterable[str], default_schema: str) -> tuple[str, ...]:
    """A pattern without a schema ('orders') names a table of the default schema ('public.orders')."""
    return tuple(p if "." in p else f"{default_schema}.{p}" for p in patterns)


def name_patterns(patterns: Iterable[str], tables: dict[TableName, list[str]], default_schema: str) -> tuple[NamePattern, ...]:
    """The patterns as they match `tables`: exactly where any name matches exactly, else case-blind."""
    found = []
    for text in qualified(patterns, default_schema):
        exact = NamePattern(text)
        hit = any(exact.matches(table, column) for table, columns in tables.items()
                  for column in (columns if exact.columned else [None]))
        found.append(exact if hit else NamePattern(text, blind=True))
    return tuple(found)


class Policy:
    """A validated policy file; `access_for` gives one person's view of the warehouse."""

    def __init__(self, loaded: LoadedPolicy):
        self.loaded = loaded
        self.data = loaded.data

    @classmethod
    def load(cls, path: Path | str) -> "Policy":
        return cls(load_policy_file(path))

    @property
    def contact(self) -> str:
        return self.data.contact

    def groups_of(self, identity: Identity) -> frozenset[str]:
        defined = {name for name, members in self.data.groups.items() if identity.user in members}
        return frozenset(identity.groups | defined)

    def rules_for(self, identity: Identity) -> list[Rule]:
        groups = self.groups_of(identity)
        return [
            rule for rule in self.data.rules
            if rule.everyone
            or (identity.user is not None and identity.user in rule.users)
            or (identity.channel is not None and identity.channel in rule.channels)
            or groups.intersection(rule.groups)
        ]

    def access_for(self, identity: Identity, tables: dict[TableName, list[str]], default_schema: str,
                   dialect: str = "duckdb") -> "Access":
        rules = self.rules_for(identity)
        return Access(
            tables=tables,
            default_schema=default_schema,
            dialect=dialect,
            contact=self.contact,
            restricted=True,
            allow_lists=tuple(name_patterns(r.allow, tables, default_schema) for r in rules if r.allow is not None),
            default_allow=self.data.default == "allow",
            deny=name_patterns([p for r in rules for p in r.deny], tables, default_schema),
            mask=name_patterns([p for r in rules for p in r.mask], tables, default_schema),
        )

    def may_answer_for(self, clicker: Identity, owner: str | None) -> bool:
        """Whether `clicker` may answer a question `owner` asked (Run, Edit, Cancel, a choice)."""
        if owner is None or clicker.user == owner:
            return True
        return bool(self.groups_of(clicker).intersection(self.data.run_button))

    def may_teach(self, who: Identity) -> bool:
        """Whether `who` may confirm a learned word or a verified query for the whole workspace."""
        teach = self.data.teach
        return teach is None or who.user in teach or bool(self.groups_of(who).intersection(teach))

    def check_against(self, tables: dict[TableName, list[str]], default_schema: str) -> None:
        """Stop start-up on a pattern that names nothing: a misspelt deny would quietly grant."""
        problems = []
        for index, rule in enumerate(self.data.rules):
            for kind in ("allow", "deny", "mask"):
                for position, pattern in enumerate(name_patterns(getattr(rule, kind) or [], tables, default_schema)):
                    if not any(
                        pattern.matches(table, column)
                        for table, columns in tables.items()
                        for column in (columns if pattern.columned else [None])
                    ):
                        loc = ("rules", index, kind, position)
                        problems.append(
                            f"line {line_of(self.loaded.lines, loc)}, {field_name(loc)}: "
                            f"'{pattern.text}' matches no table or column in the warehouse"
                        )
        if problems:
            raise PolicyFileError(f"The access policy file {self.loaded.path} is invalid: " + "; ".join(problems))


@dataclass(frozen=True)
class Access:
    """One person's read rights; `unrestricted` when no policy is configured."""

    tables: dict[TableName, list[str]] = field(hash=False, compare=False)
    default_schema: str = "main"
    dialect: str = "duckdb"  # the warehouse's: what SQL is read as unless a caller says otherwise
    contact: str = ""
    restricted: bool = False
    allow_lists: tuple[tuple[NamePattern, ...], ...] = ()
    default_allow: bool = True
    deny: tuple[NamePattern, ...] = ()
    mask: tuple[NamePattern, ...] = ()

    @classmethod
    def unrestricted(cls, tables: dict[TableName, list[str]], default_schema: str = "main",
                     dialect: str = "duckdb") -> "Access":
        return cls(tables=tables, default_schema=default_schema, dialect=dialect)

    @property
    def key(self) -> tuple[bool, tuple[tuple[NamePattern, ...], ...], bool, tuple[NamePattern, ...], tuple[NamePattern, ...]]:
        """Equal for two people with the same rights, so their filtered views can be shared."""
        return (self.restricted, self.allow_lists, self.default_allow, self.deny, self.mask)

    # -- names ----------------------------------------------------------------------------

    def table_of(self, name: str) -> TableName | None:
        """The table a schema key, a catalog name or a relation names ('orders', 'sales.orders',
        quoted parts), spelt as the engine lists it."""
        return table_of(name, self.default_schema, self.tables)

    def column_of(self, table: TableName, column: str) -> str | None:
        return spelt(column, self.tables.get(table, ()))

    # -- what is readable ----------------------------------------------------------------

    def column_readable(self, table: TableName, column: str) -> bool:
        if not self.restricted:
            return True
        if self.allow_lists:
            allowed = all(any(p.matches(table, column) for p in allow) for allow in self.allow_lists)
        else:
            allowed = self.default_allow
        return allowed and not any(p.matches(table, column) for p in self.deny)

    def table_readable(self, table: TableName) -> bool:
        if not self.restricted:
            return True
        if any(not p.columned and p.matches(table) for p in self.deny):
            return False
        return any(self.column_readable(table, c) for c in self.tables.get(table, []))

    def masked(self, table: TableName, column: str) -> bool:
        return self.restricted and any(p.matches(table, column) for p in self.mask)

    @cached_property
    def readable(self) -> dict[TableName, list[str]]:
        """The tables this person may read, each with the columns they may read."""
        return {
            table: [c for c in columns if self.column_readable(table, c)]
            for table, columns in self.tables.items()
            if self.table_readable(table)
        }

    def hidden(self) -> bool:
        """Whether anything at all is out of this person's sight."""
        return self.readable != self.tables

    @cached_property
    def masked_columns(self) -> frozenset[ColumnName]:
        """The columns this person may name but whose values they may not see."""
        return frozenset((*t, c) for t, columns in self.readable.items() for c in columns if self.masked(t, c))

    def narrowed(self) -> bool:
        """Whether this person's words need their own view: something hidden, or values masked."""
        return self.restricted and (self.hidden() or bool(self.masked_columns))

    # -- the check ------------------------------------------------------------------------

    def reads(self, sql: SqlInput, dialect: str | None = None) -> Reads:
        return find_reads(sql, dialect or self.dialect, self.tables, self.default_schema)

    def authorize(self, sql: Q, dialect: str | None = None, *, reads: Reads | None = None) -> Q | str:
        """The SQL to run for this person, or AccessDenied naming why: `sql` itself, or the text with
        masked columns rewritten. `reads` (what `sql` reads, when the caller has it) saves reading it again."""
        if not self.restricted:
            return sql
        dialect = dialect or self.dialect
        reads = reads or self.reads(sql, dialect)
        if reads.unknown:
            raise self._refusal(
                reads.unknown,
                "{names} {is_are} not a table you can read here (system catalogs and table functions are off "
                "under the data access policy)",
            )
        tables = sorted(t for t in reads.tables if not self.table_readable(t))
        if tables:
            raise self._refusal([self._name(t) for t in tables], "You don't have access to the table {names}")
        columns = sorted(c for c in reads.columns if not self.column_readable(c[:2], c[2]))
        for table in sorted(reads.whole_rows):
            columns += [(*table, c) for c in self.tables[table] if not self.column_readable(table, c)]
        if columns:
            names = [self._name(c) for c in dict.fromkeys(columns)]
            raise self._refusal(names, "You don't have access to the column {names}")
        masked_whole = sorted({(*t, c) for t in reads.whole_rows for c in self.tables[t] if self.masked(t, c)})
        masked_unplaced = sorted(c for c in reads.unplaced if self.masked(c[:2], c[2]))
        if masked_whole or masked_unplaced:
            names = [self._name(c) for c in masked_whole + masked_unplaced]
            raise self._refusal(
                names, "The column {names} {is_are} masked for you, so name the columns you need (with their table)"
            )
        to_mask = [(node, c) for node, c in reads.column_nodes if self.masked(c[:2], c[2])]
        if not to_mask:
            return sql
        for node, _ in to_mask:
            node.replace(_masked_value(node))
        return reads.tree.sql(dialect=sqlglot_dialect(dialect))

    def authorize_text(self, sql: str, dialect: str | None = None) -> None:
        """For SQL too broken to parse: refuse when its words name a hidden table, column or catalog."""
        if not self.restricted:
            return
        try:
            tokens = Dialect.get_or_raise(sqlglot_dialect(dialect or self.dialect)).tokenize(sql)
        except TokenError:
            return
        words = {t.text.lower().strip('"`') for t in tokens if t.token_type in (TokenType.VAR, TokenType.IDENTIFIER)}
        hidden_tables = [t for t in self.tables if not self.table_readable(t) and t[1].lower() in words]
        if hidden_tables:
            raise self._refusal([self._name(t) for t in sorted(hidden_tables)], "You don't have access to the table {names}")
        if words & SYSTEM_NAMES or any(w.startswith("duckdb_") for w in words):
            raise self._refusal(sorted(words & SYSTEM_NAMES) or ["duckdb_*"], "{names} {is_are} not a table you can read "
                                "here (system catalogs are off under the data access policy)")
        readable = self.readable
        # broken SQL is read without the engine's case rules: a word naming a hidden column in any case refuses
        readable_words = {c.lower() for cols in readable.values() for c in cols}
        hidden_columns = sorted(
            (*t, c) for t, columns in self.tables.items() if t in readable for c in columns
            if c.lower() in words and c not in readable[t] and c.lower() not in readable_words
        )
        if hidden_columns:
            raise self._refusal([self._name(c) for c in hidden_columns], "You don't have access to the column {names}")

    def _name(self, name: TableName | ColumnName) -> str:
        return ".".join(name)

    def _refusal(self, names: list[str], template: str) -> AccessDenied:
        shown = names[:MAX_NAMED]
        listed = ", ".join(shown) + (f" and {len(names) - len(shown)} more" if len(names) > len(shown) else "")
        text = template.format(names=listed, is_are="is" if len(names) == 1 else "are")
        return AccessDenied(f"{text}. Ask {self.contact} if you need it.", detail=", ".join(names))


def _masked_value(node: exp.Column) -> exp.Expr:
    """A masked column shows as *** where it is selected, and counts as NULL anywhere else."""
    if isinstance(node.parent, exp.Alias) and isinstance(node.parent.parent, exp.Select) \
            and node.parent.arg_key == "expressions":
        return exp.Literal.string(MASK)
    if isinstance(node.parent, exp.Select) and node.arg_key == "expressions":
        return exp.alias_(exp.Literal.string(MASK), node.name)
    return exp.Null()
