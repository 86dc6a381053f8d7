"""Values of text columns on a wide warehouse: what start-up reads, and how long the rest takes
in the background.

    python bench/value_sampling_bench.py                  # DuckDB, 100 and 1,000 tables of 30 columns
    python bench/value_sampling_bench.py --postgres       # also a local PostgreSQL (own database, dropped)
    python bench/value_sampling_bench.py --smoke          # 20 tables on DuckDB: the bench itself works

The synthetic catalog is `catalog_scale_bench`'s (about half of each table's 29 columns are
text). Per size: text columns, the catalog's start-up time (the first 200 columns' values, then
the catalog built), how many tables have a column read at start-up (the old order took the
first 200 columns in schema order, so it reached only the first few tables), and the background
completion: its time, the columns read and the catalog rebuilds.

On this machine (2 shared cores, 2026-11-22; before: the first 200 columns in schema order, the
rest never read):

    engine    tables text cols  start-up tables reached old/new background bg cols rebuilds
    duckdb       100      1450     0.65s         14/100               2.3s    1250        2
    postgres     100      1450     1.38s         14/100               6.9s    1250        2
    duckdb      1000     14500     1.77s         16/200              34.4s   14300        2
    postgres    1000     14500     3.43s         16/200              43.9s   14300        2

Run to run, the machine's load moves these by half (DuckDB's 1,000 tables: 34 s and 49 s in two
runs). Before rebuilds became at most one per 30 s, the 1,000-table rows took 92 s (DuckDB) and
93 s (PostgreSQL) with 15 rebuilds.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from catalog_scale_bench import build_duckdb, build_postgres, drop_postgres  # noqa: E402


def measure(url: str, data_dir: Path) -> dict:
    from agent.catalog.introspected import VALUES_MAX_COLUMNS, LiveCatalog, is_text, value_targets
    from agent.settings import load_settings
    from agent.warehouse import open_warehouse

    settings = load_settings(_env_file=None, warehouse_url=url, data_dir=data_dir, openai_api_key=None, redis_url=None)
    wh = open_warehouse(settings)
    try:
        schema = wh.refresh()
        texts = [(t, c.name) for t, cols in schema.tables.items() for c in cols if is_text(c.type)]
        old_tables = len({t for t, _ in texts[:VALUES_MAX_COLUMNS]})
        new_tables = len({t for t, _ in value_targets(schema)[:VALUES_MAX_COLUMNS]})
        started = time.perf_counter()
        live = LiveCatalog(wh, None)
        startup_s = time.perf_counter() - started
        started = time.perf_counter()
        if live.completion is not None:
            live.completion.join()
        background_s = time.perf_counter() - started
    finally:
        wh.close()
    return {"tables": len(schema.tables), "text_columns": len(texts), "startup_s": startup_s,
            "old_tables": old_tables, "new_tables": new_tables, "background_s": background_s,
            "background_columns": max(0, len(texts) - VALUES_MAX_COLUMNS), "rebuilds": live.version}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="20 tables, DuckDB only")
    args = parser.parse_args()
    if args.smoke:  # more text columns than start-up reads, so the background half runs too
        args.sizes, args.postgres = "20", False
    logging.basicConfig(level=logging.WARNING)
    print(f"{'engine':9} {'tables':>6} {'text cols':>9} {'start-up':>9} {'tables reached old/new':>22} "
          f"{'background':>10} {'bg cols':>7} {'rebuilds':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(s) for s in args.sizes.split(",")]:
            engines = [("duckdb", build_duckdb(Path(tmp) / f"w{n}.duckdb", n), None)]
            if args.postgres:
                url, name = build_postgres(n)
                engines.append(("postgres", url, name))
            for engine, url, name in engines:
                try:
                    r = measure(url, Path(tmp))
                finally:
                    if name:
                        drop_postgres(name)
                print(f"{engine:9} {r['tables']:>6} {r['text_columns']:>9} {r['startup_s']:>8.2f}s "
                      f"{r['old_tables']:>10}/{r['new_tables']:<11} {r['background_s']:>9.1f}s "
                      f"{r['background_columns']:>7} {r['rebuilds']:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
