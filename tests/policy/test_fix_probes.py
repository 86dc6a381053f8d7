"""The fixer's own queries are the person's: its dry runs and probes of the data pass their access
check and its probes land in the audit trail, though they run in a CPU worker process."""

from __future__ import annotations

import pytest

from agent.tools.steps import WarehouseFile
from agent.policy.access import AccessDenied
from tests.policy.conftest import ANALYST, audit_records

WRONG_JOIN_COLUMN = "SELECT a.name, count(*) FROM flights f JOIN airlines a ON f.carrier = a.code GROUP BY a.name"


@pytest.fixture
def analyst_file(policed_context, warehouse):
    access = policed_context.governance.access_for(ANALYST)
    return WarehouseFile(warehouse.path, "1GB", access=access)


def test_a_probe_of_a_hidden_table_is_refused_and_recorded(analyst_file):
    with pytest.raises(AccessDenied, match="planes"):
        analyst_file.probe("SELECT count(*) FROM planes")
    record = analyst_file.probes[-1]
    assert record.outcome == "refused" and record.error_code == "access_denied" and record.rows is None


def test_a_dry_run_of_a_hidden_column_is_refused(analyst_file):
    with pytest.raises(AccessDenied, match="tailnum"):
        analyst_file.dry_run("SELECT tailnum FROM flights")


async def test_a_probe_of_a_masked_column_sees_only_the_mask(analyst_file, policed_context):
    # In a worker, as the fixer runs it (this process already holds the file with another configuration).
    sql = "SELECT DISTINCT name FROM airlines WHERE carrier = 'UA'"
    assert await policed_context.cpu.run("Probing", analyst_file.probe, sql) == [("***",)]


async def test_the_fixers_probes_are_audited_as_the_persons(policed, session, audit_file):
    before = len(audit_records(audit_file))
    reply = await policed.reply(policed.run_tool(session, "Fix SQL Agent", {"sql": WRONG_JOIN_COLUMN}, ANALYST))
    assert reply.error is None and "a.carrier" in reply.text, reply.text
    probes = [r for r in audit_records(audit_file)[before:] if "SELECT DISTINCT" in r["sql"]]
    assert probes, "the fix looked at the data without an audit record"
    assert all(r["user"] == "UANALYST" and r["channel"] == "CDATA" and r["outcome"] == "ok" for r in probes)
    assert all(r["session_id"] == session for r in probes)
