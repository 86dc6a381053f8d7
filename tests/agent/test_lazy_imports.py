"""Start-up stays light: the public API and a question's reading import no graph, LLM client or
chart library (they cost seconds), and the command line shows the reading before the supervisor runs.
Module presence is checked, never a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import cast

import pytest
from pydantic import SecretStr

from agent.api import Groundwork, build_groundwork
from agent.warehouse import Warehouse, WarehouseUnavailableError
from tests.support.timeouts import PROCESS_TIMEOUT_S

REPO = Path(__file__).resolve().parents[2]
# Imported only once the graph is built, a chart drawn, a key set or Redis configured.
HEAVY = ("langgraph", "langchain_core", "langchain_openai", "langsmith", "openai", "matplotlib", "pebble", "redis",
         "prometheus_client", "slack_bolt")


@pytest.fixture(scope="module")
def env(data_dir, warehouse):  # `warehouse` builds the demo file once for every subprocess
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SLACK_", "REDIS_URL", "POLICY_"))}
    return {**clean, "DATA_DIR": str(data_dir), "LOG_LEVEL": "WARNING"}


def loaded_after(env: dict[str, str], code: str) -> dict:
    """What `code` printed (as JSON) and which of HEAVY it left imported, in a fresh interpreter."""
    script = f"import json, sys\n{code}\nprint(json.dumps({{'out': out, 'heavy': sorted(" \
             f"{{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r}))}}))"
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.subprocess
def test_importing_the_public_api_and_the_command_line_loads_nothing_heavy(env):
    result = loaded_after(env, "import agent.api, agent.cli\nout = None")
    assert result["heavy"] == []


@pytest.mark.subprocess
def test_a_question_is_read_before_any_graph_or_llm_machinery_is_imported(env):
    code = (
        "from agent.api import build_groundwork, load_settings\n"
        "out = build_groundwork(load_settings()).reading('how many flights').text"
    )
    result = loaded_after(env, code)
    assert result["out"] == "Number of flights." and result["heavy"] == []


@pytest.mark.subprocess
def test_the_vocabulary_is_parsed_once_however_many_modules_read_it(env):
    """agent/semantic/vocabulary.yaml holds the words of several modules (function words, units, name tags,
    chat shorthand, net measures): one parse serves them all."""
    code = (
        "from pathlib import Path\n"
        "import yaml\n"
        "text = Path('agent/semantic/vocabulary.yaml').read_text(encoding='utf-8')\n"
        "parsed = []\n"
        "load = yaml.load\n"
        "yaml.load = lambda stream, Loader: (parsed.append(stream == text), load(stream, Loader))[1]\n"
        "import agent.api, agent.catalog.naming, agent.text.shorthand\n"
        "agent.catalog.naming.bootstrap_words()\n"
        "agent.text.shorthand.spell_out('w/ u')\n"
        "out = sum(parsed)"
    )
    assert loaded_after(env, code)["out"] == 1


@pytest.mark.subprocess
def test_the_command_line_answers_a_duckdb_question_without_another_engines_dialect(env):
    code = (
        "import contextlib, io\n"
        "from agent.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['ask', 'number of flights by origin', '--yes', '--json'])\n"
        "out = sorted(m for m in sys.modules if m.startswith('sqlglot.dialects.'))"
    )
    assert loaded_after(env, code)["out"] == ["sqlglot.dialects.dialect", "sqlglot.dialects.duckdb"]


@pytest.mark.subprocess
def test_the_error_patterns_are_compiled_by_the_first_error_read_not_by_importing_the_graph(env):
    code = (
        "import agent.supervisor.graph\n"
        "from agent.sql import diagnose\n"
        "before = diagnose._patterns.cache_info().currsize\n"
        "problem = diagnose.diagnose('Binder Error: Referenced column \"orign\" not found')\n"
        "out = [before, problem.kind, problem.name]"
    )
    assert loaded_after(env, code)["out"] == [0, "unknown_column", "orign"]


@pytest.mark.subprocess
def test_the_command_line_shows_the_reading_before_the_supervisor_starts(env):
    proc = subprocess.run(
        [sys.executable, "-m", "agent", "ask", "how many flights", "--yes"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S,
    )
    steps = [line for line in proc.stderr.splitlines() if line.startswith("… ")]
    assert proc.returncode == 0, proc.stderr
    assert steps[:3] == ["… Working on it", "… Reading it as: Number of flights.", "… Understanding your request…"]
    assert "Read as: Number of flights." in proc.stdout  # the answer read it the same way


# Loaded by the command line only where its answer needs them: the graph's machinery for every
# question (the supervisor runs it), matplotlib only to draw a chart (and not at all when the reading
# foresaw the chart: its own process drew it), the word libraries' tables only for a word their cache
# in DATA_DIR does not hold yet, the worker pool's library never (its steps run in-process).
DRAWING = ("matplotlib",)
WORD_TABLES = ("lemminflect", "wordfreq", "snowballstemmer")
POOL = ("pebble",)


def asked(env: dict[str, str], question: str) -> dict:
    """`python -m agent ask QUESTION --yes --json` as a script runs it: its answer, and which of the
    modules above it left imported."""
    watched = [*HEAVY, *WORD_TABLES]
    code = (
        "import contextlib, io\n"
        "from agent.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as printed:\n"
        f"    main(['ask', {question!r}, '--yes', '--json'])\n"
        "out = json.loads(printed.getvalue())"
    )
    script = f"import json, sys\n{code}\nprint(json.dumps({{'out': out, 'heavy': sorted(" \
             f"{{m.split('.')[0] for m in sys.modules}} & set({watched!r}))}}))"
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.subprocess
def test_the_command_line_loads_no_matplotlib_word_tables_or_pool_on_a_warm_data_folder(env):
    asked(env, "number of flights by origin")  # the data folder's word cache now holds these words
    number = asked(env, "how many flights")
    chart = asked(env, "number of flights by origin")
    assert number["out"]["error"] is None and number["out"]["chart"] is None
    assert not set(number["heavy"]) & {*DRAWING, *WORD_TABLES, *POOL}
    assert chart["out"]["error"] is None and chart["out"]["chart"]  # a bar chart was drawn and saved
    assert Path(env["DATA_DIR"], chart["out"]["chart"]).read_bytes().startswith(b"\x89PNG")
    # drawn by the process started when the reading said "by origin", not in the command's own
    assert not set(chart["heavy"]) & {*DRAWING, *WORD_TABLES, *POOL}
    assert {"langgraph", "langchain_core"} <= set(number["heavy"])  # the supervisor answered both


def read_by(env: dict[str, str], argv: list[str]) -> dict[str, list[str]]:
    """The threads that read the warehouse's schema and the data's dates while `python -m agent ARGV` ran, in
    order, on a warm data folder."""
    code = (
        "import contextlib, io, threading\n"
        "from agent.semantic.model import values\n"
        "from agent.warehouse.base import Warehouse\n"
        "readers = {'schema': [], 'dates': []}\n"
        "schema, dates = Warehouse.schema, values._read_latest\n"
        "def read_schema(self):\n"
        "    readers['schema'].append(threading.current_thread().name)\n"
        "    return schema(self)\n"
        "def read_dates(*args, **kwargs):\n"
        "    readers['dates'].append(threading.current_thread().name)\n"
        "    return dates(*args, **kwargs)\n"
        "Warehouse.schema, values._read_latest = read_schema, read_dates\n"
        "from agent.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})\n"
        "out = readers"
    )
    loaded_after(env, code)  # a cold data folder reads the schema to build what it keeps; a warm one does not
    return loaded_after(env, code)["out"]


@pytest.mark.subprocess
def test_the_command_line_reads_the_schema_and_the_dates_on_a_thread_while_it_imports_the_graph(env):
    """What a question's first steps wait for (the warehouse's schema, the data's latest and earliest dates)
    is read on a thread of its own, not on the thread importing the graph or running the question."""
    read = read_by(env, ["ask", "how many flights", "--yes", "--json"])
    assert read["schema"][0] == "read-ahead" and set(read["dates"]) == {"read-ahead"}, read


@pytest.mark.subprocess
def test_a_sql_command_reads_the_schema_ahead_and_no_dates(env):
    read = read_by(env, ["runsql", "SELECT origin, count(*) AS n FROM flights GROUP BY origin", "--json"])
    assert read["schema"][0] == "read-ahead" and read["dates"] == [], read


@pytest.fixture(scope="module")
def groundwork(settings, warehouse) -> Groundwork:
    return build_groundwork(settings, warehouse)


@pytest.mark.parametrize("question", [
    "SELECT count(*) FROM flights",  # SQL: the supervisor decides what to do with it
    "write me a poem about autumn",  # no data question
    "",
])
def test_no_reading_when_the_question_is_not_a_confident_data_question(groundwork, question):
    assert groundwork.reading(question) is None


def test_no_reading_when_an_llm_or_an_access_policy_decides(groundwork, tmp_path):
    with_llm = groundwork.settings.model_copy(update={"openai_api_key": SecretStr("sk-test")})
    with_policy = groundwork.settings.model_copy(update={"policy_path": tmp_path / "policy.yaml"})
    for settings in (with_llm, with_policy):
        assert Groundwork(settings, groundwork.warehouse, groundwork.semantic, groundwork.values).reading(
            "how many flights") is None


DEV_QUESTIONS = next((p / "shared/eval/dev_questions.json" for p in REPO.parents
                      if (p / "shared/eval/dev_questions.json").exists()), REPO.parent / "shared/eval/dev_questions.json")


async def test_the_early_reading_is_the_one_the_answer_gives(offline_context, make_assistant):
    """Shown before the supervisor runs, the reading must never differ from the answer's 'Read as:'."""
    groundwork = Groundwork(offline_context.settings, offline_context.warehouse, offline_context.semantic,
                            offline_context.values)
    assistant = make_assistant(offline_context.model, confirm_before_run=False)
    shown = 0
    for number, item in enumerate(json.loads(DEV_QUESTIONS.read_text())):
        reading = groundwork.reading(item["q"])
        if reading is None:
            continue
        reply = await assistant.reply(assistant.ask(f"early-reading-{number}", item["q"]))
        assert f"Read as: {reading.text}" in reply.text, (item["q"], reading, reply.text)
        shown += 1
    assert shown >= 10  # most of the dev questions get their reading early


class _DownOnce:
    """A warehouse whose first schema read finds it down."""

    def __init__(self) -> None:
        self.reads = 0
        self.read = threading.Event()

    def schema(self) -> None:
        self.reads += 1
        self.read.set()
        if self.reads == 1:
            raise WarehouseUnavailableError("The warehouse is not answering.")


def test_a_read_ahead_that_fails_says_nothing_and_is_made_again_at_first_use(groundwork, monkeypatch):
    errors: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", errors.append)
    down = _DownOnce()
    ahead = Groundwork(groundwork.settings, cast(Warehouse, down), groundwork.semantic, groundwork.values)
    ahead.read_ahead(dates=True)
    assert down.read.wait(PROCESS_TIMEOUT_S)
    for thread in threading.enumerate():
        if thread.name == "read-ahead":
            thread.join(PROCESS_TIMEOUT_S)
    assert errors == []  # the failure is the first use's to report
    ahead.warehouse.schema()
    assert down.reads == 2
