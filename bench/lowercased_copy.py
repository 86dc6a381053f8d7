"""Lower-cased copies of development warehouses, to measure the reader on names with no case or
underscores left ('orderDetails' -> orderdetails, 'BakerId' -> bakerid), as a warehouse copied by a
tool that folds case reads.

    python bench/lowercased_copy.py OUT_DIR            # pizza (PostgreSQL) and bakeoff (MariaDB)
    python bench/reader_bench.py --extra OUT_DIR/pizza_lc --extra OUT_DIR/bakeoff_lc --sets pizza_lc,bakeoff_lc

Each copy is the source's dump with every quoted identifier lower-cased and unquoted; data and
comments are untouched. The questions are the source's, their gold SQL's identifiers lower-cased.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
from pathlib import Path

import sqlglot
from sqlglot import exp

EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval" / "domains"
PG = ["-h", "127.0.0.1", "-U", "postgres"]
MY = ["-h127.0.0.1", "-uroot"]


def _lower_identifiers(sql: str, dialect: str) -> str:
    tree = sqlglot.parse_one(sql, read=dialect)
    for node in tree.find_all(exp.Identifier):
        node.set("this", node.name.lower())
        node.set("quoted", False)
    return tree.sql(dialect=dialect)


def _questions(source: str, target: Path, dialect: str, url: str, schemas: str, probe: str) -> None:
    target.mkdir(parents=True, exist_ok=True)
    items = json.loads((EVAL / source / "questions.json").read_text(encoding="utf-8"))
    for item in items:
        for key in ("sql",):
            if item.get(key):
                item[key] = _lower_identifiers(item[key], dialect)
        item["alt_sql"] = [_lower_identifiers(s, dialect) for s in item.get("alt_sql") or []]
        item["id"] = item["id"] + "l"
    (target / "questions.json").write_text(json.dumps(items, indent=1), encoding="utf-8")
    (target / "meta.json").write_text(json.dumps({"url": url, "schemas": schemas, "probe": probe}), encoding="utf-8")


def pizza(out: Path) -> None:
    dump = subprocess.run(["pg_dump", *PG, "--no-owner", "--no-privileges", "dev_pizza"], check=True,
                          capture_output=True, text=True).stdout
    lowered = re.sub(r'"([A-Za-z_][A-Za-z0-9_]*)"', lambda m: m.group(1).lower(), dump)
    subprocess.run(["psql", *PG, "-q", "-c", "DROP DATABASE IF EXISTS dev_pizza_lc", "-c", "CREATE DATABASE dev_pizza_lc"],
                   check=True, capture_output=True)
    subprocess.run(["psql", *PG, "-q", "-v", "ON_ERROR_STOP=1", "dev_pizza_lc"], input=lowered, check=True,
                   capture_output=True, text=True)
    grants = ("GRANT CONNECT ON DATABASE dev_pizza_lc TO pizza_reader; GRANT USAGE ON SCHEMA sales TO pizza_reader; "
              "GRANT SELECT ON ALL TABLES IN SCHEMA sales TO pizza_reader;")
    subprocess.run(["psql", *PG, "-q", "dev_pizza_lc", "-c", grants], check=True, capture_output=True)
    _questions("pizza", out / "pizza_lc", "postgres", "postgresql://pizza_reader:pizza_reader@127.0.0.1:5432/dev_pizza_lc",
               "sales", "SELECT count(*) FROM sales.orderdetails")


def bakeoff(out: Path) -> None:
    dump = subprocess.run(["mysqldump", *MY, "dev_bakeoff"], check=True, capture_output=True, text=True).stdout
    lowered = re.sub(r"`([A-Za-z_][A-Za-z0-9_]*)`", lambda m: "`" + m.group(1).lower() + "`", dump)
    subprocess.run(["mysql", *MY, "-e", "DROP DATABASE IF EXISTS dev_bakeoff_lc; CREATE DATABASE dev_bakeoff_lc; "
                    "GRANT SELECT ON dev_bakeoff_lc.* TO 'bakeoff_reader'@'%'"], check=True, capture_output=True)
    subprocess.run(["mysql", *MY, "dev_bakeoff_lc"], input=lowered, check=True, capture_output=True, text=True)
    _questions("bakeoff", out / "bakeoff_lc", "mysql", "mysql://bakeoff_reader:bakeoff_reader@127.0.0.1:3306/dev_bakeoff_lc",
               "", "SELECT count(*) FROM challenges")


def smoke() -> None:
    """The questions' rewriting alone, into a temporary folder: no database is dropped or made (CI runs this)."""
    with tempfile.TemporaryDirectory() as folder:
        for source, dialect in (("pizza", "postgres"), ("bakeoff", "mysql")):
            _questions(source, Path(folder) / f"{source}_lc", dialect, "", "", "")
            items = json.loads((Path(folder) / f"{source}_lc" / "questions.json").read_text(encoding="utf-8"))
            quoted = [i["id"] for i in items if i.get("sql") and re.search(r'"[A-Z]|`[A-Z]', i["sql"])]
            if quoted:
                raise SystemExit(f"{source}: identifiers left in capitals in {', '.join(quoted)}")
    print("lowercased_copy smoke: the gold questions of pizza and bakeoff rewrite in lower case")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="/tmp/lowercased", help="where the copies' question sets go")
    parser.add_argument("--smoke", action="store_true", help="rewrite the questions only; touch no database")
    args = parser.parse_args()
    if args.smoke:
        smoke()
    else:
        folder = Path(args.out)
        pizza(folder)
        bakeoff(folder)
        print(f"--extra {folder}/pizza_lc --extra {folder}/bakeoff_lc")
