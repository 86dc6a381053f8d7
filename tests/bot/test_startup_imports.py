"""What `python -m bot` imports before /readyz can say 200, on a warm data folder: what serving and the
readiness check need, not what only answering needs (the graph imports that once it is built, after
the first 200: bot/__main__.py); and that it imports them with the collector paused. Module presence
and the collector's state are checked, never a time."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.timeouts import PROCESS_TIMEOUT_S

REPO = Path(__file__).resolve().parents[2]
# Imported by answering only: the offline reader and its compiler; sqlglot's MySQL dialect, by a MySQL warehouse.
NOT_BEFORE_READY = ("agent.semantic.nlq.extract", "agent.semantic.compile.intent", "sqlglot.dialects.mysql")

# The bot's imports up to serving, then the start of its agent (`_serve` in bot/__main__.py).
STARTING = """
import json, sys
import bot.__main__, bot.runtime, bot.http_server, bot.slack_auth, bot.slack_client
from agent.api import Assistant
from bot.settings import load_bot_settings

Assistant.starting(load_bot_settings())
print(json.dumps(sorted(m for m in sys.modules if m.startswith(tuple(sys.argv[1:])))))
"""


@pytest.mark.subprocess
def test_what_only_answering_needs_is_not_imported_before_the_bot_is_ready(settings, warehouse):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SLACK_", "REDIS_URL", "POLICY_"))}
    env.update(DATA_DIR=str(settings.data_dir), LOG_LEVEL="WARNING")
    for _ in range(2):  # the first start warms the data folder (the model and values it keeps)
        proc = subprocess.run([sys.executable, "-c", STARTING, *NOT_BEFORE_READY], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
        assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []


# `python -m bot` in HTTP mode on a port already taken (it stops once it has imported the bot to serve and
# tried to listen), saying whether the collector was enabled when each watched module began to import.
WATCHED_START = """
import gc, importlib.abc, json, runpy, sys

seen = {}

class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name in sys.argv[1:]:
            seen.setdefault(name, gc.isenabled())

sys.meta_path.insert(0, Watch())
try:
    runpy.run_module("bot", run_name="__main__")
finally:
    print(json.dumps(seen))
"""


@pytest.mark.subprocess
def test_the_bot_and_the_agent_are_imported_with_the_collector_paused(settings, warehouse):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OPENAI_", "SLACK_", "REDIS_URL", "POLICY_", "HOST", "PORT"))}
    watched = ["agent.api", "bot.runtime", "slack_bolt"]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        env.update(DATA_DIR=str(settings.data_dir), LOG_LEVEL="ERROR", BOT_MODE="http", HOST="127.0.0.1",
                   PORT=str(taken.getsockname()[1]), SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET="secret")
        proc = subprocess.run([sys.executable, "-c", WATCHED_START, *watched], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    assert "address already in use" in proc.stderr, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == dict.fromkeys(watched, False)
