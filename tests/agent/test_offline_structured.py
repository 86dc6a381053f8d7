"""The offline model reads a structured answer's schema by its name and the question alone (agent/llm/offline.py),
so what only an LLM reads is not worked out for it: the schema's JSON form and the reading guide (the model's
names, the team's verified readings). Checked by what is called, never a time."""

from __future__ import annotations

import pytest

from agent.text2sql import steps
from agent.tools import sql_tools


def _never(*args: object, **kwargs: object) -> None:
    raise AssertionError("worked out for an LLM, handed to the offline model")


@pytest.mark.parametrize("question", ["number of flights by origin", "average arrival delay by carrier"])
async def test_the_offline_model_reads_a_question_without_a_json_schema_or_a_reading_guide(
    offline_assistant, monkeypatch, question
):
    monkeypatch.setattr(steps, "convert_to_openai_tool", _never)
    monkeypatch.setattr(sql_tools, "reading_guide", _never)
    reply = await offline_assistant.reply(offline_assistant.ask(f"offline-structured-{question}", question))
    assert reply.ask_human is not None and reply.ask_human.kind == "confirm_sql", reply.text
    assert reply.tools == ["data_discovery", "generate_sql"]
