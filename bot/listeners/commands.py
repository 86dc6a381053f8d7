"""Slash command text -> (sql, error): SQL plain or in a ``` block; for /fixsql an error text may follow `--`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.render.mrkdwn import from_slack

_CODE_BLOCK = re.compile(r"```(?:sql\b)?\s*(.*?)```", re.S | re.I)
# A separator is a `--` standing alone between spaces; SQL line comments should come inside a code block.
_SEPARATOR = re.compile(r"\s--\s")

FIXSQL_USAGE = (
    "Usage: `/fixsql <sql> [-- error message]`\n"
    "For example: `/fixsql select carrier, count(*) from flights -- column carrier must appear in GROUP BY`\n"
    "Put SQL that contains `--` comments inside a ``` code block."
)
EXPLAINSQL_USAGE = "Usage: `/explainsql <sql>` (plain or inside a ``` code block)."


@dataclass(frozen=True)
class SqlCommand:
    sql: str
    error: str | None = None


def parse_sql_command(raw_text: str, *, allow_error: bool) -> SqlCommand | None:
    """None when there is no SQL at all (the caller shows the usage)."""
    text = from_slack(raw_text or "").strip()
    block = _CODE_BLOCK.search(text)
    if block:
        sql = block.group(1).strip()
        rest = (text[: block.start()] + " " + text[block.end() :]).strip()
        error = rest.removeprefix("--").strip() if allow_error else None
    elif allow_error and (separator := _SEPARATOR.search(f" {text} ")):
        padded = f" {text} "
        sql = padded[: separator.start()].strip()
        error = padded[separator.end() :].strip()
    else:
        sql, error = text, None
    if not sql:
        return None
    return SqlCommand(sql=sql, error=error or None)
