"""Bands a question cuts a number into ('flights by distance band: under 500, 500-1000, over 1000 miles'):
rows grouped by the band their number falls in, named as said; kept through a thread's edits."""

from __future__ import annotations

import pytest

from agent.semantic.compile.compiler import compile_intent
from agent.semantic.compile.definitions import bands_sql, problems_of
from agent.semantic.nlq.follow_up import read_follow_up


def _rows(warehouse, sql):
    return {tuple(r[:-1]): r[-1] for r in warehouse.run(sql).rows}


def test_a_count_by_bands_said_in_the_question(ask, model, warehouse):
    intent = ask("flights out of lga by distance band: under 500, 500-1000, over 1000 miles").intent
    assert intent is not None and len(intent.dimensions) == 1
    got = _rows(warehouse, compile_intent(intent, model).sql)
    want = _rows(warehouse, "SELECT CASE WHEN distance < 500 THEN 'under 500' WHEN distance <= 1000 THEN '500-1000' "
                            "ELSE 'over 1000' END, COUNT(*) FROM flights WHERE origin = 'LGA' GROUP BY 1")
    assert got == want


def test_bands_of_a_column_the_rows_reach_keep_their_names_as_typed(ask, model, warehouse):
    intent = ask("avg dep delay by seats - under 100, 100-199, 200+").intent
    assert intent is not None
    got = _rows(warehouse, compile_intent(intent, model).sql)
    want = _rows(warehouse, "SELECT CASE WHEN p.seats < 100 THEN 'under 100' WHEN p.seats < 200 THEN '100-199' "
                            "ELSE '200+' END, AVG(f.dep_delay) FROM flights f JOIN planes p ON f.tailnum = p.tailnum "
                            "GROUP BY 1")
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k]) for k in want)


def test_a_leading_verb_and_units_are_read_with_the_bands(ask):
    intent = ask("bucket flights by distance: under 500 mi, 500-999, 1000-1999, 2000+. how many in each").intent
    assert intent is not None
    [bands] = [d for d in intent.definitions if d.kind == "bands"]
    assert bands.bands == ["under 500", "500-999", "1000-1999", "2000+"]


def test_a_band_of_a_number_no_column_holds_is_asked(ask):
    assert ask("avg arr delay by plane age - under 10 yrs, 10-19, 20+").intent is None


def test_the_bands_stay_through_the_thread(ask, model, values, warehouse):
    previous = ask("flights out of lga by distance band: under 500, 500-1000, over 1000 miles").intent
    assert previous is not None
    read = read_follow_up(previous, "avg arr delay per band instead", model, values)
    assert read.edited is not None, read.problem
    got = _rows(warehouse, compile_intent(read.edited.intent, model).sql)
    want = _rows(warehouse, "SELECT CASE WHEN distance < 500 THEN 'under 500' WHEN distance <= 1000 THEN '500-1000' "
                            "ELSE 'over 1000' END, AVG(arr_delay) FROM flights WHERE origin = 'LGA' GROUP BY 1")
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k]) for k in want)
    fresh = ask("bucket flights by distance: under 500 mi, 500-999, 1000-1999, 2000+").intent
    again = read_follow_up(fresh, "avg arr delay per bucket", model, values)
    intent = again.edited.intent if again.edited is not None else again.extraction.intent
    assert intent is not None and any(d.kind == "bands" for d in intent.definitions)


def test_only_bands_rebuilt_from_what_was_said_are_accepted(ask, model):
    intent = ask("flights by distance band: under 500, 500-1000, over 1000").intent
    [bands] = [d for d in intent.definitions if d.kind == "bands"]
    assert problems_of([bands], model) == []
    forged = bands.model_copy(update={"expr": "CASE WHEN 1 = 1 THEN tailnum END"})
    assert problems_of([forged], model)
    assert bands_sql("distance", ["under 500", "somewhere"], "duckdb") is None
