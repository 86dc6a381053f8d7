"""Query latency through Warehouse.run on the demo data and on a 100x copy. Prints figures; asserts nothing.

A typical group-by (carrier, avg(dep_delay)) runs ~20 times on the demo warehouse, then on a
temporary DuckDB file holding `flights` repeated 100 times (~34M rows), opened the way a
deployment would: WAREHOUSE_URL=duckdb:///path through load_settings(warehouse_url=...).
The temporary file is deleted at the end.

    python bench/warehouse_bench.py [--runs 20] [--factor 100]
    python bench/warehouse_bench.py --smoke      # 2 runs on a 2x copy: the bench itself works
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import duckdb

from agent.settings import load_settings
from agent.warehouse import Warehouse, open_warehouse
from agent.warehouse.demo import TABLES

QUERY = "SELECT carrier, avg(dep_delay) AS avg_dep_delay, count(*) AS flights FROM flights GROUP BY carrier"


def timings_ms(warehouse: Warehouse, sql: str, runs: int) -> list[float]:
    warehouse.run(sql, timeout_s=600)  # warm-up: first touch of the file's pages
    result = []
    for _ in range(runs):
        started = time.perf_counter()
        warehouse.run(sql, timeout_s=600)
        result.append((time.perf_counter() - started) * 1000)
    return result


def build_scaled_copy(source: Path, target: Path, factor: int) -> int:
    """Every demo table copied, with `flights` repeated `factor` times; returns its row count."""
    con = duckdb.connect(str(target))
    try:
        con.execute(f"ATTACH '{source}' AS src (READ_ONLY)")
        for table in TABLES:
            if table == "flights":
                con.execute(f"CREATE TABLE flights AS SELECT f.* FROM src.flights AS f, range({int(factor)})")
            else:
                con.execute(f"CREATE TABLE {table} AS SELECT * FROM src.{table}")
        con.execute("DETACH src")
        con.execute("CHECKPOINT")
        return con.execute("SELECT count(*) FROM flights").fetchone()[0]
    finally:
        con.close()


def describe(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    return f"{label:<28} median {statistics.median(values):9.1f} ms   min {ordered[0]:9.1f} ms   p90 {p90:9.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--factor", type=int, default=100)
    parser.add_argument("--smoke", action="store_true", help="2 runs each, a 2x copy")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.factor = 2, 2

    settings = load_settings()
    demo = open_warehouse(settings)
    try:
        rows = demo.run("SELECT count(*) FROM flights").rows[0][0]
        small = timings_ms(demo, QUERY, args.runs)
        demo_file = demo.path
    finally:
        demo.close()
    print(f"query: {QUERY}")
    print(f"limits: {settings.query_threads} threads, memory {settings.query_memory_limit}; {args.runs} runs each")
    print(describe(f"demo ({rows:,} rows)", small))

    scratch = Path(tempfile.mkdtemp(prefix="warehouse-bench-"))
    try:
        big_file = scratch / "flights_x{}.duckdb".format(args.factor)
        started = time.perf_counter()
        big_rows = build_scaled_copy(demo_file, big_file, args.factor)
        build_s = time.perf_counter() - started
        size_mb = big_file.stat().st_size / 1e6
        print(f"built {big_rows:,}-row copy in {build_s:.1f} s ({size_mb:,.0f} MB)")

        big_settings = load_settings(warehouse_url=f"duckdb://{big_file}")
        big = open_warehouse(big_settings)
        try:
            large = timings_ms(big, QUERY, args.runs)
        finally:
            big.close()
        print(describe(f"x{args.factor} ({big_rows:,} rows)", large))
        ratio = statistics.median(large) / statistics.median(small)
        print(f"median ratio x{args.factor} / demo: {ratio:.1f}x for {big_rows / rows:.0f}x the rows")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
