"""The read-only guard: one query that only reads the warehouse's own tables, or a refusal.

It is an allow-list at the top (SELECT / WITH / VALUES and set operations of them) and a
deny-list underneath (every node of the tree: writes, session commands, and table or scalar
functions that reach files, URLs, other databases, settings or the environment). The engine
is also opened read-only with external access off; this guard is the first lock, and the
one that can say in words why a statement was refused.
"""

from __future__ import annotations

import re

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from agent.errors import UnsafeSqlError
from agent.sql.parse import clean_sql_text, parse_statements, sqlglot_dialect

_WRITES = "would write data"
_SCHEMA = "would change the database's structure"
_SESSION = "would change the session or the engine"
_EXTERNAL = "would reach outside the warehouse"
_NOT_QUERY = "is not a query"

# Leading words of statements that are never a read query, with what they would do.
# Checked on tokens before parsing because sqlglot reads some of them as something
# harmless-looking (CHECKPOINT as a column) or cannot parse them at all (EXPORT DATABASE).
_STATEMENT_WORDS = {
    "INSERT": _WRITES, "UPDATE": _WRITES, "DELETE": _WRITES, "MERGE": _WRITES,
    "UPSERT": _WRITES, "REPLACE": _WRITES, "COPY": _WRITES, "EXPORT": _WRITES,
    "IMPORT": _WRITES, "UNLOAD": _WRITES, "LOAD": _SESSION,
    "CREATE": _SCHEMA, "ALTER": _SCHEMA, "DROP": _SCHEMA, "TRUNCATE": _SCHEMA,
    "RENAME": _SCHEMA, "COMMENT": _SCHEMA, "GRANT": _SCHEMA, "REVOKE": _SCHEMA,
    "ATTACH": _EXTERNAL, "DETACH": _EXTERNAL, "INSTALL": _SESSION, "FORCE": _SESSION,
    "PRAGMA": _SESSION, "SET": _SESSION, "RESET": _SESSION, "CALL": _SESSION,
    "EXECUTE": _SESSION, "EXEC": _SESSION, "PREPARE": _SESSION, "DEALLOCATE": _SESSION,
    "USE": _SESSION, "CHECKPOINT": _SESSION, "VACUUM": _SESSION, "ANALYZE": _SESSION,
    "BEGIN": _SESSION, "START": _SESSION, "COMMIT": _SESSION, "ROLLBACK": _SESSION,
    "ABORT": _SESSION, "END": _SESSION, "SAVEPOINT": _SESSION, "RELEASE": _SESSION,
    "LOCK": _SESSION, "UNLOCK": _SESSION, "KILL": _SESSION, "SHUTDOWN": _SESSION,
    "DESCRIBE": _NOT_QUERY, "DESC": _NOT_QUERY, "SHOW": _NOT_QUERY, "SUMMARIZE": _NOT_QUERY,
    "EXPLAIN": _NOT_QUERY, "PIVOT": _NOT_QUERY, "UNPIVOT": _NOT_QUERY,
}

# Tree nodes that never belong in a read query, wherever they appear.
_FORBIDDEN_NODES: tuple[tuple[type[exp.Expression], str, str], ...] = (
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
)

_READ_QUERIES = (exp.Select, exp.SetOperation, exp.Values)

# Functions, by lower-case name, that read files or URLs, query other databases, run SQL
# given as text, or reveal settings, secrets or the environment.
_FORBIDDEN_FUNCTIONS = frozenset({
    "glob", "sniff_csv", "query", "query_table", "getenv", "current_setting",
    "duckdb_secrets", "which_secret", "duckdb_settings", "duckdb_extensions",
    "load_extension", "install_extension", "json_execute_serialized_sql", "setseed",
    "checkpoint", "force_checkpoint", "arrow_scan", "python_map_function", "system",
    "shell", "ducklake_snapshots", "txid_current", "nextval", "currval",
    "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "lo_import",
    "lo_export", "dblink", "load_file", "sys_exec", "sys_eval", "xp_cmdshell",
    "openrowset", "opendatasource", "openquery",
})
_FORBIDDEN_PREFIXES = (
    "read_", "write_", "parquet_", "iceberg_", "delta_", "sqlite_", "postgres_", "mysql_",
    "pragma_", "set_", "http", "st_read", "excel_", "ducklake_", "azure_", "s3_", "gcs_",
    "hf_", "file_", "pg_read", "pg_ls",
)
_FORBIDDEN_SUFFIXES = ("_scan", "_attach", "_execute", "_query")

