"""PNG render time per chart kind (median of ~20), on real demo query results. Prints figures; asserts nothing.

    python bench/chart_bench.py [--runs 20]
    python bench/chart_bench.py --smoke     # one run per chart: the bench itself works
"""

from __future__ import annotations

import argparse
import statistics
import time

from agent.chatbi.choose_chart import choose_chart
from agent.charts.render import render_png
from agent.settings import load_settings
from agent.warehouse import open_warehouse

CASES = {
    "line, 12 months": "SELECT month, avg(dep_delay) AS avg_delay FROM flights GROUP BY month ORDER BY month",
    "line, 365 dates": "SELECT make_date(year, month, day) AS d, count(*) AS n FROM flights GROUP BY d ORDER BY d",
    "line, 8.7k timestamps": "SELECT time_hour, temp FROM weather WHERE origin = 'JFK'",
    "line, 3 series": "SELECT month, origin, avg(temp) AS temp FROM weather GROUP BY month, origin",
    "bar, 16 categories": "SELECT carrier, avg(dep_delay) AS avg_delay FROM flights GROUP BY carrier",
    "bar, top 20 of 105": "SELECT dest, count(*) AS n FROM flights GROUP BY dest",
    "bar, 16 x 3 series": "SELECT carrier, origin, count(*) AS n FROM flights GROUP BY carrier, origin",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="one run per chart")
    args = parser.parse_args()
    args.runs = 1 if args.smoke else args.runs

    warehouse = open_warehouse(load_settings())
    try:
        results = {name: warehouse.run(sql) for name, sql in CASES.items()}
    finally:
        warehouse.close()

    render_png(*_spec_and_data(results["bar, 16 categories"]))  # warm-up: fonts and caches
    print(f"{'chart':<24} {'choose':>10} {'render':>10} {'png size':>10}   (medians of {args.runs})")
    for name, result in results.items():
        choose_ms, render_ms, size = [], [], 0
        for _ in range(args.runs):
            started = time.perf_counter()
            spec, columns, rows = _spec_and_data(result)
            chosen = time.perf_counter()
            png = render_png(spec, columns, rows)
            done = time.perf_counter()
            choose_ms.append((chosen - started) * 1000)
            render_ms.append((done - chosen) * 1000)
            size = len(png)
        print(
            f"{name:<24} {statistics.median(choose_ms):8.2f}ms {statistics.median(render_ms):8.1f}ms "
            f"{size / 1024:8.1f}KB   ({spec.kind})"
        )


def _spec_and_data(result):
    spec = choose_chart(result.columns, result.types, result.rows)
    return spec, result.columns, result.rows


if __name__ == "__main__":
    main()
