"""A period the data does not reach, named in a follow-up, is said with the data's span and nothing is run."""

from __future__ import annotations

from agent.semantic.follow_up import read_follow_up
from agent.semantic.intent import StructuredIntent


def test_a_year_the_data_does_not_hold_is_declined_with_the_span(model, values):
    previous = StructuredIntent(metrics=["avg_arr_delay"], dimensions=["carrier"])
    for message in ("compare with 2012", "what about 2015"):
        follow = read_follow_up(previous, message, model, values)
        assert follow.edited is None and follow.problem is not None, message
        assert "2013-01-01 to 2013-12-31" in follow.problem and message[-4:] in follow.problem
    held = read_follow_up(previous, "what about march", model, values)
    assert held.problem is None and held.edited is not None and held.edited.intent.time.months == [3]


def test_there_and_that_thing_after_a_one_row_answer_point_at_its_value(model, values):
    top_origin = StructuredIntent(metrics=["cancelled_flights"], dimensions=["origin"], limit=1,
                                  order_by=[{"field": "cancelled_flights", "descending": True}])
    for message in ("avg dep delay there", "how many flights left that airport in february"):
        follow = read_follow_up(top_origin, message, model, values)
        assert follow.edited is not None and follow.over_rows, message
        assert follow.edited.intent.limit is None and follow.edited.intent.order_by == [], message
    several = top_origin.model_copy(update={"limit": 3})
    assert not read_follow_up(several, "avg dep delay there", model, values).over_rows
