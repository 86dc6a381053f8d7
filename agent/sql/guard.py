"""TEMPORARY minimal guard so the warehouse can be exercised; replaced by the SQL-layer work."""
import sqlglot
from agent.errors import UnsafeSqlError, SqlSyntaxError

def ensure_read_only(sql: str, dialect: str = "duckdb"):
    try:
        stmts = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise SqlSyntaxError(f"The SQL has a syntax error: {exc}") from exc
    if len(stmts) != 1 or not isinstance(stmts[0], (sqlglot.exp.Select, sqlglot.exp.Union)):
        raise UnsafeSqlError("Only a single SELECT is allowed.")
    return stmts[0]
