"""The audit trail: a record for every query the warehouse is asked to run."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import json
import os
import subprocess
import sys

import pytest

from agent.api import Assistant
from agent.audit import AuditTrail
from agent.audit.trail import JsonLinesSink, RedisStreamSink
from agent.policy.scope import Governance
from agent.api import ChatContext
from tests.policy.conftest import ANALYST, audit_records
from tests.support.timeouts import PROCESS_TIMEOUT_S


async def test_each_executed_query_is_recorded(policed, session, audit_file):
    before = len(audit_records(audit_file))
    sql = "SELECT origin, count(*) AS n FROM flights GROUP BY origin"
    reply = await policed.reply(policed.run_tool(session, "Chat BI Agent", {"sql": sql, "dialect": "duckdb"},
                                                 ANALYST.model_copy(update={"request_id": "req-audit-1"})))
    assert reply.error is None
    records = audit_records(audit_file)[before:]
    assert len(records) == 1
    record = records[0]
    assert record["user"] == "UANALYST" and record["channel"] == "CDATA" and record["session_id"] == session
    assert record["request_id"] == "req-audit-1" and record["outcome"] == "ok" and record["rows"] == 3
    assert record["tables"] == ["main.flights"] and "GROUP BY origin" in record["sql"]
    assert record["duration_ms"] > 0 and record["executed_sql"] is None
    assert dt.datetime.fromisoformat(record["ts"]).tzinfo is not None


async def test_confirmed_question_and_failures_are_recorded(policed, session, audit_file):
    before = len(audit_records(audit_file))
    await policed.reply(policed.ask(session, "number of flights by origin", ANALYST))
    await policed.reply(policed.resume(session, "run", ANALYST))
    broken = await policed.reply(policed.run_tool(
        session, "Chat BI Agent", {"sql": "SELECT nope FROM flights", "dialect": "duckdb"}, ANALYST))
    assert broken.error is not None
    records = audit_records(audit_file)[before:]
    assert [r["outcome"] for r in records] == ["ok", "error"]
    assert records[0]["rows"] == 3 and records[1]["error_code"] == "sql" and records[1]["rows"] is None


@pytest.mark.subprocess
async def test_redis_stream_is_capped_and_tail_reads_it(base_context, settings, redis_url, redis_client,
                                                        redis_prefix, tmp_path):
    key = f"{redis_prefix}audit"
    trail = AuditTrail([JsonLinesSink(tmp_path / "a.jsonl"), RedisStreamSink(redis_url, key, maxlen=100)])
    assistant = Assistant(dataclasses.replace(
        base_context, governance=Governance(base_context.warehouse, None, trail)))
    who = ChatContext(user="UREDIS", channel="CR")
    for n in range(250):
        trail.record(trail_record(n))
    await assistant.reply(assistant.run_tool("audit-redis", "Chat BI Agent",
                                             {"sql": "SELECT 42 AS answer", "dialect": "duckdb"}, who))
    length = await redis_client.xlen(key)
    assert 100 <= length < 250  # MAXLEN ~ trims in whole nodes: near the cap, never unbounded
    env = {**os.environ, "REDIS_URL": redis_url, "AUDIT_STREAM_KEY": key, "DATA_DIR": str(settings.data_dir)}
    proc = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "agent", "audit", "tail", "-n", "2"],
                                   env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == 2 and lines[-1]["user"] == "UREDIS" and lines[-1]["rows"] == 1
    trail.close()


def trail_record(n: int):
    from agent.audit import AuditRecord

    return AuditRecord(sql=f"SELECT {n}", outcome="ok", rows=1)


@pytest.mark.subprocess
def test_tail_reads_the_file_without_redis(tmp_path):
    path = tmp_path / "audit.jsonl"
    trail = AuditTrail([JsonLinesSink(path)])
    for n in range(5):
        trail.record(trail_record(n))
    env = {**os.environ, "AUDIT_PATH": str(path), "REDIS_URL": ""}
    proc = subprocess.run([sys.executable, "-m", "agent", "audit", "tail", "-n", "3"], env=env,
                          capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["sql"] for line in proc.stdout.splitlines()] == ["SELECT 2", "SELECT 3", "SELECT 4"]


def test_a_sink_failure_is_logged_not_raised(caplog):
    class Broken:
        def write(self, line):
            raise OSError("disk full")

    AuditTrail([Broken()]).record(trail_record(1))
    assert "audit record not written" in caplog.text and "disk full" in caplog.text