_FUNCTION_NAME = re.compile(r"^\s*([\w.]+)\s*\(")
# A table "name" with these characters is a file path or URL that DuckDB would open.
_PATH_LIKE = re.compile(r"[./\\:~*?]")


def ensure_read_only(sql: str, dialect: str = "duckdb") -> exp.Expression:
    """The parsed statement when it is one read-only query; UnsafeSqlError or SqlSyntaxError if not."""
    text = clean_sql_text(sql)
    read = sqlglot_dialect(dialect)
    _refuse_by_leading_word(text, read)
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
        _refuse_node(node)
    root = tree.unnest() if isinstance(tree, exp.Subquery) else tree
    if not isinstance(root, _READ_QUERIES):
        raise UnsafeSqlError(
            "I only run read-only queries (SELECT, WITH or VALUES); this statement is not one."
        )
    return tree


def _refuse_by_leading_word(text: str, read: str) -> None:
    """Refuse each statement whose first word is a known non-query keyword."""
    try:
        tokens = Dialect.get_or_raise(read).tokenize(text)
    except TokenError:
        return  # the parser reports the exact syntax problem
    at_start = True
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            at_start = True
            continue
        if at_start and token.token_type not in (TokenType.L_PAREN,):
            word = token.text.upper()
            if word in _STATEMENT_WORDS:
                raise UnsafeSqlError(_refusal(word, _STATEMENT_WORDS[word]))
            at_start = False


def _refuse_node(node: exp.Expression) -> None:
    for kind, label, effect in _FORBIDDEN_NODES:
        if isinstance(node, kind):
            raise UnsafeSqlError(_refusal(label, effect))
    if isinstance(node, exp.Func):
        for name in _function_names(node):
            if _is_forbidden_function(name):
                raise UnsafeSqlError(
                    f"I only run read-only queries on the warehouse's own tables; the function "
                    f"{name}() {_EXTERNAL} (files, URLs, other databases or settings)."
                )
    if (
        isinstance(node, exp.Table)
        and isinstance(node.this, exp.Identifier)
        and any(_PATH_LIKE.search(part.name) for part in node.parts)
    ):
        raise UnsafeSqlError(
            f"I only run read-only queries on the warehouse's own tables; '{node.name}' looks "
            "like a file or URL, and reading files is not allowed."
        )


def _function_names(node: exp.Func) -> set[str]:
    """Every name a function node may go by: as written, as sqlglot knows it, as DuckDB prints it."""
    names = set()
    if isinstance(node, exp.Anonymous):
        names.add(node.name.lower())
    else:
        names.update(n.lower() for n in node.sql_names())
    try:
        printed = _FUNCTION_NAME.match(node.sql(dialect="duckdb"))
    except Exception:  # noqa: BLE001 - printing is only a second opinion on the name
        printed = None
    if printed:
        names.add(printed.group(1).lower().rsplit(".", 1)[-1])
    return names


def _is_forbidden_function(name: str) -> bool:
    return (
        name in _FORBIDDEN_FUNCTIONS
        or name.startswith(_FORBIDDEN_PREFIXES)
        or name.endswith(_FORBIDDEN_SUFFIXES)
    )


def _refusal(label: str, effect: str) -> str:
    if effect == _NOT_QUERY:
        return (
            f"I only run read-only queries (SELECT, WITH or VALUES); {label} {effect} I can run."
        )
    return f"I only run read-only queries; this statement {effect} ({label})."
