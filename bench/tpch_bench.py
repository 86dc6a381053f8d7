"""TPC-H questions right / total, offline, on DuckDB and on PostgreSQL.

    python bench/tpch_bench.py                  # both engines (PostgreSQL on 127.0.0.1:5432)
    python bench/tpch_bench.py --engines duckdb
    python bench/tpch_bench.py --url-only       # WAREHOUSE_URL alone: the model bootstrapped at start-up
    python bench/tpch_bench.py --smoke          # DuckDB, the first question in-process: the bench itself works

Loads TPC-H sf 0.01 with ../shared/eval/tpch/load.py (tpchgen-cli), runs `python -m agent catalog
init` on it, then every question of ../shared/eval/tpch/questions.json through
`python -m agent ask --yes --json` (bench/accuracy.py's scoring) with WAREHOUSE_URL,
CATALOG_PATH and SEMANTIC_MODEL_PATH pointing at the loaded data and the bootstrapped files.
The PostgreSQL database is created for the run and dropped afterwards.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TPCH = REPO.parent / "shared/eval/tpch"
if not TPCH.exists():
    TPCH = Path("/work/shared/eval/tpch")


def _load(target: str, csv_dir: Path) -> None:
    subprocess.run([sys.executable, str(TPCH / "load.py"), target, "--csv-dir", str(csv_dir)], check=True)


def _run(engine: str, url: str, work: Path, url_only: bool = False, smoke: bool = False) -> int:
    env = {**os.environ, "WAREHOUSE_URL": url, "DATA_DIR": str(work / engine), "OPENAI_API_KEY": "", "REDIS_URL": ""}
    for name in ("CATALOG_PATH", "SEMANTIC_MODEL_PATH"):
        env.pop(name, None)
    if not url_only:  # else: what a team gets setting WAREHOUSE_URL and nothing else (bootstrapped at start-up)
        out = work / engine / "catalog"
        subprocess.run([sys.executable, "-m", "agent", "catalog", "init", "--out", str(out)], env=env, check=True,
                       cwd=REPO)
        env.update({"CATALOG_PATH": str(out / "catalog.yaml"), "SEMANTIC_MODEL_PATH": str(out / "semantic")})
    print(f"== {engine}: {url}{' (WAREHOUSE_URL only)' if url_only else ''}", flush=True)
    smoke_flag = ["--smoke"] if smoke else []
    return subprocess.run(
        [sys.executable, str(REPO / "bench/accuracy.py"), "--questions", str(TPCH / "questions.json"), *smoke_flag],
        env=env, cwd=REPO,
    ).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default="duckdb,postgres")
    parser.add_argument("--url-only", action="store_true", help="no catalog init: only WAREHOUSE_URL is set")
    parser.add_argument("--smoke", action="store_true", help="DuckDB only, the first question, in-process")
    args = parser.parse_args()
    engines = ["duckdb"] if args.smoke else args.engines.split(",")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        csv_dir = work / "csv"
        csv_dir.mkdir()
        if "duckdb" in engines:
            path = work / "tpch.duckdb"
            _load(str(path), csv_dir)
            failed += _run("duckdb", f"duckdb://{path}", work, args.url_only, args.smoke) != 0
        if "postgres" in engines:
            import psycopg

            name = f"sda_tpch_bench_{uuid.uuid4().hex[:8]}"
            admin_url = "postgresql://postgres@127.0.0.1:5432/postgres"
            with psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            try:
                url = f"postgresql://postgres@127.0.0.1:5432/{name}"
                _load(url, csv_dir)
                failed += _run("postgres", url, work, args.url_only) != 0
            finally:
                with psycopg.connect(admin_url, autocommit=True) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
