"""Start-up runs without the cyclic garbage collector, and what it built is frozen after: checked in a
fresh interpreter each (freezing in the test process would keep its garbage for the whole session)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.timeouts import PROCESS_TIMEOUT_S

pytestmark = pytest.mark.subprocess

REPO = Path(__file__).resolve().parents[2]

# Counts the collections the collector starts by itself, and makes enough cyclic garbage to start many.
PRELUDE = """
import gc, json
from agent.collector import freeze_before_exit, paused, paused_for_startup
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))

class Node:
    pass

def cyclic_garbage(count=50_000):
    for _ in range(count):
        node = Node()
        node.self = node
"""


def run(code: str, env: dict[str, str] | None = None) -> dict:
    proc = subprocess.run([sys.executable, "-c", PRELUDE + code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_nothing_is_collected_during_start_up_and_collection_resumes_after():
    out = run("""
with paused_for_startup():
    during = gc.isenabled()
    cyclic_garbage()
    inside = len(collections)
frozen = gc.get_freeze_count()
cyclic_garbage()
print(json.dumps({"during": during, "inside": inside, "after": gc.isenabled(), "frozen": frozen,
                  "collected_after": len(collections) - inside}))
""")
    assert out["during"] is False and out["inside"] == 0
    assert out["after"] is True and out["collected_after"] > 0
    assert out["frozen"] > 0  # what start-up made is out of later collections' sight


def test_a_collector_turned_off_before_start_up_stays_off():
    out = run("""
gc.disable()
with paused_for_startup():
    pass
print(json.dumps({"after": gc.isenabled()}))
""")
    assert out["after"] is False


def test_the_collector_resumes_when_start_up_fails():
    out = run("""
try:
    with paused_for_startup():
        raise ValueError("a bad setting")
except ValueError:
    pass
print(json.dumps({"after": gc.isenabled()}))
""")
    assert out["after"] is True


def test_a_late_import_pauses_collection_and_freezes_nothing():
    out = run("""
with paused():
    during = gc.isenabled()
    cyclic_garbage()
    inside = len(collections)
print(json.dumps({"during": during, "inside": inside, "after": gc.isenabled(), "frozen": gc.get_freeze_count()}))
""")
    assert out["during"] is False and out["inside"] == 0
    assert out["after"] is True and out["frozen"] == 0  # what was alive before may still be collected


def test_importing_the_chart_library_freezes_nothing():
    out = run("""
import agent.charts.render
print(json.dumps({"frozen": gc.get_freeze_count(), "enabled": gc.isenabled()}))
""")
    assert out == {"frozen": 0, "enabled": True}


def test_what_exists_at_exit_is_frozen():
    out = run("""
before = gc.get_freeze_count()
freeze_before_exit()
print(json.dumps({"before": before, "after": gc.get_freeze_count()}))
""")
    assert out["before"] == 0 and out["after"] > 0


@pytest.fixture(scope="module")
def env(data_dir, warehouse):  # `warehouse` builds the demo file once for every subprocess
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SLACK_", "REDIS_URL", "POLICY_"))}
    return {**clean, "DATA_DIR": str(data_dir), "LOG_LEVEL": "WARNING"}


def test_the_command_line_builds_the_agent_without_a_full_collection_and_collects_while_it_works(env):
    """Full collections (generation 2, the ones that scan everything) from the command's start to the
    agent built (its log line), and collections of any generation after that."""
    out = run("""
import contextlib, io, logging

from agent.cli import main

start = len(collections)
built = []
class AtBuild(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("agent ready"):
            built.append(len(collections))
logging.getLogger("agent.bootstrap").addHandler(AtBuild())
logging.getLogger("agent.bootstrap").setLevel(logging.INFO)

with contextlib.redirect_stdout(io.StringIO()) as printed:
    status = main(["ask", "number of flights by origin", "--yes", "--json"])
[at_build] = built
print(json.dumps({"status": status, "full": collections[start:at_build].count(2),
                  "after": len(collections) - at_build, "enabled": gc.isenabled()}))
""", env)
    assert out["status"] == 0
    assert out["full"] == 0  # imports, the warehouse read, the graph built: nothing scanned them
    assert out["after"] > 0 and out["enabled"]  # answering the question collected as usual
