"""bench/smoke_all.py, the one-process runner .ci/run uses: a bench that raises or exits non-zero is
reported (the others still run), and what one bench changes in the process does not reach the next."""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[2] / "bench" / "smoke_all.py"


@pytest.fixture(scope="module")
def smoke_all():
    spec = importlib.util.spec_from_file_location("smoke_all", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return path


def test_a_bench_runs_as_main_with_smoke(smoke_all, tmp_path):
    seen = tmp_path / "argv.txt"
    path = bench(tmp_path, "fine", f"import sys\nif __name__ == '__main__':\n    open({str(seen)!r}, 'w').write(' '.join(sys.argv))\n")
    assert smoke_all.run_smoke(path) is None
    assert seen.read_text() == f"{path} --smoke"


def test_a_crash_and_a_non_zero_exit_are_failures(smoke_all, tmp_path, capsys):
    assert smoke_all.run_smoke(bench(tmp_path, "crash", "raise RuntimeError('the bench broke')\n")) is not None
    assert "the bench broke" in capsys.readouterr().err  # the traceback is shown
    assert smoke_all.run_smoke(bench(tmp_path, "status", "import sys\nsys.exit(3)\n")) == "exited with 3"
    assert smoke_all.run_smoke(bench(tmp_path, "message", "raise SystemExit('only 3 of 4 answered')\n")) is not None
    assert smoke_all.run_smoke(bench(tmp_path, "zero", "import sys\nsys.exit(0)\n")) is None


def test_what_a_bench_changes_does_not_reach_the_next(smoke_all, tmp_path):
    root = logging.getLogger()
    before = (sys.argv[:], sys.path[:], os.getcwd(), dict(os.environ), root.handlers[:], root.level)
    path = bench(tmp_path, "messy", (
        "import logging, os, sys\n"
        "os.environ['SMOKE_ALL_LEAK'] = '1'\n"
        f"os.chdir({str(tmp_path)!r})\n"
        "sys.path.append('/nowhere')\n"
        "logging.basicConfig(level=logging.CRITICAL)\n"
        "raise SystemExit(2)\n"
    ))
    assert smoke_all.run_smoke(path) == "exited with 2"
    assert (sys.argv, sys.path, os.getcwd(), dict(os.environ), root.handlers, root.level) == before


def test_every_bench_is_found_and_a_missing_name_is_refused(smoke_all):
    found = {p.name for p in smoke_all.benches([])}
    assert "ack_bench.py" in found and "smoke_all.py" not in found
    assert found == {p.name for p in RUNNER.parent.glob("*.py")} - {"smoke_all.py"}
    with pytest.raises(SystemExit, match="no_such_bench.py"):
        smoke_all.benches(["no_such_bench"])
