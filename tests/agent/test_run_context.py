"""Per-person work outside a run fails closed: with no run there is no person to scope the data to,
so the offline model's checks refuse instead of reading the unscoped warehouse, catalog or values."""

from __future__ import annotations

import pytest

from agent.errors import NoRunContextError
from agent.llm.routing import route_message
from agent.policy.scope import run_context


def test_outside_a_run_there_is_no_context() -> None:
    with pytest.raises(NoRunContextError) as refused:
        run_context()
    assert "who is asking" in refused.value.user_message


async def test_the_offline_routers_checks_refuse_outside_a_run(offline_context) -> None:
    recognisers = offline_context.model.recognisers
    with pytest.raises(NoRunContextError):
        await recognisers.is_data_question("average arrival delay by carrier")
    with pytest.raises(NoRunContextError):
        recognisers.knows_term("carrier")
    with pytest.raises(NoRunContextError):
        await recognisers.sql_runs("SELECT 1")
    with pytest.raises(NoRunContextError):
        await route_message("average arrival delay by carrier", recognisers)


async def test_inside_a_run_the_same_checks_answer(route) -> None:
    assert (await route("average arrival delay by carrier")).tool is not None
