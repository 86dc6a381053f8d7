"""Big warehouses stay cheap: figures for 10, 100 and 1,000 tables of 30 columns.

    python bench/catalog_scale_bench.py                 # DuckDB
    python bench/catalog_scale_bench.py --postgres      # also a local PostgreSQL (own database, dropped)
    python bench/catalog_scale_bench.py --smoke         # 10 tables on DuckDB: the bench itself works

Per size: introspection time (one bulk read of the schema), catalog build time, catalog
search p95 over 50 questions, and prompt tokens per question for the router's system prompt
and for SQL generation's context (tables retrieved for the question, with sample rows), plus
the size of the bootstrapped dbt model. Tokens are estimated as characters / 4 (tiktoken's
encodings are downloaded at run time, which this machine cannot do).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

WORDS = ["account", "invoice", "shipment", "ticket", "payment", "visit", "session", "device", "campaign",
         "contract", "refund", "supplier", "warehouse", "employee", "project", "booking", "claim", "policy",
         "subscription", "review"]
FIELDS = ["amount", "status", "region", "channel", "created_at", "updated_at", "price", "quantity", "score",
          "category", "owner", "country", "plan", "duration", "cost", "tier", "source", "priority", "weight", "rate"]


def columns_sql(table: int) -> str:
    cols = ["id INTEGER PRIMARY KEY"]
    for j in range(29):
        field = FIELDS[(table + j) % len(FIELDS)]
        kind = "TIMESTAMP" if field.endswith("_at") else ("VARCHAR" if field in ("status", "region", "channel", "category", "owner", "country", "plan", "source", "tier", "priority") else "DOUBLE")
        cols.append(f"{field}_{j} {kind}")
    return ", ".join(cols)


def table_name(i: int) -> str:
    return f"{WORDS[i % len(WORDS)]}_{i}"


def build_duckdb(path: Path, n: int) -> str:
    import duckdb

    con = duckdb.connect(str(path))
    for i in range(n):
        con.execute(f"CREATE TABLE {table_name(i)} ({columns_sql(i)})")
        con.execute(f"INSERT INTO {table_name(i)} (id) VALUES (1), (2), (3)")
    con.close()
    return f"duckdb://{path}"


def build_postgres(n: int) -> tuple[str, str]:
    import psycopg

    name = f"sda_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}", autocommit=True) as con:
        for i in range(n):
            con.execute(f"CREATE TABLE {table_name(i)} ({columns_sql(i).replace('DOUBLE', 'DOUBLE PRECISION')})")
    return f"postgresql://postgres@127.0.0.1:5432/{name}", name


def drop_postgres(name: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def measure(url: str, n: int, data_dir: Path) -> dict:
    from agent.catalog.bootstrap_dbt import bootstrap
    from agent.catalog.introspected import build_catalog
    from agent.supervisor.prompt import router_system_prompt
    from agent.settings import load_settings
    from agent.text2sql.context import build_context
    from agent.warehouse import open_warehouse

    def tokens(text: str) -> int:
        return len(text) // 4

    settings = load_settings(_env_file=None, warehouse_url=url, data_dir=data_dir, openai_api_key=None, redis_url=None)
    wh = open_warehouse(settings)
    try:
        started = time.perf_counter()
        schema = wh.refresh()
        introspect_s = time.perf_counter() - started
        started = time.perf_counter()
        catalog = build_catalog(wh, None)
        catalog_s = time.perf_counter() - started
        rng = random.Random(7)
        questions = [f"total {FIELDS[rng.randrange(20)]} by {FIELDS[rng.randrange(20)]} for each {WORDS[rng.randrange(20)]}"
                     for _ in range(50)]
        timings, sql_tokens = [], []
        for question in questions:
            t0 = time.perf_counter()
            catalog.search(question, limit=4)
            timings.append(time.perf_counter() - t0)
            context = build_context(question, warehouse=wh, catalog=catalog, tables=None)
            sql_tokens.append(tokens(context.text))
        router = tokens(router_system_prompt(session_id="s", user="u", locale="en", dialect=wh.dialect))
        document = bootstrap(schema, dialect=wh.dialect)
        names = sum(len(m.get("dimensions", [])) for m in document["semantic_models"]) + len(document["metrics"])
    finally:
        wh.close()
    return {
        "tables": n, "introspect_s": introspect_s, "catalog_s": catalog_s,
        "search_p95_ms": 1000 * statistics.quantiles(timings, n=20)[-1],
        "router_tokens": router, "sql_tokens_median": statistics.median(sql_tokens), "sql_tokens_max": max(sql_tokens),
        "semantic_names": names,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="10 tables, DuckDB only")
    args = parser.parse_args()
    sizes = [10] if args.smoke else [int(s) for s in args.sizes.split(",")]
    args.postgres = args.postgres and not args.smoke
    print(f"{'engine':9} {'tables':>6} {'introspect':>10} {'catalog':>8} {'search p95':>10} {'router tok':>10} "
          f"{'sql tok med/max':>15} {'dbt names':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            engines = [("duckdb", build_duckdb(Path(tmp) / f"w{n}.duckdb", n), None)]
            if args.postgres:
                url, name = build_postgres(n)
                engines.append(("postgres", url, name))
            for engine, url, name in engines:
                try:
                    r = measure(url, n, Path(tmp))
                finally:
                    if name:
                        drop_postgres(name)
                print(f"{engine:9} {n:>6} {r['introspect_s']:>9.2f}s {r['catalog_s']:>7.2f}s {r['search_p95_ms']:>8.1f}ms "
                      f"{r['router_tokens']:>10} {r['sql_tokens_median']:>7.0f}/{r['sql_tokens_max']:<7} {r['semantic_names']:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
