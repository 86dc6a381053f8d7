"""Every bench at its smoke size, in one Python process: what `.ci/run` runs after the tests.

    python bench/smoke_all.py                   # every bench/*.py but this one, each with --smoke
    python bench/smoke_all.py ack_bench wedge   # only these (file names, .py optional)

Each bench still runs alone (`python bench/<name>.py --smoke`); here each runs as its own `__main__`
in turn, so the interpreter start-up and the imports the benches share (LangGraph, DuckDB, pandas,
matplotlib, the agent) are paid once instead of eighteen times. A bench that exits non-zero or raises
does not stop the others; the run ends with the names of every one that failed, and exits 1.

Between benches the process is put back as it was: argv, sys.path, the working directory, the
environment and the root logger (two benches call logging.basicConfig, which only the first call in
a process would honour).
"""

from __future__ import annotations

import argparse
import logging
import os
import runpy
import sys
import time
import traceback
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def benches(names: list[str]) -> list[Path]:
    if not names:
        return sorted(p for p in BENCH.glob("*.py") if p.name != Path(__file__).name)
    paths = [BENCH / (name if name.endswith(".py") else f"{name}.py") for name in names]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"no such bench in {BENCH}: {', '.join(missing)}")
    return paths


def run_smoke(path: Path) -> str | None:
    """Run one bench as `python <path> --smoke` would; None when it succeeded, else why it failed."""
    root = logging.getLogger()
    saved = (sys.argv, sys.path[:], os.getcwd(), dict(os.environ), root.handlers[:], root.level)
    sys.argv = [str(path), "--smoke"]
    sys.path.insert(0, str(path.parent))  # as `python bench/x.py` puts the script's folder first
    try:
        runpy.run_path(str(path), run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            return f"exited with {exc.code!r}"
    except KeyboardInterrupt:
        raise
    except BaseException:
        traceback.print_exc()
        return "raised (traceback above)"
    finally:
        argv, path_list, cwd, environ, handlers, level = saved
        sys.argv, sys.path[:] = argv, path_list
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(environ)
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        for handler in handlers:
            if handler not in root.handlers:
                root.addHandler(handler)
        root.setLevel(level)
    return None


def cpu_seconds() -> float:
    """CPU this process and its finished children have used: on a loaded machine a bench's wall time
    mostly says how busy the machine was, its CPU time what the bench costs."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="benches to run (default: all)")
    args = parser.parse_args(argv)
    failed: list[str] = []
    started, started_cpu = time.perf_counter(), cpu_seconds()
    for path in benches(args.names):
        name = f"bench/{path.name}"
        print(f"== {name} --smoke", flush=True)
        begun, begun_cpu = time.perf_counter(), cpu_seconds()
        problem = run_smoke(path)
        sys.stdout.flush()
        verdict = "ok" if problem is None else f"FAILED: {problem}"
        print(f"== {name}: {time.perf_counter() - begun:.1f} s, CPU {cpu_seconds() - begun_cpu:.1f} s, {verdict}",
              flush=True)
        if problem is not None:
            failed.append(name)
    print(f"== all benches at smoke size: {time.perf_counter() - started:.1f} s, CPU {cpu_seconds() - started_cpu:.1f} s, "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    if failed:
        print(f"benches that failed at smoke size: {' '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
