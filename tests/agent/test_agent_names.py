"""Agent names are declared once (agent.tools.spec.AgentName) and cross agent.api by name: the bot and
the command line call "Fix SQL Agent" through `AgentName.FIX_SQL`, never a copy of the words (issue 23:
the bot copied them, so a renamed agent would have left its slash commands calling nobody)."""

from __future__ import annotations

import ast
from pathlib import Path

from agent.api import AgentName
from agent.tools.registry import DIRECT_AGENTS, SPECS

ROOT = Path(__file__).resolve().parents[2]
SURFACES = [*sorted((ROOT / "bot").rglob("*.py")), ROOT / "agent" / "cli.py"]


def test_the_names_are_the_specs_own():
    declared = {spec.agent_name for spec in SPECS.values()} | DIRECT_AGENTS
    assert declared == {str(name) for name in AgentName}
    # plain strings: they cross the checkpointer and the bot's jobs
    assert all(type(name) is str for name in declared)


def test_the_direct_calls_of_the_surfaces_are_agents_that_can_be_called_directly():
    assert {AgentName.FIX_SQL, AgentName.EXPLAIN_SQL, AgentName.CHAT_BI} <= DIRECT_AGENTS


def test_no_surface_spells_an_agents_name():
    names = {str(name) for name in AgentName}
    spelt = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for path in SURFACES
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in names
    ]
    assert not spelt, "use agent.api.AgentName instead of its words:\n" + "\n".join(spelt)
