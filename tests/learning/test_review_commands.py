"""`python -m agent vocabulary …` and `verified …`: list, show, forget (recorded in the audit trail) and the
dbt YAML export the team reviews and commits."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

from agent.api import learning_command
from agent.learning.store import LearnedWord, VerifiedQuery, open_store
from tests.support.timeouts import PROCESS_TIMEOUT_S


def _settings(settings, tmp_path):
    return settings.model_copy(update={"data_dir": tmp_path, "redis_url": None, "audit_path": ""})


def _fill(settings) -> None:
    store = open_store(settings)
    store.put_word("T1", LearnedWord(word="hub", kind="dimension", name="origin", label="origin airport",
                                     table="flights", taught_by="U1"))
    store.put_word("T1", LearnedWord(word="trips", kind="metric", name="flight_count", label="Number of flights",
                                     table="flights", taught_by="U2"))
    store.put_word("T1", LearnedWord(word="jets", kind="entity", name="planes", label="plane", table="planes"))
    store.put_query("T1", VerifiedQuery(
        name="flights_by_origin_2013", question="how many flights by origin in 2013?", phrasings=["flights per origin 2013"],
        intent={"metrics": ["flight_count"], "dimensions": ["origin", "metric_time__month"],
                "filters": [{"field": "carrier", "op": "=", "values": ["UA"]}], "time": {"year": 2013}},
        tables=["main.flights"], saved_by="U1"))


def test_list_show_and_export_words_as_a_dbt_overlay(settings, tmp_path):
    settings = _settings(settings, tmp_path)
    _fill(settings)
    status, lines = learning_command(settings, "vocabulary", "list", None, "T1")
    assert status == 0 and len(lines) == 3 and lines[0].startswith("“hub” = origin airport [dimension origin]")
    status, lines = learning_command(settings, "vocabulary", "show", "HUB", "T1")
    assert status == 0 and "taught by U1" in lines[0]
    assert learning_command(settings, "vocabulary", "show", "hub", "T2")[0] == 1
    status, lines = learning_command(settings, "vocabulary", "export", None, "T1")
    overlay = yaml.safe_load("\n".join(lines))
    flights = next(m for m in overlay["semantic_models"] if m["name"] == "flights")
    assert flights["dimensions"] == [{"name": "origin", "config": {"meta": {"synonyms": ["hub"]}}}]
    planes = next(m for m in overlay["semantic_models"] if m["name"] == "planes")
    assert planes["config"]["meta"]["entity_words"] == ["jets"]
    assert overlay["metrics"] == [{"name": "flight_count", "config": {"meta": {"synonyms": ["trips"]}}}]


def test_verified_queries_export_as_saved_queries(settings, tmp_path):
    settings = _settings(settings, tmp_path)
    _fill(settings)
    out = tmp_path / "saved.yml"
    assert learning_command(settings, "verified", "export", None, "T1", out)[0] == 0
    [saved] = yaml.safe_load(out.read_text())["saved_queries"]
    assert saved["name"] == "flights_by_origin_2013" and saved["description"] == "how many flights by origin in 2013?"
    params = saved["query_params"]
    assert params["metrics"] == ["flight_count"]
    assert params["group_by"] == ["Dimension('origin')", "TimeDimension('metric_time', 'month')"]
    assert "{{ Dimension('carrier') }} = 'UA'" in params["where"]
    assert "{{ TimeDimension('metric_time', 'day') }} >= '2013-01-01'" in params["where"]
    assert saved["config"]["meta"]["phrasings"] == ["flights per origin 2013"]


@pytest.mark.subprocess
def test_forget_removes_the_word_and_records_who_and_when(settings, tmp_path):
    settings = _settings(settings, tmp_path)
    _fill(settings)
    env = {**os.environ, "DATA_DIR": str(tmp_path), "REDIS_URL": "", "AUDIT_PATH": ""}
    env.pop("REDIS_URL")
    done = subprocess.run([sys.executable, "-m", "agent", "vocabulary", "--workspace", "T1", "forget", "hub"],
                          capture_output=True, text=True, env=env, timeout=PROCESS_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr
    assert "Forgot “hub” in workspace T1" in done.stdout
    assert "hub" not in open_store(settings).words("T1")
    [record] = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert record["action"] == "vocabulary.forget" and record["user"].startswith("cli") and record["ts"]
    assert record["detail"]["word"] == "hub" and record["workspace"] == "T1"
    again = subprocess.run([sys.executable, "-m", "agent", "vocabulary", "--workspace", "T1", "forget", "hub"],
                           capture_output=True, text=True, env=env, timeout=PROCESS_TIMEOUT_S, check=False)
    assert again.returncode == 1 and "nothing changed" in again.stderr
    status, lines = learning_command(settings, "verified", "forget", "flights_by_origin_2013", "T1")
    assert status == 0 and open_store(settings).queries("T1") == {}
