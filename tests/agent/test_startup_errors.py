"""Start-up errors are sentences: every way start-up can fail, through real processes.

`python -m agent ask --json` prints one JSON object with `error` on stdout and exits non-zero;
`python -m bot` says it in one log line. No traceback reaches the person in either.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.timeouts import PROCESS_TIMEOUT_S

pytestmark = pytest.mark.subprocess

REPO = Path(__file__).resolve().parents[2]
# An install without a warehouse driver (`pip install -r requirements/run.txt`): the driver and
# SQLAlchemy cannot be imported or found, exactly as when they were never installed.
WITHOUT_DRIVERS = (
    "import runpy, sys; sys.modules.update(sqlalchemy=None, psycopg=None); "
    "sys.argv[0] = 'agent'; runpy.run_module('agent', run_name='__main__')"
)


@pytest.fixture(scope="module")
def env(data_dir, warehouse):  # `warehouse` builds the demo file once for every subprocess
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("OPENAI_", "SLACK_", "REDIS_URL", "WAREHOUSE_", "POLICY_", "SEMANTIC_", "LOG_"))}
    return {**clean, "DATA_DIR": str(data_dir)}


def ask(env, *, python_args: tuple[str, ...] = ("-m", "agent"), **extra) -> tuple[int, dict, str]:
    proc = subprocess.run(
        [sys.executable, *python_args, "ask", "how many flights left JFK", "--yes", "--json"],
        cwd=REPO, env={**env, **extra}, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    [line] = proc.stdout.strip().splitlines()  # one object, nothing else on stdout
    return proc.returncode, json.loads(line), proc.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_bad_setting_is_named(env):
    status, reply, _ = ask(env, QUERY_TIMEOUT_S="twenty")
    assert status != 0 and "QUERY_TIMEOUT_S" in reply["error"] and reply["answer"] == ""


def test_a_missing_driver_says_what_to_install_before_anything_imports_it(env):
    status, reply, _ = ask(env, python_args=("-c", WITHOUT_DRIVERS),
                           WAREHOUSE_URL="postgresql://bot@127.0.0.1:5432/analytics")
    assert status != 0
    assert "PostgreSQL" in reply["error"] and "pip install -r requirements/postgres.txt" in reply["error"]
    assert ".[postgres]" in reply["error"]


def test_an_unreachable_warehouse_is_a_sentence(env):
    status, reply, _ = ask(env, WAREHOUSE_URL=f"postgresql://bot@127.0.0.1:{free_port()}/analytics")
    assert status != 0 and "cannot reach the warehouse" in reply["error"]


def test_a_bad_semantic_model_names_the_file_and_line(env, tmp_path):
    (tmp_path / "metrics.yml").write_text("metrics:\n- name: q\n  type: simple\n  type_params: {measure: nope}\n")
    status, reply, _ = ask(env, SEMANTIC_MODEL_PATH=str(tmp_path))
    assert status != 0 and "metrics.yml:2" in reply["error"]


def test_a_bad_policy_file_names_the_field(env, tmp_path):
    policy = tmp_path / "policy.yaml"
    policy.write_text("version: 1\ncontact: '#data'\ndefualt: deny\n")
    status, reply, _ = ask(env, POLICY_PATH=str(policy))
    assert status != 0 and "policy.yaml" in reply["error"] and "defualt" in reply["error"]


def test_an_unexpected_failure_is_still_one_sentence(env, tmp_path):
    data_dir = tmp_path / "not-a-folder"
    data_dir.write_text("")
    status, reply, _ = ask(env, DATA_DIR=str(data_dir))
    assert status != 0 and "FileExistsError" in reply["error"] and "LOG_LEVEL=DEBUG" in reply["error"]


@pytest.mark.parametrize("problem", ["policy", "unexpected"])
def test_the_bot_console_says_it_in_one_line(env, tmp_path, problem):
    if problem == "policy":
        (tmp_path / "policy.yaml").write_text("version: 1\ncontact: '#data'\ndefualt: deny\n")
        extra = {"POLICY_PATH": str(tmp_path / "policy.yaml")}
    else:
        (tmp_path / "file").write_text("")
        extra = {"DATA_DIR": str(tmp_path / "file")}
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=REPO, env={**env, **extra}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    errors = [line for line in proc.stderr.splitlines() if " ERROR " in line]
    assert proc.returncode == 2 and len(errors) == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert ("defualt" if problem == "policy" else "FileExistsError") in errors[0]
