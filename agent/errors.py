"""Typed errors whose `user_message` is a sentence a person understands.

Every layer raises one of these for expected failures; the bot shows `user_message`
(never a traceback) and logs the request id beside the exception.
"""

from __future__ import annotations


class AssistantError(Exception):
    """Base class: `code` is stable for programs, `user_message` is for people."""

    code = "error"

    def __init__(self, user_message: str, *, detail: str | None = None):
        super().__init__(user_message)
        self.user_message = user_message
        self.detail = detail


class SettingsError(AssistantError):
    code = "settings"


class SqlError(AssistantError):
    """The SQL itself is at fault (syntax, unknown name, wrong shape)."""

    code = "sql"

    def __init__(
        self,
        user_message: str,
        *,
        detail: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ):
        super().__init__(user_message, detail=detail)
        self.line = line
        self.column = column


class SqlSyntaxError(SqlError):
    code = "sql_syntax"


class UnsafeSqlError(SqlError):
    """The guard refused the statement: it would write, read files or change settings."""

    code = "unsafe_sql"


class QueryTimeoutError(AssistantError):
    code = "query_timeout"


class ResultTooLargeError(AssistantError):
    code = "result_too_large"


class WarehouseError(AssistantError):
    """The warehouse could not run a valid query (engine error, unavailable)."""

    code = "warehouse"


class LLMError(AssistantError):
    code = "llm"


class InputTooLargeError(AssistantError):
    """Refused before any parsing: the text is longer or more deeply nested than the bot reads."""

    code = "input_too_large"


class StepOverrunError(AssistantError):
    """A CPU-heavy step ran past its budget and its worker was stopped from outside."""

    code = "step_overrun"


class BusyError(AssistantError):
    """No slot freed up within the budget (every slot is taken, some by work that would not stop)."""

    code = "busy"


class NoRunContextError(AssistantError):
    """Work that answers per person was called outside a person's run: it fails closed."""

    code = "no_run_context"
