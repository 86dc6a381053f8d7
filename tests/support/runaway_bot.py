"""`python -m bot`, except that every grouped query it runs never ends (tests/support/runaway.py).

Start-up reads, dry runs and the readiness ping have no GROUP BY and pass through, so the
bot starts and questions ("… by origin") get as far as running their SQL.
The file named by RUNAWAY_STARTED is created when a statement starts, so a test knows the
process is inside a runaway before it signals it.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from agent.warehouse.duck import DuckDBWarehouse
from bot.__main__ import main
from tests.support.runaway import blocking_engine


def _is_grouped(sql: str) -> bool:
    return "GROUP BY" in sql.upper()


if __name__ == "__main__":
    started = Path(os.environ["RUNAWAY_STARTED"])
    DuckDBWarehouse._execute = blocking_engine(  # type: ignore[method-assign]
        DuckDBWarehouse._execute, threading.Event(), started.touch, blocks=_is_grouped
    )
    sys.exit(main())
