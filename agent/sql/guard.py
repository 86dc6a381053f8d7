"""The read-only guard: one query that only reads the warehouse's own tables, or a refusal.

Everything is an allow-list: the statement must be SELECT / WITH / VALUES (or set
operations of them); every function must be on the dialect's reviewed list
(`agent.sql.allowlist`), table functions only the bounded generators; tables only the
warehouse's user tables, never system catalogs. Anything unknown is refused with a
sentence naming it. The text is bounded in length and nesting before it is parsed.

Underneath, every engine session is read-only as well (see `agent.warehouse`); this guard
is the first lock and the one that can say in words why a statement was refused.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokenizer_core import Token, TokenType

from agent.budget.inputs import check_sql
from agent.errors import UnsafeSqlError
from agent.sql.checked import CheckedQuery, SqlInput, sql_text
from agent.sql.allowlist import (
    LOCK_AND_SESSION_FUNCTIONS,
    MAX_GENERATED,
    SIZE_ARGUMENTS,
    SYSTEM_PREFIXES,
    SYSTEM_SCHEMAS,
    allowed_functions,
    duckdb_refused,
    table_functions,
)
from agent.sql.names import allowed_typos, edit_distance
from agent.sql.parse import clean_sql_text, parse_statements, sqlglot_dialect

_WRITES = "would write data"
_SCHEMA = "would change the database's structure"
_SESSION = "would change the session or the engine"
_EXTERNAL = "would reach outside the warehouse"
_NOT_QUERY = "is not a query"
_LOCKS = "would lock rows"
_LOCKS_OR_SESSION = "would take a lock, wait, or change the session or the server"

# Leading words of statements that are never a read query, with what they would do.
# Checked on tokens before parsing because sqlglot reads some of them as something
# harmless-looking (CHECKPOINT as a column) or cannot parse them at all (EXPORT DATABASE).
_STATEMENT_WORDS = {
    "INSERT": _WRITES, "UPDATE": _WRITES, "DELETE": _WRITES, "MERGE": _WRITES,
    "UPSERT": _WRITES, "REPLACE": _WRITES, "COPY": _WRITES, "EXPORT": _WRITES,
    "IMPORT": _WRITES, "UNLOAD": _WRITES, "LOAD": _SESSION, "PUT": _WRITES, "GET": _EXTERNAL,
    "CREATE": _SCHEMA, "ALTER": _SCHEMA, "DROP": _SCHEMA, "TRUNCATE": _SCHEMA,
    "RENAME": _SCHEMA, "COMMENT": _SCHEMA, "GRANT": _SCHEMA, "REVOKE": _SCHEMA,
    "REFRESH": _SCHEMA, "REINDEX": _SCHEMA, "CLUSTER": _SCHEMA, "OPTIMIZE": _SCHEMA,
    "REPAIR": _SCHEMA, "SECURITY": _SCHEMA, "UNDROP": _SCHEMA,
    "ATTACH": _EXTERNAL, "DETACH": _EXTERNAL, "INSTALL": _SESSION, "UNINSTALL": _SESSION,
    "FORCE": _SESSION, "PRAGMA": _SESSION, "SET": _SESSION, "RESET": _SESSION, "CALL": _SESSION,
    "EXECUTE": _SESSION, "EXEC": _SESSION, "PREPARE": _SESSION, "DEALLOCATE": _SESSION,
    "USE": _SESSION, "CHECKPOINT": _SESSION, "VACUUM": _SESSION, "ANALYZE": _SESSION,
    "BEGIN": _SESSION, "START": _SESSION, "COMMIT": _SESSION, "ROLLBACK": _SESSION,
    "ABORT": _SESSION, "END": _SESSION, "SAVEPOINT": _SESSION, "RELEASE": _SESSION,
    "LOCK": _SESSION, "UNLOCK": _SESSION, "KILL": _SESSION, "SHUTDOWN": _SESSION,
    "DO": _SESSION, "HANDLER": _SESSION, "FLUSH": _SESSION, "PURGE": _SESSION, "XA": _SESSION,
    "LISTEN": _SESSION, "NOTIFY": _SESSION, "UNLISTEN": _SESSION, "DISCARD": _SESSION,
    "DECLARE": _SESSION, "FETCH": _SESSION, "MOVE": _SESSION, "CLOSE": _SESSION,
    "CACHE": _SESSION, "CHECKSUM": _NOT_QUERY, "HELP": _NOT_QUERY, "BINLOG": _SESSION,
    "CHANGE": _SESSION, "SYSTEM": _SESSION, "TABLE": _NOT_QUERY,
    "DESCRIBE": _NOT_QUERY, "DESC": _NOT_QUERY, "SHOW": _NOT_QUERY, "SUMMARIZE": _NOT_QUERY,
    "EXPLAIN": _NOT_QUERY, "PIVOT": _NOT_QUERY, "UNPIVOT": _NOT_QUERY, "LIST": _NOT_QUERY,
}
# Words that anywhere in a statement mean it writes (SELECT ... INTO OUTFILE, INTO t).
_ANYWHERE_WORDS = {"INTO": ("SELECT INTO", _WRITES), "OUTFILE": ("INTO OUTFILE", _WRITES),
                   "DUMPFILE": ("INTO DUMPFILE", _WRITES), "PROCEDURE": ("PROCEDURE", _SESSION)}

# Tree nodes that never belong in a read query, wherever they appear.
_FORBIDDEN_NODES: tuple[tuple[type[exp.Expr], str, str], ...] = (
    (exp.Insert, "INSERT", _WRITES),
    (exp.Update, "UPDATE", _WRITES),
    (exp.Delete, "DELETE", _WRITES),
    (exp.Merge, "MERGE", _WRITES),
    (exp.Copy, "COPY", _WRITES),
    (exp.Into, "SELECT INTO", _WRITES),
    (exp.Create, "CREATE", _SCHEMA),
    (exp.Drop, "DROP", _SCHEMA),
    (exp.Alter, "ALTER", _SCHEMA),
    (exp.TruncateTable, "TRUNCATE", _SCHEMA),
    (exp.Attach, "ATTACH", _EXTERNAL),
    (exp.Detach, "DETACH", _EXTERNAL),
    (exp.Install, "INSTALL", _SESSION),
    (exp.Pragma, "PRAGMA", _SESSION),
    (exp.Set, "SET", _SESSION),
    (exp.Use, "USE", _SESSION),
    (exp.Transaction, "a transaction", _SESSION),
    (exp.Commit, "COMMIT", _SESSION),
    (exp.Rollback, "ROLLBACK", _SESSION),
    (exp.Command, "a command", _NOT_QUERY),
    (exp.Describe, "DESCRIBE", _NOT_QUERY),
    (exp.Show, "SHOW", _NOT_QUERY),
    (exp.Lock, "FOR UPDATE / FOR SHARE", _LOCKS),
    (exp.SessionParameter, "a session variable (@@...)", _SESSION),
    (exp.Parameter, "a variable (@...)", _SESSION),
)

_READ_QUERIES = (exp.Select, exp.SetOperation, exp.Values)
_GENERATORS = frozenset({"range", "generate_series", "sequence", "numbers", "generate_array",
                         "generate_date_array", "generate_subscripts"})

# Operators that sqlglot models as functions (AND, =, NOT, IN, LIKE): syntax, not calls.
_OPERATORS = (exp.Binary, exp.Connector, exp.Unary, exp.Predicate)
_ALL_ALLOWED = sorted(allowed_functions("duckdb") | allowed_functions("postgres") | allowed_functions("mysql"))
# Names that are dangerous on some engine even when DuckDB has never heard of them.
_DANGEROUS_PREFIXES = (
    "pg_", "lo_", "dblink", "sleep", "benchmark", "load_file", "get_lock", "release_lock", "sys_",
    "xp_", "set_config", "current_setting", "query_to", "table_to", "database_to", "version",
    "user", "session_user", "current_user", "connection_id", "system", "shell", "read_", "write_",
)
_CALL_NAME = re.compile(r"^\s*([\w.\"`]+)\s*\(")
# MySQL and MariaDB run what is inside /*! ... */ (and MariaDB /*M! ... */) as part of the statement,
# while every parser here reads it as a comment. Looked for anywhere, strings included: a quote
# escaped with a backslash can make a string end elsewhere for the engine than for a scanner.
_EXECUTABLE_COMMENT = re.compile(r"/\*\s*M?!", re.IGNORECASE)
# Words read without the tokenizer, for text it cannot read (a quote it thinks is never closed).
_FIRST_WORD = re.compile(r"^[\s(]*([A-Za-z]+)")
_ANY_WORD = re.compile(r"[A-Za-z]+")
# BigQuery's SAFE. prefix makes a built-in return NULL instead of failing; it names no schema.
_BUILTIN_QUALIFIERS = {"bigquery": ("safe",)}
# A table "name" with these characters is a file path or URL that DuckDB would open.
_PATH_LIKE = re.compile(r"[./\\:~*?]")


@dataclass(frozen=True)
class GuardPolicy:
    """What a query may read beyond the function allow-list.

    `tables` holds the warehouse's user tables, lower-case, both bare and schema-qualified;
    None means "not known" (only system catalogs are refused then). `user_functions` are the
    names of functions and macros someone created on the warehouse: called without a schema,
    DuckDB (and PostgreSQL, by its search path and argument types) may run one of them instead
    of the built-in of the same name, so those names are refused.
    """

    tables: frozenset[str] | None = None
    allow_system: bool = False
    user_functions: frozenset[str] = frozenset()


def ensure_read_only(
    sql: str, dialect: str = "duckdb", *, policy: GuardPolicy | None = None
) -> exp.Expr:
    """The parsed statement when it is one read-only query; UnsafeSqlError or SqlSyntaxError if not."""
    return check_query(sql, dialect, policy=policy).tree


def check_query(sql: SqlInput, dialect: str = "duckdb", *, policy: GuardPolicy | None = None) -> CheckedQuery:
    """`sql` read once and judged: a `CheckedQuery` when it is one read-only query under `policy`;
    UnsafeSqlError or SqlSyntaxError if not. The only parse a query needs (see agent.sql.checked). A query
    checked before is read again from its text (another dialect's reading: `recheck` judges a same-dialect
    one on its tree)."""
    text = clean_sql_text(sql_text(sql))
    check_sql(text)
    read = sqlglot_dialect(dialect)
    called = refuse_unsafe_words(text, read)
    statements = parse_statements(text, read)
    if not statements:
        raise UnsafeSqlError("There is no query here to run, only comments or semicolons.")
    if len(statements) > 1:
        raise UnsafeSqlError(
            f"I only run read-only queries, one at a time; this has {len(statements)} statements "
            "separated by ';'."
        )
    tree = statements[0]
    for node in tree.walk():
        for kind, label, effect in _FORBIDDEN_NODES:
            if isinstance(node, kind):
                raise UnsafeSqlError(_refusal(label, effect))
    root = tree.unnest() if isinstance(tree, exp.Subquery) else tree
    if not isinstance(root, _READ_QUERIES):
        raise UnsafeSqlError(
            "I only run read-only queries (SELECT, WITH or VALUES); this statement is not one."
        )
    return recheck(CheckedQuery(sql=text, dialect=read, tree=tree, called=tuple(called)), policy)


def recheck(query: CheckedQuery, policy: GuardPolicy | None) -> CheckedQuery:
    """`query` judged under `policy` (a warehouse's tables and functions) on its tree, without a parse."""
    policy = policy or GuardPolicy()
    if query.policy == policy:
        return query
    _Checker(query.tree, query.dialect, policy).check(list(query.called))
    return dataclasses.replace(query, policy=policy)


def refuse_unsafe_words(text: str, read: str) -> list[str]:
    """Refuse, before any parsing, what no read query contains: executable comments, leading words
    of statements that are not queries, INTO, qualified (user) functions and lock or session
    functions. Returns every name written as a call `name(`. A statement the parser cannot read
    is still refused with its reason rather than as a syntax error."""
    if _EXECUTABLE_COMMENT.search(text):
        raise UnsafeSqlError(
            "I only run read-only queries; this statement hides SQL in an executable comment "
            "(/*! … */ or /*M! … */), which MySQL and MariaDB would run as part of it. Write the "
            "query without it."
        )
    try:
        tokens = Dialect.get_or_raise(read).tokenize(text)
    except TokenError:
        _refuse_words_untokenized(text)
        return []  # the parser reports the exact syntax problem
    at_start = True
    called: list[str] = []
    for i, token in enumerate(tokens):
        if token.token_type == TokenType.SEMICOLON:
            at_start = True
            continue
        word = token.text.upper()
        if at_start and token.token_type != TokenType.L_PAREN:
            leading = word.split()[0] if word.split() else word  # a COMMAND token holds 'LOCK TABLES'
            if leading in _STATEMENT_WORDS:
                raise UnsafeSqlError(_refusal(leading, _STATEMENT_WORDS[leading]))
            at_start = False
        if word in _ANYWHERE_WORDS and token.token_type not in (TokenType.STRING, TokenType.IDENTIFIER):
            raise UnsafeSqlError(_refusal(*_ANYWHERE_WORDS[word]))
        if i + 1 < len(tokens) and tokens[i + 1].token_type == TokenType.L_PAREN:
            if token.text.lower() in LOCK_AND_SESSION_FUNCTIONS:
                raise _refuse_lock_or_session(token.text.lower())
            qualifier = _qualifier(tokens, i)
            if qualifier and qualifier.lower() not in _BUILTIN_QUALIFIERS.get(read, ()):
                _refuse_qualified(f"{qualifier}.{token.text}", read)
        if _is_call(tokens, i):
            called.append(token.text.lower())
    return called


def _refuse_words_untokenized(text: str) -> None:
    first = _FIRST_WORD.match(text)
    word = first.group(1).upper() if first else ""
    if word in _STATEMENT_WORDS:
        raise UnsafeSqlError(_refusal(word, _STATEMENT_WORDS[word]))
    for found in _ANY_WORD.finditer(text):
        upper = found.group(0).upper()
        if upper in ("OUTFILE", "DUMPFILE"):
            raise UnsafeSqlError(_refusal(*_ANYWHERE_WORDS[upper]))
        if upper.lower() in LOCK_AND_SESSION_FUNCTIONS and text[found.end():].lstrip().startswith("("):
            raise _refuse_lock_or_session(upper.lower())


def _qualifier(tokens: list[Token], i: int) -> str:
    """`db.schema` when the call at `i` is written `db.schema.fn(`; '' for a bare `fn(`."""
    parts: list[str] = []
    j = i
    while j >= 2 and tokens[j - 1].token_type == TokenType.DOT and _is_word(tokens[j - 2]):
        parts.insert(0, tokens[j - 2].text)
        j -= 2
    return ".".join(parts)


def _is_word(token: Token) -> bool:
    return token.token_type == TokenType.IDENTIFIER or bool(re.fullmatch(r"\w+", token.text))


def _refuse_qualified(name: str, read: str) -> None:
    """A function named with its schema or database is one someone created (a stored function, a
    macro, a UDF), whatever built-in it is named like; only the allow-list can name one."""
    if name.lower() in allowed_functions(read):
        return
    raise _qualified_refusal(name)


def _qualified_refusal(name: str) -> UnsafeSqlError:
    return UnsafeSqlError(
        f"I only run read-only queries with functions I know are safe; {name}() is a function "
        "named with its schema or database, so it is one someone created on the warehouse and "
        "could do anything, not a built-in. Use the built-in without the prefix, or ask the "
        "person who runs the bot to review it."
    )


def _refuse_shadowing(name: str) -> UnsafeSqlError:
    return UnsafeSqlError(
        f"I only run read-only queries with functions I know are safe; someone created a function "
        f"named {name} on this warehouse, and a call by that name could run it instead of the "
        "built-in. Ask the person who runs the bot to drop or rename it."
    )


def _refuse_lock_or_session(name: str) -> UnsafeSqlError:
    return UnsafeSqlError(
        f"I only run read-only queries; {name}() {_LOCKS_OR_SESSION}, which would outlast the "
        "answer on a shared connection."
    )


def _is_call(tokens: list[Token], i: int) -> bool:
    return (
        tokens[i].token_type in (TokenType.VAR, TokenType.IDENTIFIER)
        and i + 1 < len(tokens)
        and tokens[i + 1].token_type == TokenType.L_PAREN
    )


class _Checker:
    def __init__(self, tree: exp.Expr, read: str, policy: GuardPolicy):
        self.tree = tree
        self.read = read
        self.policy = policy
        self.allowed = allowed_functions(read)
        self.table_funcs = table_functions(read)
        self.ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
        # `t(a, b)` after AS or in WITH names columns, not a call.
        self.aliases = {a.name.lower() for a in tree.find_all(exp.TableAlias) if a.name}

    def check(self, called: list[str]) -> None:
        for dot in self.tree.find_all(exp.Dot):
            if isinstance(dot.expression, exp.Func):  # `db.fn(...)`, however it was spelt
                qualifier = dot.this.sql(dialect=self.read)
                if qualifier.lower() not in _BUILTIN_QUALIFIERS.get(self.read, ()):
                    function = dot.expression
                    name = function.name if isinstance(function, exp.Anonymous) else function.sql_name()
                    _refuse_qualified(f"{qualifier}.{name.lower()}", self.read)
        for name in called:
            if name in self.policy.user_functions and name not in self.aliases:
                raise _refuse_shadowing(name)
            if name not in self.aliases and name not in self.allowed and name not in self.table_funcs:
                raise _refuse_function(name)
        for node in self.tree.walk():
            if isinstance(node, exp.Func) and not isinstance(node, _OPERATORS):
                self._function(node)
            elif isinstance(node, exp.Table) and isinstance(node.this, exp.Identifier):
                self._table(node)

    def _function(self, node: exp.Func) -> None:
        name = self._name(node)
        if name in self.policy.user_functions:
            raise _refuse_shadowing(name)
        in_from = isinstance(node.parent, (exp.Table, exp.From, exp.Join)) and node.arg_key == "this"
        if in_from:
            if name not in self.table_funcs:
                raise UnsafeSqlError(
                    f"I only run read-only queries on the warehouse's own tables; the table "
                    f"function {name}() is not one I allow (only "
                    f"{', '.join(sorted(self.table_funcs)) or 'none'} on this warehouse)."
                )
        elif name not in self.allowed:
            raise _refuse_function(name)
        if name in _GENERATORS or isinstance(node, exp.GenerateSeries):
            _bound_generator(node, name)
        elif name in SIZE_ARGUMENTS:
            _bound_size(node, name)

    def _name(self, node: exp.Func) -> str:
        if isinstance(node, exp.Anonymous):
            return node.name.lower()
        try:
            printed = _CALL_NAME.match(node.sql(dialect=self.read))
        except Exception:  # noqa: BLE001 - some nodes do not print in every dialect
            printed = None
        if printed:
            name = printed.group(1).strip('"`').lower().rsplit(".", 1)[-1]
            if name in self.allowed or name in self.table_funcs:
                return name
        for alias in node.sql_names():
            if alias.lower() in self.allowed or alias.lower() in self.table_funcs:
                return alias.lower()
        return printed.group(1).strip('"`').lower() if printed else node.sql_name().lower()

    def _table(self, node: exp.Table) -> None:
        parts = [p.name for p in node.parts]
        if any(_PATH_LIKE.search(part) for part in parts):
            raise UnsafeSqlError(
                f"I only run read-only queries on the warehouse's own tables; '{node.name}' looks "
                "like a file or URL, and reading files is not allowed."
            )
        name = node.name.lower()
        alias = node.args.get("alias")
        if alias is not None and alias.columns and not alias.name and name not in self.table_funcs:
            # `FROM show(1)` parses as table `show` with columns `(1)`, but the engine calls it.
            raise UnsafeSqlError(
                f"I only run read-only queries on the warehouse's own tables; the table function "
                f"{name}() is not one I allow."
            )
        if len(parts) == 1 and name in self.ctes:
            return
        qualified = ".".join(p.lower() for p in parts)
        if not self.policy.allow_system and _is_system(parts):
            raise UnsafeSqlError(
                f"I only run read-only queries on the warehouse's own tables; {qualified} is a "
                "system catalog, which I do not read."
            )
        known = self.policy.tables
        if known is not None and qualified not in known and ".".join(p.lower() for p in parts[-2:]) not in known:
            detail = f"Table with name {node.name} does not exist!"
            candidates = sorted(k for k in known if "." not in k)
            if candidates:
                closest = min(candidates, key=lambda k: (edit_distance(name, k), -_shared_prefix(name, k)))
                detail += f' Did you mean "{closest}"?'
            raise UnknownTableError(
                f"I only run read-only queries on the warehouse's own tables; there is no table "
                f"{qualified} among them.",
                detail=detail,
            )


def _is_system(parts: list[str]) -> bool:
    lowered = [p.lower() for p in parts]
    return any(p in SYSTEM_SCHEMAS for p in lowered[:-1]) or any(
        p.startswith(SYSTEM_PREFIXES) for p in lowered
    )


def _number(node: exp.Expr | None) -> float | None:
    while isinstance(node, (exp.Cast, exp.Paren)):
        node = node.this
    if isinstance(node, exp.Neg):
        inner = _number(node.this)
        return -inner if inner is not None else None
    if isinstance(node, exp.Literal) and node.is_number:
        return float(node.this)
    return None


def _moment(node: exp.Expr | None) -> dt.datetime | None:
    while isinstance(node, (exp.Cast, exp.Paren, exp.TsOrDsToDate, exp.Date)):
        node = node.this
    if isinstance(node, exp.Literal) and node.is_string:
        try:
            return dt.datetime.fromisoformat(node.this)
        except ValueError:
            return None
    return None


_UNIT_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800,
                 "month": 2_592_000, "quarter": 7_776_000, "year": 31_536_000}


