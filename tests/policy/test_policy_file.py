"""The policy file: a mistake stops start-up with the file, the line and the field."""

from __future__ import annotations

import pytest

from agent.policy import Policy, PolicyFileError
from agent.policy.scope import Governance
from agent.api import ChatContext
from tests.policy.conftest import POLICY
from tests.support.timeouts import PROCESS_TIMEOUT_S


def load(tmp_path, text: str) -> Policy:
    path = tmp_path / "policy.yaml"
    path.write_text(text)
    return Policy.load(path)


def test_misspelt_field_names_file_line_and_field(tmp_path):
    text = POLICY.replace("    deny: [main.planes", "    deni: [main.planes")
    with pytest.raises(PolicyFileError) as caught:
        load(tmp_path, text)
    message = caught.value.user_message
    line = text.splitlines().index("    deni: [main.planes, main.flights.tailnum]") + 1
    assert str(tmp_path / "policy.yaml") in message and f"line {line}" in message and "rules[0].deni" in message


def test_bad_default_names_its_line(tmp_path):
    with pytest.raises(PolicyFileError, match=r"line 3, default: Input should be 'allow' or 'deny'"):
        load(tmp_path, POLICY.replace("default: allow", "default: maybe"))


def test_pattern_that_is_not_a_table_or_column(tmp_path):
    with pytest.raises(PolicyFileError, match=r"line \d+, rules\[1\]\.allow\[0\]: 'a.main.flights.x' should be table, "
                       r"schema.table or schema.table.column"):
        load(tmp_path, POLICY.replace("allow: [main.flights, main.airlines", "allow: [a.main.flights.x, main.airlines"))


def test_a_table_without_its_schema_is_the_default_schemas(tmp_path, warehouse):
    bare = load(tmp_path, POLICY.replace("deny: [main.planes,", "deny: [planes,"))
    governance = Governance(warehouse, bare, None)
    assert governance.default_schema == "main"
    access = governance.access_for(ChatContext(user="UANALYST"))
    assert not access.table_readable(("main", "planes")) and access.table_readable(("main", "flights"))


def test_pattern_naming_nothing_stops_start_up(tmp_path, warehouse):
    text = POLICY.replace("deny: [main.planes,", "deny: [main.plane,")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "main.plane," in row)
    with pytest.raises(PolicyFileError, match=rf"line {line}, rules\[0\]\.deny\[0\]: 'main.plane' matches no table"):
        Governance(warehouse, load(tmp_path, text), None)


def test_rule_for_nobody_and_bad_yaml(tmp_path):
    with pytest.raises(PolicyFileError, match="a rule needs users, channels, groups or everyone"):
        load(tmp_path, POLICY.replace("    everyone: true\n", ""))
    with pytest.raises(PolicyFileError, match=r"line \d+ is not valid YAML"):
        load(tmp_path, POLICY + "  - [unclosed\n")


def test_missing_file_is_one_clear_sentence(tmp_path):
    with pytest.raises(PolicyFileError, match="could not be read"):
        Policy.load(tmp_path / "nope.yaml")


@pytest.mark.subprocess
def test_cli_start_up_stops_on_a_bad_policy(tmp_path, settings):
    import os
    import subprocess
    import sys

    path = tmp_path / "policy.yaml"
    path.write_text(POLICY.replace("mask:", "masks:"))
    env = {**os.environ, "POLICY_PATH": str(path), "DATA_DIR": str(settings.data_dir), "OPENAI_API_KEY": "",
           "REDIS_URL": ""}
    proc = subprocess.run([sys.executable, "-m", "agent", "runsql", "SELECT 1"], env=env, capture_output=True,
                          text=True, timeout=PROCESS_TIMEOUT_S)
    errors = [line for line in proc.stderr.strip().splitlines() if line.startswith("error:")]
    assert proc.returncode == 2 and len(errors) == 1 and "rules[0].masks: unknown field" in errors[0]
    assert "Traceback" not in proc.stderr
