"""Fix SQL: make a broken query run on the warehouse with the smallest edits, and say why.

The loop is: refuse what the guard refuses, repair the text until it parses, translate it to
DuckDB with its meaning kept (`dialect_meaning`), then ask the engine (a dry run) and repair
whatever its error names, a bounded number of rounds; a few mistakes the dry run cannot see
(a month name compared with a month number) are checked on the tree. Each edit is reported as
a `Change` (what and why); when no repair applies the result has no SQL and says why in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel, Field
from sqlglot import exp

from agent.errors import AssistantError, SqlError, SqlSyntaxError, UnsafeSqlError
from agent.sql.diagnose import Problem, diagnose
from agent.sql.dialect import DEFAULT_DIALECT
from agent.sql.dialect_meaning import dialect_title, keep_meaning, reader
from agent.sql.checked import CheckedQuery, SqlInput
from agent.sql.guard import UnknownNameError, check_query
from agent.sql.parse import clean_sql_text, parse_one_statement, sqlglot_dialect
from agent.sql.schema_view import SchemaView
from agent.sql.repair_text import repair_syntax_once
from agent.sql.repair_tree import Probe, mistyped_value, repair


MAX_TEXT_EDITS = 8
_FUNCTION_NAME = re.compile(r"^\s*([\w.]+)\s*\(")


class Change(BaseModel):
    what: str
    why: str


class FixResult(BaseModel):
    original_sql: str
    fixed_sql: str | None = Field(
        default=None, description="DuckDB SQL, pretty-printed; None when no fix was found"
    )
    changes: list[Change] = Field(default_factory=list)
    valid: bool
    refused: bool = Field(default=False, description="the guard refuses the statement; nothing was tried")
    reason: str | None = Field(default=None, description="why it gave up, or why nothing changed")


def fix_sql(
    sql: str,
    *,
    error: str | None = None,
    dialect: str = DEFAULT_DIALECT,
    schema: SchemaView,
    dry_run: Callable[[SqlInput], None],
    probe: Probe | None = None,
    max_rounds: int = 6,
    target: str = "duckdb",
) -> FixResult:
    """Repair `sql` (written in `dialect`) until the warehouse's dry run accepts it.

    `probe` runs small read queries so a repair can look at the data when names cannot decide
    (which column a join matches, which table's `year` a filter is about); without it those
    repairs are not tried. A result that is not valid carries no SQL, only the reason.
    """
    read = sqlglot_dialect(dialect)
    text = clean_sql_text(sql)
    changes: list[Change] = []

    def give_up(reason: str) -> FixResult:
        # No SQL goes back: a query that does not run is not a fix.
        return FixResult(original_sql=sql, changes=changes, valid=False, reason=reason)

    def refuse(exc: UnsafeSqlError) -> FixResult:
        reason = f"This statement is refused. {exc.user_message} I only fix queries that read data."
        return FixResult(original_sql=sql, changes=changes, valid=False, refused=True, reason=reason)

    if not text:
        return give_up("There is no SQL to fix; paste the query after the command.")
    first = _guard_reading(text, read)
    if isinstance(first, UnsafeSqlError):
        return refuse(first)
    if first is not None and reader(read) == read:
        tree = first.copy()  # it parses as pasted: the guard's reading is the one repaired (on a copy)
    else:
        text = _repair_syntax(text, read, _known_names(schema), changes)
        try:
            tree = parse_one_statement(text, reader(read))
        except SqlSyntaxError as exc:
            return give_up(f"I could not repair the syntax. {exc.user_message}")
    meaning = [Change(what=c.what, why=c.why) for c in keep_meaning(tree, read)]
    renames = _dialect_changes(tree, read)
    changes.extend(meaning + renames)
    if not (meaning or renames) and _written_differently(tree, read):
        changes.append(
            Change(
                what=f"{dialect_title(read)} → DuckDB SQL",
                why=f"the query is written in {dialect_title(read)}'s SQL; its {dialect_title(read)}-only "
                "parts are written the way DuckDB reads them, with the same meaning.",
            )
        )
    target = sqlglot_dialect(target)  # the warehouse's dialect: the fixed SQL is written in it
    checked: CheckedQuery | None = None  # the translated query's reading, dry-run as it is in the first round
    try:
        checked = check_query(tree.sql(dialect=target), dialect=target)
        tree = checked.tree.copy()  # repairs edit the copy; the reading stays as the guard made it
    except UnknownNameError:
        pass  # a misspelt name: the dry run below names it and the repair loop fixes it
    except UnsafeSqlError as exc:
        return refuse(exc)
    except SqlSyntaxError as exc:
        return give_up(f"The query could not be translated to DuckDB. {exc.user_message}")

    # The person's error is from their engine; ours is the judge of what runs here, so the
    # person's message is read only when the engine's own message names nothing fixable.
    user_problem = diagnose(error)
    seen: set[Problem] = set()
    for _ in range(max_rounds):
        attempt: SqlInput = checked if checked is not None else tree.sql(dialect=target)
        checked = None  # a repair below changes the tree: the next round's text is new
        try:
            _dry_run_naming_typos(dry_run, attempt)
        except UnsafeSqlError as exc:
            return refuse(exc)
        except SqlError as exc:
            problem = diagnose(exc.detail or exc.user_message)
            if problem is None and user_problem not in seen:
                problem = user_problem
            if problem is None or problem in seen:
                return give_up(_unfixable(exc))
            seen.add(problem)
            edit = repair(tree, problem, schema, probe)
            if edit is None:
                return give_up(_no_repair(problem, exc))
            changes.append(Change(what=edit.what, why=edit.why))
            continue
        except AssistantError as exc:
            return give_up(f"I could not check the query: {exc.user_message}")
        mistyped = mistyped_value(tree, schema)
        if mistyped is not None:
            if mistyped in seen:
                return give_up(_no_repair(mistyped, None))
            seen.add(mistyped)
            edit = repair(tree, mistyped, schema, probe)
            if edit is None:
                return give_up(_no_repair(mistyped, None))
            changes.append(Change(what=edit.what, why=edit.why))
            continue
        reason = None if changes else _nothing_to_fix(error)
        return FixResult(original_sql=sql, fixed_sql=_pretty(tree, target), changes=changes, valid=True, reason=reason)
    return give_up(
        f"After {max_rounds} rounds of repairs the warehouse still rejects the query; "
        "it needs a person's eye.",
    )


def _guard_reading(text: str, read: str) -> exp.Expr | UnsafeSqlError | None:
    """The guard's verdict on the statement as written, checked before any repair so a write or a
    file read is never turned into something that runs: its refusal, or the tree it read when it
    passed. None for text that does not parse or names something unknown: left to the repairs (and
    the guard checks again after them)."""
    try:
        return check_query(text, dialect=read).tree
    except UnknownNameError:
        return None  # perhaps a typo: repaired below, and the guard checks again after
    except UnsafeSqlError as exc:
        return exc
    except SqlError:
        return None


def _repair_syntax(text: str, read: str, known: set[str], changes: list[Change]) -> str:
    for _ in range(MAX_TEXT_EDITS):
        edit = repair_syntax_once(text, read, known)
        if edit is None:
            break
        text = edit.sql
        changes.append(Change(what=edit.what, why=edit.why))
    return text


def _known_names(schema: SchemaView) -> set[str]:
    """Names in the warehouse: a column called `form` is not a misspelt FROM."""
    names = {t.lower() for t in schema.tables}
    return names | {c.lower() for c in schema.all_column_names()}


def _dialect_changes(tree: exp.Expr, read: str) -> list[Change]:
    """Functions that DuckDB knows under another name than the source dialect does."""
    if read == "duckdb":
        return []
    renamed: dict[str, str] = {}
    for node in tree.find_all(exp.Func):
        before = _FUNCTION_NAME.match(node.sql(dialect=read))
        after = _FUNCTION_NAME.match(node.sql(dialect="duckdb"))
        # A CAST is a type conversion sqlglot adds, not another name for the same function.
        if before and after and after.group(1).lower() not in ("cast", "try_cast") \
                and before.group(1).lower() != after.group(1).lower():
            renamed.setdefault(before.group(1).lower(), after.group(1).lower())
    return [
        Change(what=f"{old}() → {new}()", why=f"{old} is {dialect_title(read)} SQL; DuckDB calls it {new}.")
        for old, new in renamed.items()
    ]


def _written_differently(tree: exp.Expr, read: str) -> bool:
    """The source dialect's text and DuckDB's differ in more than spacing and letter case."""
    if read == "duckdb":
        return False
    return tree.sql(dialect=read).upper().split() != tree.sql(dialect="duckdb").upper().split()


def _pretty(tree: exp.Expr, target: str = "duckdb") -> str:
    return tree.sql(dialect=target, pretty=True)


def _dry_run_naming_typos(dry_run: Callable[[SqlInput], None], sql: SqlInput) -> None:
    """The guard refuses a name nobody knows before the engine sees it; for repairs that is the
    engine's 'does not exist', which the loop can fix."""
    try:
        dry_run(sql)
    except UnknownNameError as exc:
        raise SqlError(exc.user_message, detail=exc.detail) from exc


def _unfixable(exc: SqlError) -> str:
    return f"I could not find a safe repair. {exc.user_message}{_where(exc)}"


def _no_repair(problem: Problem, exc: SqlError | None) -> str:
    if problem.kind == "bad_value":
        column = f"{problem.qualifier} " if problem.qualifier else ""
        return (
            f"I could not fix the value '{problem.name}': the column {column}it is compared with "
            "holds numbers, and I could not tell which number was meant."
        )
    subject = {
        "unknown_table": f"the table {problem.name}",
        "unknown_column": f"the column {problem.name}",
        "unknown_function": f"the function {problem.name}",
        "not_grouped": f"how {problem.name} should be grouped",
        "ambiguous_column": f"which table's {problem.name} is meant",
        "aggregate_in_where": "how to move the summary out of WHERE",
    }[problem.kind]
    detail = f" {exc.user_message}{_where(exc)}" if exc else ""
    return f"I could not work out {subject}: nothing in the warehouse is close enough to be sure.{detail}"


_ENGINE_LINE = re.compile(r"^LINE (\d+):(.*)$")


def _where(exc: SqlError) -> str:
    """Where in the query the engine points (DuckDB and Postgres print the line and a caret)."""
    lines = (exc.detail or "").splitlines()
    for i, line in enumerate(lines):
        found = _ENGINE_LINE.match(line)
        if not found or i + 1 >= len(lines):
            continue
        caret = lines[i + 1]
        start = caret.find("^")
        if start < 0:
            return f" (line {found.group(1)})"
        width = len(caret.strip())
        near = line[start : start + width].strip()
        return f" (line {found.group(1)}, at '{near}')" if near else f" (line {found.group(1)})"
    return ""


def _nothing_to_fix(error: str | None) -> str:
    if error:
        return (
            "The query runs on this warehouse as written, so I could not reproduce the error "
            "you saw; it may come from data or settings on the other engine."
        )
    return "The query already runs on the warehouse as written; nothing needed changing."