def _interval_seconds(node: exp.Expr | None) -> float | None:
    if not isinstance(node, exp.Interval):
        return None
    text = node.this.name if node.this is not None else ""
    unit = (node.unit.name if node.unit is not None else "").lower().rstrip("s")
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*?)s?\s*", text.lower())
    if not match:
        return None
    unit = unit or match.group(2)
    return float(match.group(1)) * _UNIT_SECONDS[unit] if unit in _UNIT_SECONDS else None


def _bound_generator(node: exp.Func, name: str) -> None:
    """A generator's size must be known from literals and at most MAX_GENERATED values."""
    if isinstance(node, exp.Anonymous):
        args = list(node.expressions)
        if len(args) == 1:
            args = [exp.Literal.number(0), args[0]]
        start, end, step = (args + [None, None, None])[:3]
    else:
        start, end, step = node.args.get("start"), node.args.get("end"), node.args.get("step")
    count: float | None = None
    lo, hi = _number(start), _number(end)
    if lo is not None and hi is not None:
        stride = _number(step) if step is not None else 1.0
        if stride:
            count = abs(hi - lo) / abs(stride)
    else:
        first, last = _moment(start), _moment(end)
        seconds = _interval_seconds(step) if step is not None else 86400.0
        if first and last and seconds:
            count = abs((last - first).total_seconds()) / seconds
    if count is None:
        raise UnsafeSqlError(
            f"I only run queries whose size I can bound; {name}() needs literal start, end and "
            "step values."
        )
    if count > MAX_GENERATED:
        raise UnsafeSqlError(
            f"I only run queries whose size I can bound; {name}() here would make about "
            f"{count:,.0f} values, more than the {MAX_GENERATED:,} I allow."
        )


