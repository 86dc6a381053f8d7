"""The command line as people and checks use it: real subprocesses, offline model, real DuckDB."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.timeouts import PROCESS_TIMEOUT_S

pytestmark = pytest.mark.subprocess

REPO = Path(__file__).resolve().parents[2]
# the shared eval folder sits beside the checkout (/work/main) or higher up (/work/wt/<name>)
DEV_QUESTIONS = next((p / "shared/eval/dev_questions.json" for p in REPO.parents
                      if (p / "shared/eval/dev_questions.json").exists()), REPO.parent / "shared/eval/dev_questions.json")
# One question per shape: a count, a filter, top-N, a time series, a join, a second table.
SUBSET = ("d01", "d03", "d04", "d05", "d11", "d18")


@pytest.fixture(scope="module")
def env(data_dir, warehouse):  # `warehouse` builds the demo file once for every subprocess
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SLACK_", "REDIS_URL"))}
    return {**clean, "DATA_DIR": str(data_dir), "LOG_LEVEL": "WARNING"}


def cli(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agent", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S
    )


def json_of(proc) -> dict:
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_fixsql_json(env):
    proc = cli(env, "fixsql", "SELECT count(*) FROM flight WHERE month = 1", "--json")
    reply = json_of(proc)
    assert proc.returncode == 0 and "FROM flights" in reply["sql"] and reply["tools"] == ["fix_sql"]
    assert reply["llm_calls"] == 0 and reply["error"] is None


def test_explainsql_text(env):
    proc = cli(env, "explainsql", "SELECT dest, count(*) FROM flights WHERE origin = 'JFK' GROUP BY dest")
    explanation = proc.stdout.split("\nSQL:\n")[0].lower()  # the SQL itself is echoed after the prose
    assert proc.returncode == 0
    # What the SQL does not say in words: the filter, the grouping, what count(*) means, the catalog's meanings.
    assert "jfk" in explanation and "each dest" in explanation and "number of" in explanation
    assert "destination airport" in explanation and "select" not in explanation


def test_runsql_writes_a_chart_and_refusals_exit_non_zero(env):
    proc = cli(env, "runsql", "SELECT origin, count(*) AS n FROM flights GROUP BY origin", "--json")
    reply = json_of(proc)
    assert proc.returncode == 0 and reply["row_count"] == 3
    assert Path(reply["chart"]).read_bytes().startswith(b"\x89PNG")
    refused = cli(env, "runsql", "DROP TABLE flights", "--json")
    assert refused.returncode == 1 and "read-only" in json_of(refused)["error"]


def test_ask_without_yes_stops_at_the_confirmation(env):
    reply = json_of(cli(env, "ask", "How many flights are in the data set?", "--json"))
    assert reply["ask_human"]["kind"] == "confirm_sql" and reply["rows"] == []


def _subset(tmp_path: Path, ids: tuple[str, ...]) -> Path:
    subset = tmp_path / "subset.json"
    subset.write_text(json.dumps([q for q in json.loads(DEV_QUESTIONS.read_text()) if q["id"] in ids]))
    return subset


def test_accuracy_harness_passes_on_a_subset(env, tmp_path, monkeypatch, capsys):
    """Every shape through the command's own code (`agent.cli.main`, what `python -m agent ask --yes
    --json` runs) in this process: a process per question cost a CPU-heavy start-up each and made this
    the longest test of the suite; the real process is the next test's."""
    for name in os.environ.keys() - env.keys():
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("bench_accuracy", REPO / "bench" / "accuracy.py")
    accuracy = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, accuracy)  # its dataclass looks its module up there
    spec.loader.exec_module(accuracy)
    status = accuracy.main(["--questions", str(_subset(tmp_path, SUBSET)), "--in-process"])
    printed = capsys.readouterr().out
    assert f"accuracy: {len(SUBSET)}/{len(SUBSET)}" in printed and status == 0, printed


def test_accuracy_harness_runs_the_command_line_in_a_process_per_question(env, tmp_path):
    proc = subprocess.run(
        [sys.executable, "bench/accuracy.py", "--questions", str(_subset(tmp_path, SUBSET[:1]))],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S,
    )
    assert "accuracy: 1/1" in proc.stdout and proc.returncode == 0, proc.stdout + proc.stderr


def test_the_command_ends_without_taking_its_modules_apart(env):
    """Its answer written, the process ends: the interpreter's teardown of every module (what `-v` reports as
    `# clear …` and `# cleanup[…]`) is left to the system, which frees the memory with the process."""
    proc = subprocess.run([sys.executable, "-v", "-m", "agent", "ask", "how many flights", "--json"], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0 and json_of(proc)["ask_human"]["kind"] == "confirm_sql"
    teardown = [line for line in proc.stderr.splitlines() if line.startswith(("# clear ", "# cleanup["))]
    assert teardown == []


def ended_by_exit_at_once(code: str) -> subprocess.CompletedProcess:
    """A fresh interpreter running `code`, then `exit_at_once(3)`."""
    script = f"import atexit, sys, threading, time\nfrom agent.cli import exit_at_once\n{code}\nexit_at_once(3)"
    return subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT_S)


def test_exiting_at_once_runs_the_exit_handlers_and_writes_what_is_buffered():
    proc = ended_by_exit_at_once("atexit.register(print, 'handler')\nprint('answer', end='')\n"
                                 "print('step', end='', file=sys.stderr)")
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "answerhandler\n", "step")


def test_exiting_at_once_waits_for_a_thread_still_working():
    proc = ended_by_exit_at_once("threading.Thread(target=lambda: (time.sleep(0.2), print('thread done'))).start()")
    assert (proc.returncode, proc.stdout) == (3, "thread done\n")
