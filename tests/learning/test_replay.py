"""The replay (bench/learning_bench.py): a scripted person answers each question the bot asks once and
confirms the word; asked again with nobody answering, those questions are right, and every answer that
was right before learning is unchanged. On the demo warehouse, and on the movies development domain
(DuckDB) when it is loaded."""

from __future__ import annotations

import pytest

from bench import learning_bench


async def test_replay_on_the_demo(tmp_path):
    result = await learning_bench.run_domain("demo", tmp_path)
    assert result.asked == ["ld01"] and result.learned == {"ld01": "hub = origin airport"}
    assert result.second_right == ["ld01", "ld02", "ld03", "ld04"]
    assert result.changed == [] and result.ok


@pytest.mark.skipif(learning_bench.available("movies") is not None, reason=str(learning_bench.available("movies")))
async def test_replay_on_the_movies_development_domain(tmp_path):
    result = await learning_bench.run_domain("movies", tmp_path)
    # what is left to learn depends on what the reader already places ('in the catalog' is read by now);
    # the demo replay above requires a word learned, here whatever is learned must hold and cost nothing
    assert set(result.learned) <= set(result.second_right), result.lines()
    assert result.changed == [], result.lines()  # the development set's other answers stay as they were
    assert len(result.second_right) >= len(result.first_right) + len(result.learned), result.lines()