def _bound_size(node: exp.Func, name: str) -> None:
    if isinstance(node, exp.Anonymous):
        index = SIZE_ARGUMENTS[name]
        size_arg = node.expressions[index] if len(node.expressions) > index else None
    else:
        size_arg = node.args.get("times") or node.args.get("expression")
        if size_arg is None and SIZE_ARGUMENTS[name] == 0:
            size_arg = node.this
    size = _number(size_arg)
    if size is None or size > MAX_GENERATED:
        raise UnsafeSqlError(
            f"I only run queries whose size I can bound; the length given to {name}() must be a "
            f"number up to {MAX_GENERATED:,}."
        )


class UnknownNameError(UnsafeSqlError):
    """A name nobody knows (likely a typo, which Fix SQL may repair); `detail` reads like an
    engine's own error so the repair can use it."""


class UnknownFunctionError(UnknownNameError):
    code = "unknown_function"


class UnknownTableError(UnknownNameError):
    code = "unknown_table"


def _refuse_function(name: str) -> UnsafeSqlError:
    """Known-dangerous names are refusals; names nobody knows read like an engine's error too."""
    if name in LOCK_AND_SESSION_FUNCTIONS:
        return _refuse_lock_or_session(name)
    if "." in name:  # one quoted name holding its qualifier: BigQuery's `project.dataset.fn`
        return _qualified_refusal(name)
    message = _unknown_function(name)
    if name in duckdb_refused() or name.startswith(_DANGEROUS_PREFIXES):
        return UnsafeSqlError(message)
    detail = f"function {name} does not exist"
    closest = min(_ALL_ALLOWED, key=lambda known: (edit_distance(name, known), -_shared_prefix(name, known)))
    if edit_distance(name, closest) <= allowed_typos(name):
        detail += f'. Did you mean "{closest}"?'
    return UnknownFunctionError(message, detail=detail)


def _shared_prefix(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _unknown_function(name: str) -> str:
    return (
        f"I only run read-only queries with functions I know are safe; {name}() is not on my "
        "list for this warehouse. Rewrite the query without it, or ask the person who runs the "
        "bot to review it."
    )


def _refusal(label: str, effect: str) -> str:
    if effect == _NOT_QUERY:
        return (
            f"I only run read-only queries (SELECT, WITH or VALUES); {label} {effect} I can run."
        )
    return f"I only run read-only queries; this statement {effect} ({label})."
