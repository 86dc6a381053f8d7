"""Every setting is in the README's configuration table, and the table names no setting that is gone."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import BotSettings

README = Path(__file__).resolve().parents[1] / "README.md"


def _table_rows() -> list[str]:
    """The names each row of the configuration table documents, one entry per row and name."""
    text = README.read_text(encoding="utf-8")
    table = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return [name for row in table.splitlines() if row.startswith("| `")
            for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1])]


def _table_variables() -> set[str]:
    return set(_table_rows())


def _settings_variables() -> set[str]:
    # BotSettings is the agent's Settings plus the bot's own fields: every variable there is.
    return {name.upper() for name in BotSettings.model_fields}


def test_every_setting_is_documented():
    assert _settings_variables() - _table_variables() == set()


def test_the_readme_documents_no_setting_that_does_not_exist():
    assert _table_variables() - _settings_variables() == set()


def test_the_readme_documents_each_setting_once():
    """Two rows for one setting (SEMANTIC_MODEL_PATH once had two) may say two different things."""
    rows = _table_rows()
    assert sorted({name for name in rows if rows.count(name) > 1}) == []
