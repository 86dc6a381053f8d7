"""A question whose measure the reader found but some of whose words it could not place is about the data: it is
asked back, about the word it could not place, never refused as off topic; and the question is about a word the
reader does not know, not about its own 'avg'."""

from __future__ import annotations

import pytest

from agent.api import Assistant, load_settings
from tests.support.duck_files import duckdb_file

SCHEMA = """
CREATE TABLE crm_case (case_id INTEGER PRIMARY KEY, opened_dt DATE NOT NULL, cat_cd VARCHAR NOT NULL);
COMMENT ON TABLE crm_case IS 'Customer support tickets, one row per ticket';
INSERT INTO crm_case VALUES (1, DATE '2024-01-02', 'BILL'), (2, DATE '2024-02-03', 'NET'), (3, DATE '2024-03-04', 'BILL');
"""


@pytest.fixture
async def assistant(tmp_path):
    path = duckdb_file(tmp_path, "crm", SCHEMA)
    settings = load_settings(_env_file=None, data_dir=tmp_path, warehouse_url=f"duckdb:///{path}", openai_api_key=None,
                             openai_base_url=None, redis_url=None, semantic_model_path=None, catalog_path=None,
                             policy_path=None)
    opened = Assistant.from_settings(settings, in_process=True)
    yield opened
    await opened.aclose()


async def test_a_question_with_a_measure_and_an_unplaced_word_is_asked_back(assistant):
    reply = await assistant.reply(assistant.ask("asked-1", "avg zorptime to close a ticket in 2024"))
    assert "reject_out_of_scope" not in reply.tools, reply.text
    assert reply.ask_human is not None and reply.ask_human.kind == "clarify", reply.text
    assert "What do you mean by “zorptime”?" in reply.ask_human.question, reply.ask_human.question
