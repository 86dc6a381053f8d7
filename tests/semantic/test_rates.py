"""'Percentage of X' where X is a filtered count: the model's own rate within each group, never each
group's share of all the X (which is what 'what % of revenue came from each region' asks)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("question", ["percentage of flights cancelled by month",
                                      "what percent of flights were cancelled in July"])
def test_a_percentage_of_a_filtered_count_is_the_models_rate(ask, question):
    intent = ask(question).intent
    assert intent is not None and intent.metrics == ["cancellation_rate"] and not intent.share_of_total


def test_a_percentage_of_a_total_by_group_is_each_groups_share(ask):
    intent = ask("what % of flights departed from each origin airport?").intent
    assert intent is not None and intent.share_of_total and intent.dimensions == ["origin"]
