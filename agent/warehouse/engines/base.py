"""What one server engine needs to be used safely: its URL forms, sqlglot dialect, case rules,
session limits (statement time, temporary disk), how to cancel, and its catalog queries.

Each engine is one module in this package defining one `ServerEngine` subclass; the registry in
`__init__` finds them, so adding an engine is adding a module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

# How long a statement gets to stop after the engine's cancel before its caller gives up on it.
# A connection or cursor of the engine's DB-API driver: each driver has its own classes, few of them
# annotated, so the engines see them as the driver returns them.
DriverConnection = Any
DriverCursor = Any

CANCEL_GRACE_S = 2.0


@dataclass(frozen=True)
class SessionLimits:
    timeout_s: float
    connect_timeout_s: float = 5.0
    max_bytes_billed: int = 0  # BigQuery's cost cap
    temp_disk_bytes: int = 0  # temporary disk a statement may fill; 0: the engine's own limit

    @property
    def seconds(self) -> int:
        return max(int(round(self.timeout_s)), 1)

    @property
    def timeout_ms(self) -> int:
        return int(self.timeout_s * 1000)

    @property
    def connect_seconds(self) -> int:
        return max(int(self.connect_timeout_s), 1)


@dataclass(frozen=True)
class PlanSize:
    """What an engine's planner expects of a query before it runs: the most rows any step handles,
    and the bytes it reads (engines that price by bytes scanned: Snowflake, BigQuery). None: not said."""

    rows: float | None = None
    bytes: float | None = None


def finite(value: Any) -> float | None:
    """A planner's number, or None where it wrote none ('NaN', '?', null)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


class ServerEngine:
    """Defaults for an engine reached through SQLAlchemy; subclasses override what differs."""

    key: ClassVar[str] = ""
    label: ClassVar[str] = ""
    dialect: ClassVar[str] = ""  # sqlglot's name
    extra: ClassVar[str] = ""  # pip install '.[extra]'
    module: ClassVar[str] = ""  # imported to check the extra is installed
    driver: ClassVar[str] = ""  # SQLAlchemy drivername
    schemes: ClassVar[tuple[str, ...]] = ()  # URL schemes people write for it
    # MySQL/MariaDB call a database a schema: the one the URL names is the scope there.
    database_is_schema: ClassVar[bool] = False
    pyformat: ClassVar[bool] = False  # the driver reads % as a parameter marker
    commits_session_setup: ClassVar[bool] = False  # `on_connect` runs in a transaction to commit

    def connect_args(self, limits: SessionLimits) -> dict[str, Any]:
        return {}

    def url_params(self, limits: SessionLimits) -> dict[str, str]:
        """Settings the driver passes to the server from the URL's query string."""
        return {}

    def on_connect(self, cursor: DriverCursor, limits: SessionLimits) -> dict[str, Any]:
        """Statements each new session runs (read-only, limits); returns what it learnt about the
        server, kept with the connection (a MariaDB rather than a MySQL)."""
        return {}

    def query_timeout(self, timeout_s: float, session: dict[str, Any]) -> str | None:
        """The statement giving one query a time limit other than the session's."""
        return None

    def search_path(self, schema: str) -> str | None:
        """The statement making bare names mean `schema` (quoted as the engine must read it) for one transaction."""
        return None

    def cancel(self, raw: DriverConnection, side_connection: Callable[[], DriverConnection]) -> bool:
        """Ask the engine to stop what `raw` (the driver's connection) runs; False when it cannot."""
        if hasattr(raw, "cancel"):
            raw.cancel()
            return True
        return False

    def row_estimates(self, schemas: list[str]) -> tuple[str, dict[str, Any]] | None:
        """(SQL, parameters) giving (schema, table, estimated rows), or None."""
        return None

    def plan_statement(self, sql: str) -> str | None:
        """The statement asking the planner what `sql` would cost, without running it; None when the
        engine has none."""
        return None

    def plan_size(self, columns: list[str], rows: list[tuple[Any, ...]]) -> PlanSize | None:
        """The planner's answer to `plan_statement`, read."""
        return None

    def dry_run_size(self, raw: DriverConnection, sql: str) -> PlanSize | None:
        """For an engine that estimates through its driver rather than a statement (BigQuery's dry run
        job): ask on `raw`, the driver's connection."""
        return None

    def sample(self, name: str, source: str, estimate: int, above: int) -> str:
        """A subquery reading at most about `above` rows of `name` from a table of `estimate` rows."""
        return f"SELECT {name} FROM {source} LIMIT {above}"

    def executable(self, sql: str, session: dict[str, Any]) -> str:
        """The SQL as this server must receive it (the same text unless a server lacks a function)."""
        return sql.replace("%", "%%") if self.pyformat else sql
