"""Teaching a thing with related rows on two development domains, each opened by its WAREHOUSE_URL alone with
its semantic model drafted from the schema: pizza on PostgreSQL (a pizza's orders reached through its order
lines) and bakeoff on MariaDB (foreign keys only implied by names). The rows are checked against SQL written by
hand on the same warehouse. A domain whose warehouse is not loaded (../shared/eval/domains/<d>/load.py) is
skipped, by name."""

from __future__ import annotations

from typing import Any

import pytest

from agent.api import ChatContext
from agent.settings import load_settings
from tests.learning.conftest import answer, ask

TEACHER = ChatContext(user="U1", channel="C1", workspace="T1")
DOMAINS: dict[str, dict[str, Any]] = {
    "pizza": {"warehouse_url": "postgresql://pizza_reader:pizza_reader@127.0.0.1:5432/dev_pizza",
              "warehouse_schemas": "sales"},
    "bakeoff": {"warehouse_url": "mysql://bakeoff_reader:bakeoff_reader@127.0.0.1:3306/dev_bakeoff"},
}


@pytest.fixture
async def domain(tmp_path):
    """An assistant on one domain, its learned words under `tmp_path`; closed after the test."""
    from agent.api import Assistant

    opened: list[Any] = []

    def open_domain(name: str) -> Any:
        settings = load_settings(_env_file=None, data_dir=tmp_path, openai_api_key=None, openai_base_url=None,
                                 redis_url=None, **DOMAINS[name])
        try:
            opened.append(Assistant.from_settings(settings))
        except Exception as exc:  # the warehouse is not there: said by name, not a failure of ours
            pytest.skip(f"the {name} warehouse does not answer ({exc.__class__.__name__}): load it with "
                        f"../shared/eval/domains/{name}/load.py")
        return opened[-1]

    yield open_domain
    for assistant in opened:
        await assistant.aclose()


async def _teach(assistant: Any, said: str, shown_as: str) -> None:
    shown = await ask(assistant, "teach", said, TEACHER)
    assert shown.learn is not None and shown_as in shown.text, shown.text
    assert (await assistant.learn_word("teach", shown.learn, TEACHER)).ok


def _rows(assistant: Any, sql: str) -> list[list[object]]:
    return sorted(([int(v) if isinstance(v, int) else v for v in row] for row in assistant.context.warehouse.run(sql).rows),
                  key=repr)


async def test_pizzas_with_an_order_in_a_window_reached_through_order_lines(domain):
    assistant = domain("pizza")
    await _teach(assistant, "when I say popular pizza I mean a pizza with an order in the last 7 days",
                 "pizzas with at least one order dated in the 7 days up to the latest")
    recent = ('EXISTS (SELECT 1 FROM sales."orderDetails" d JOIN sales.orders o ON o."orderId" = d."orderId" '
              'WHERE d."pizzaId" = p."pizzaId" AND o."orderDate" > (SELECT max("orderDate") FROM sales.orders) - 7)')
    counted = await answer(assistant, "q1", "how many popular pizzas?", TEACHER)
    assert counted.rows == _rows(assistant, f"SELECT count(*) FROM sales.pizzas p WHERE {recent}"), counted.sql
    assert counted.rows[0][0] < _rows(assistant, "SELECT count(*) FROM sales.pizzas")[0][0]

    await _teach(assistant, "by best selling pizza we mean a pizza with at least 600 orders in 2015",
                 "pizzas with at least 600 orders dated in 2015")
    grouped = await answer(assistant, "q2", "best selling pizzas by size", TEACHER)
    hand = ('SELECT size, count(*) FROM sales.pizzas p WHERE (SELECT count(DISTINCT d."orderId") FROM '
            'sales."orderDetails" d JOIN sales.orders o ON o."orderId" = d."orderId" WHERE d."pizzaId" = p."pizzaId" '
            'AND EXTRACT(YEAR FROM o."orderDate") = 2015) >= 600 GROUP BY size')
    assert sorted(grouped.rows, key=repr) == _rows(assistant, hand) and grouped.rows, grouped.sql


async def test_bakers_with_at_least_n_challenges_and_episodes_rated_in_a_window(domain):
    assistant = domain("bakeoff")
    await _teach(assistant, "when I say veteran baker I mean a baker with at least 8 challenges",
                 "bakers with at least 8 challenges")
    counted = await answer(assistant, "q1", "how many veteran bakers?", TEACHER)
    hand = "SELECT count(*) FROM Bakers b WHERE (SELECT count(*) FROM Challenges c WHERE c.BakerId = b.BakerId) >= 8"
    assert counted.rows == _rows(assistant, hand) and 0 < counted.rows[0][0], counted.sql

    await _teach(assistant, "when we say recent episode we mean an episode with a rating in the last 2 years",
                 "episodes with at least one rating dated in the 2 years up to the latest")
    grouped = await answer(assistant, "q2", "recent episodes by series number", TEACHER)
    hand = ("SELECT e.SeriesNumber, count(*) FROM Episodes e WHERE EXISTS (SELECT 1 FROM Ratings r WHERE "
            "r.EpisodeId = e.EpisodeId AND r.UkAirDate > DATE_SUB((SELECT max(UkAirDate) FROM Ratings), "
            "INTERVAL 2 YEAR)) GROUP BY e.SeriesNumber")
    assert sorted(grouped.rows, key=repr) == _rows(assistant, hand) and len(grouped.rows) > 1, grouped.sql
