"""Read SQL as people paste it (Slack fences, smart quotes, a trailing `;`) into one sqlglot tree.

Parse failures become `SqlSyntaxError` with the line and column of the problem and a sentence
that names what looks wrong, so the person can find it without reading a parser trace.
"""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError

from agent.errors import SqlError, SqlSyntaxError
from agent.sql.dialect import DEFAULT_DIALECT
from agent.sql.names import keyword_candidates

# Names people use for a dialect -> sqlglot's name for it.
_DIALECT_ALIASES = {
    "presto": "presto",
    "prestosql": "presto",
    "prestodb": "presto",
    "trino": "trino",
    "trinosql": "trino",
    "duckdb": "duckdb",
    "duck": "duckdb",
    "spark": "spark",
    "sparksql": "spark",
    "spark2": "spark2",
    "databricks": "databricks",
    "hive": "hive",
    "hivesql": "hive",
    "hiveql": "hive",
    "mysql": "mysql",
    "mariadb": "mysql",
    "postgres": "postgres",
    "postgresql": "postgres",
    "pg": "postgres",
    "sqlite": "sqlite",
    "bigquery": "bigquery",
    "snowflake": "snowflake",
    "redshift": "redshift",
    "clickhouse": "clickhouse",
    "oracle": "oracle",
    "tsql": "tsql",
    "sqlserver": "tsql",
    "mssql": "tsql",
    "athena": "athena",
}

_FENCE = re.compile(r"^```[ \t]*([A-Za-z][\w-]*)?[ \t]*\n?(.*?)\n?```$", re.DOTALL)
_SMART_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})

_TOKEN_REPR = re.compile(r"<Token token_type: TokenType\.(\w+), text: ([^,]*),[^>]*>")
_WORD = re.compile(r"[A-Za-z]+")

_PARSER_PHRASES = {
    "Expecting )": "a closing parenthesis ')' is missing",
    "Expecting (": "an opening parenthesis '(' is missing",
    "Invalid expression / Unexpected token": "this word or symbol is not expected here",
}


def sqlglot_dialect(name: str | None) -> str:
    """Map a person's dialect name ("Presto SQL", "PostgreSQL", "trino") to sqlglot's name."""
    if not name:
        return DEFAULT_DIALECT
    key = re.sub(r"[\s_\-]+", "", name.strip().lower())
    if key in _DIALECT_ALIASES:
        return _DIALECT_ALIASES[key]
    if key.endswith("sql") and key[:-3] in _DIALECT_ALIASES:
        return _DIALECT_ALIASES[key[:-3]]
    known = ", ".join(sorted({"presto", "trino", "duckdb", "spark", "hive", "mysql", "postgres"}))
    raise SqlError(f"I do not know the SQL dialect '{name}'; use one of: {known}.")


def clean_sql_text(sql: str) -> str:
    """The SQL inside what was pasted: no code fences, no wrapping backticks, no trailing `;`.

    Some clients and documents turn quotes into curly ones, which cannot be meant inside a query
    someone pastes. Slack's own escaping (&gt;) is undone by the bot before the text arrives here.
    """
    text = sql.translate(_SMART_QUOTES).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(2).strip()
    elif len(text) > 2 and text[0] == text[-1] == "`" and "`" not in text[1:-1]:
        text = text[1:-1].strip()
    while text.endswith(";"):
        text = text[:-1].rstrip()
    return text


def parse_statements(sql: str, dialect: str | type[Dialect] = DEFAULT_DIALECT) -> list[exp.Expr]:
    """Every statement in `sql` (already cleaned), or SqlSyntaxError pointing at the problem."""
    read = dialect if isinstance(dialect, type) else sqlglot_dialect(dialect)
    try:
        statements = sqlglot.parse(sql, read=read)
    except ParseError as error:
        raise _syntax_error(error, sql) from error
    except TokenError as error:
        raise _token_error(sql) from error
    return [s for s in statements if s is not None]


def parse_one_statement(sql: str, dialect: str | type[Dialect] = DEFAULT_DIALECT) -> exp.Expr:
    """Exactly one statement from pasted SQL, as a sqlglot tree."""
    text = clean_sql_text(sql)
    if not text:
        raise SqlSyntaxError("There is no SQL to read; paste the query after the command.")
    statements = parse_statements(text, dialect)
    if not statements:
        raise SqlSyntaxError("There is no SQL statement here, only comments or semicolons.")
    if len(statements) > 1:
        raise SqlSyntaxError(
            f"I found {len(statements)} statements separated by ';'; send one query at a time."
        )
    return statements[0]


def transpile(sql: str, read: str = DEFAULT_DIALECT, write: str = "duckdb") -> str:
    """One statement rewritten from one dialect to another (functions, quoting, casts)."""
    tree = parse_one_statement(sql, read)
    return tree.sql(dialect=sqlglot_dialect(write))


def pretty(sql: str, dialect: str = "duckdb") -> str:
    """The statement laid out one clause a line, for showing to people."""
    return parse_one_statement(sql, dialect).sql(dialect=sqlglot_dialect(dialect), pretty=True)


def _syntax_error(error: ParseError, sql: str) -> SqlSyntaxError:
    first = error.errors[0] if error.errors else {}
    line, end_col = first.get("line"), first.get("col")
    near = (first.get("highlight") or "").strip()
    description = first.get("description") or str(error).splitlines()[0]
    if "Required keyword" in description or "missing for" in description:
        phrase = "the statement stops before it is complete"
    else:
        description = _TOKEN_REPR.sub(_token_words, description)
        phrase = _PARSER_PHRASES.get(description, description[:1].lower() + description[1:])
    column = end_col - len(near) + 1 if (end_col and near) else end_col
    where = f" at line {line}, column {column}" if line and column else ""
    near_text = f" near '{near}'" if near else ""
    hint = _keyword_hint((first.get("start_context") or "") + " " + near)
    return SqlSyntaxError(
        f"The SQL has a syntax error{where}{near_text}: {phrase}.{hint}",
        detail=str(error),
        line=line,
        column=column,
    )


def _token_words(match: re.Match[str]) -> str:
    return "the end of the statement" if match.group(1) == "SENTINEL" else f"'{match.group(2)}'"


def _keyword_hint(text_before_error: str) -> str:
    """Name the misspelt keyword when one of the last words before the error is one."""
    for word in reversed(_WORD.findall(text_before_error)[-3:]):
        candidates = keyword_candidates(word)
        if len(candidates) == 1:
            return f" '{word}' may be a misspelling of {candidates[0]}."
    return ""


def _token_error(sql: str) -> SqlSyntaxError:
    position = unclosed_quote(sql)
    if position is None:
        return SqlSyntaxError("The SQL could not be read: it has a character I do not understand.")
    quote, line, column = position
    return SqlSyntaxError(
        f"The SQL has a syntax error at line {line}, column {column}: the quote {quote} opened "
        "there is never closed.",
        line=line,
        column=column,
    )


def unclosed_quote(sql: str) -> tuple[str, int, int] | None:
    """Where a string or quoted name starts and never ends: (quote, line, column); comments skipped."""
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end < 0 else end
            continue
        if sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if ch in "'\"`":
            close = i + 1
            while True:
                close = sql.find(ch, close)
                if close < 0:
                    line = sql.count("\n", 0, i) + 1
                    column = i - (sql.rfind("\n", 0, i) + 1) + 1
                    return ch, line, column
                if sql.startswith(ch * 2, close):  # doubled quote is an escaped quote
                    close += 2
                    continue
                break
            i = close + 1
            continue
        i += 1
    return None
