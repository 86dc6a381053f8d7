"""Threads as conversations, through Slack: the real agent behind the bot's signed HTTP endpoint and
the Web API stand-in, on the demo warehouse and on two development domains (movies on DuckDB, pizza
on PostgreSQL, each opened by its WAREHOUSE_URL alone, its semantic model drafted from the schema).

Each thread of tests/bot/conversations/<domain>.json is played turn by turn; a turn's rows are
checked against its gold SQL run on the same warehouse (tests/support/conversation.py says how).
A domain whose warehouse is not loaded (../shared/eval/domains/<d>/load.py) is skipped, by name.
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from agent.settings import load_settings
from tests.support.bot_server import serving_bot
from tests.support.conversation import Conversation

HERE = Path(__file__).with_name("conversations")
_THREAD_NUMBERS = itertools.count(1)
DOMAINS: dict[str, dict[str, Any]] = {
    "demo": {},
    "movies": {
        "warehouse_url": "duckdb://" + os.path.join(tempfile.gettempdir(), "dev_movies.duckdb"),
        "warehouse_schemas": "catalog",
    },
    "pizza": {
        "warehouse_url": "postgresql://pizza_reader:pizza_reader@127.0.0.1:5432/dev_pizza",
        "warehouse_schemas": "sales",
    },
}


def _threads() -> list[Any]:
    cases = []
    for domain in DOMAINS:
        for thread in json.loads((HERE / f"{domain}.json").read_text())["threads"]:
            marks = [pytest.mark.xfail(reason=thread["known_miss"], strict=True)] if thread.get("known_miss") else []
            cases.append(pytest.param(domain, thread, id=f"{domain}-{thread['id']}", marks=marks))
    return cases


@pytest.fixture(scope="module")
async def agents(tmp_path_factory):
    """One real agent per domain, opened on first use, closed at the end of the module."""
    from agent.api import Assistant

    opened: dict[str, Any] = {}

    def settings_for(domain: str):
        return load_settings(_env_file=None, data_dir=tmp_path_factory.mktemp(f"conv-{domain}"), openai_api_key=None,
                             openai_base_url=None, redis_url=None, **DOMAINS[domain])

    def get(domain: str):
        if domain not in opened:
            try:
                opened[domain] = Assistant.from_settings(settings_for(domain))
            except Exception as exc:  # the warehouse is not there: said by name, not a failure of ours
                if domain == "demo":
                    raise
                pytest.skip(f"the {domain} warehouse does not answer ({exc.__class__.__name__}): load it with "
                            f"../shared/eval/domains/{domain}/load.py")
        return opened[domain]

    yield get
    for assistant in opened.values():
        await assistant.aclose()


def _runner(assistant):
    def run_sql(sql: str) -> tuple[list[str], list[list[Any]]]:
        result = assistant.context.warehouse.run(sql)
        return list(result.columns), [list(r) for r in result.rows]
    return run_sql


@pytest.mark.parametrize(("domain", "thread"), _threads())
async def test_thread(domain, thread, agents, bot_settings, slack):
    assistant = agents(domain)
    async with serving_bot(bot_settings, slack, assistant) as bot:
        # a thread of its own: one agent serves every thread of a domain, and a session is its Slack thread
        root_ts = f"1700000000.{next(_THREAD_NUMBERS):06d}"
        conversation = Conversation(bot, slack, _runner(assistant), channel="C1", root_ts=root_ts)
        misses = []
        for turn in thread["turns"]:
            problem = await conversation.turn(turn)
            if problem:
                misses.append(f"{turn['say']!r} ({turn.get('kind', '?')}): {problem}")
        assert not misses, "\n".join(misses)
