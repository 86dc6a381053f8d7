"""A governed assistant over the demo warehouse: a policy that hides a table, a column, masks
another, and narrows by group and channel; an audit trail in a temporary file."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import pytest

from agent.api import Assistant
from agent.audit import AuditTrail
from agent.audit.trail import JsonLinesSink
from agent.policy import Policy
from agent.policy.scope import Governance
from agent.api import ChatContext
from agent.bootstrap import build_context

POLICY = """\
version: 1
contact: "#data-access"
default: allow
groups:
  analysts: [UANALYST, UBOTH]
  ops: [UOPS, UBOTH]
  leads: [ULEAD]
run_button: [leads]
rules:
  - name: nobody reads planes; tail numbers are private; airline names are masked
    everyone: true
    deny: [main.planes, main.flights.tailnum]
    mask: [main.airlines.name]
  - groups: [analysts]
    allow: [main.flights, main.airlines, main.airports]
  - groups: [ops]
    allow: [main.flights, main.weather]
  - channels: [CPUBLIC]
    deny: [main.weather]
"""

ANALYST = ChatContext(user="UANALYST", channel="CDATA")
_sessions = itertools.count()


@pytest.fixture
def session():
    return f"policy-{next(_sessions)}"


@pytest.fixture(scope="session")
def policy_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("policy") / "policy.yaml"
    path.write_text(POLICY)
    return path


@pytest.fixture(scope="session")
def audit_file(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("audit") / "audit.jsonl"


@pytest.fixture(scope="session")
def base_context(settings, warehouse):
    return build_context(settings, warehouse=warehouse)


@pytest.fixture(scope="session")
def policed_context(base_context, warehouse, policy_file, audit_file):
    base = base_context
    governance = Governance(warehouse, Policy.load(policy_file), AuditTrail([JsonLinesSink(audit_file)]))
    return dataclasses.replace(base, governance=governance)


@pytest.fixture(scope="session")
def policed(policed_context):
    return Assistant(policed_context)


def audit_records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
