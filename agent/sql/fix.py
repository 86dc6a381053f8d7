"""Fix SQL: make a broken query run on the warehouse with the smallest edits, and say why.

The loop is: repair the text until it parses, translate it to DuckDB, then ask the engine
(a dry run) and repair whatever its error names, a bounded number of rounds. Each edit is
reported as a `Change` (what and why); when no repair applies the result says so in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field
from sqlglot import exp

from agent.errors import AssistantError, SqlError, SqlSyntaxError, UnsafeSqlError
from agent.sql.diagnose import Problem, diagnose
from agent.sql.guard import UnknownNameError, ensure_read_only
from agent.sql.parse import clean_sql_text, parse_one_statement, sqlglot_dialect
from agent.sql.repair_text import repair_syntax_once
from agent.sql.repair_tree import repair

if TYPE_CHECKING:
    from agent.warehouse.engine import Schema

MAX_TEXT_EDITS = 8
_FUNCTION_NAME = re.compile(r"^\s*([\w.]+)\s*\(")


class Change(BaseModel):
    what: str
    why: str


class FixResult(BaseModel):
    original_sql: str
    fixed_sql: str = Field(description="DuckDB SQL, pretty-printed; the last attempt when not valid")
    changes: list[Change] = Field(default_factory=list)
    valid: bool
    reason: str | None = Field(default=None, description="why it gave up, or why nothing changed")


def fix_sql(
    sql: str,
    *,
    error: str | None = None,
    dialect: str = "presto",
    schema: Schema,
    dry_run: Callable[[str], None],
    max_rounds: int = 6,
    target: str = "duckdb",
) -> FixResult:
    """Repair `sql` (written in `dialect`) until the warehouse's dry run accepts it; the fixed
    SQL is written in `target`, the warehouse's own dialect."""
    read = sqlglot_dialect(dialect)
    target = sqlglot_dialect(target)

    def _pretty(tree: exp.Expression) -> str:
        return tree.sql(dialect=target, pretty=True)

    text = clean_sql_text(sql)
    changes: list[Change] = []

    def give_up(attempt: str, reason: str) -> FixResult:
        return FixResult(original_sql=sql, fixed_sql=attempt, changes=changes, valid=False, reason=reason)

    if not text:
        return give_up("", "There is no SQL to fix; paste the query after the command.")
    text = _repair_syntax(text, read, _known_names(schema), changes)
    try:
        tree = parse_one_statement(text, read)
    except SqlSyntaxError as exc:
        return give_up(text, f"I could not repair the syntax. {exc.user_message}")
    changes.extend(_dialect_changes(tree, read, target))
    try:
        tree = ensure_read_only(tree.sql(dialect=target), dialect=target)
    except UnknownNameError:
        pass  # a misspelt name: the dry run below names it and the repair loop fixes it
    except UnsafeSqlError as exc:
        return give_up(text, f"{exc.user_message} I only fix read-only queries.")
    except SqlSyntaxError as exc:
        return give_up(text, f"The query could not be translated to {_ENGINE_NAMES.get(target, target)}. {exc.user_message}")

    # The person's error is from their engine; ours is the judge of what runs here, so the
    # person's message is read only when the engine's own message names nothing fixable.
    user_problem = diagnose(error)
    seen: set[Problem] = set()
    for _ in range(max_rounds):
        attempt = tree.sql(dialect=target)
        try:
            dry_run(attempt)
        except UnknownNameError as exc:  # a typo the guard caught before the engine did
            failure: SqlError | None = exc
        except UnsafeSqlError as exc:
            return give_up(_pretty(tree), f"{exc.user_message} I only fix read-only queries.")
        except SqlError as exc:
            failure = exc
        except AssistantError as exc:
            return give_up(_pretty(tree), f"I could not check the query: {exc.user_message}")
        else:
            failure = None
        if failure is not None:
            problem = diagnose(failure.detail or failure.user_message)
            if problem is None and user_problem not in seen:
                problem = user_problem
            if problem is None or problem in seen:
                return give_up(_pretty(tree), _unfixable(failure))
            seen.add(problem)
            edit = repair(tree, problem, schema)
            if edit is None:
                return give_up(_pretty(tree), _no_repair(problem, failure))
            changes.append(Change(what=edit.what, why=edit.why))
            continue
        reason = None if changes else _nothing_to_fix(error)
        return FixResult(original_sql=sql, fixed_sql=_pretty(tree), changes=changes, valid=True, reason=reason)
    return give_up(
        _pretty(tree),
        f"After {max_rounds} rounds of repairs the warehouse still rejects the query; "
        "it needs a person's eye.",
    )


def _repair_syntax(text: str, read: str, known: set[str], changes: list[Change]) -> str:
    for _ in range(MAX_TEXT_EDITS):
        edit = repair_syntax_once(text, read, known)
        if edit is None:
            break
        text = edit.sql
        changes.append(Change(what=edit.what, why=edit.why))
    return text


def _known_names(schema: Schema) -> set[str]:
    """Names in the warehouse: a column called `form` is not a misspelt FROM."""
    names = {t.lower() for t in schema.tables}
    return names | {c.lower() for c in schema.all_column_names()}


_ENGINE_NAMES = {"duckdb": "DuckDB", "postgres": "PostgreSQL", "mysql": "MySQL", "trino": "Trino",
                 "snowflake": "Snowflake", "bigquery": "BigQuery", "clickhouse": "ClickHouse"}


def _dialect_changes(tree: exp.Expression, read: str, target: str) -> list[Change]:
    """Functions the warehouse knows under another name than the source dialect does."""
    if read == target:
        return []
    engine = _ENGINE_NAMES.get(target, target)
    renamed: dict[str, str] = {}
    for node in tree.find_all(exp.Func):
        before = _FUNCTION_NAME.match(node.sql(dialect=read))
        after = _FUNCTION_NAME.match(node.sql(dialect=target))
        if before and after and before.group(1).lower() != after.group(1).lower():
            renamed.setdefault(before.group(1).lower(), after.group(1).lower())
    return [
        Change(what=f"{old}() → {new}()", why=f"{old} is {read.title()} SQL; {engine} calls it {new}.")
        for old, new in renamed.items()
    ]


def _unfixable(exc: SqlError) -> str:
    return f"I could not find a safe repair. {exc.user_message}"


def _no_repair(problem: Problem, exc: SqlError) -> str:
    subject = {
        "unknown_table": f"the table {problem.name}",
        "unknown_column": f"the column {problem.name}",
        "unknown_function": f"the function {problem.name}",
        "not_grouped": f"how {problem.name} should be grouped",
        "ambiguous_column": f"which table's {problem.name} is meant",
    }[problem.kind]
    return f"I could not work out {subject}: nothing in the warehouse is close enough to be sure. {exc.user_message}"


def _nothing_to_fix(error: str | None) -> str:
    if error:
        return (
            "The query runs on this warehouse as written, so I could not reproduce the error "
            "you saw; it may come from data or settings on the other engine."
        )
    return "The query already runs on the warehouse as written; nothing needed changing."
