"""A warehouse nobody modelled, read with its URL alone: a year column dates a table that has no
date ('films that came out in 1999', 'in the 80s'), and a code's labels from the column comment are
its values where the column is named ('low job satisfaction'), never for an everyday word alone."""

from __future__ import annotations

import duckdb
import pytest

from agent.bootstrap import build_groundwork
from agent.semantic.nlq.extract import extract_intent
from tests.warehouse.conftest import server_settings

SCALE = "1 = Low, 2 = Medium, 3 = High, 4 = Very High"


@pytest.fixture(scope="module")
def read(tmp_path_factory):
    folder = tmp_path_factory.mktemp("codes")
    path = folder / "studio.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE films (film_id INTEGER PRIMARY KEY, title VARCHAR, release_year INTEGER)")
    con.execute("INSERT INTO films SELECT i, 'Film ' || i, 1975 + i % 30 FROM range(60) t(i)")
    con.execute("CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, job_satisfaction INTEGER, "
                "environment_satisfaction INTEGER, monthly_income INTEGER)")
    con.execute("INSERT INTO staff SELECT i, 1 + i % 4, 1 + (i // 4) % 4, 3000 + 10 * i FROM range(40) t(i)")
    con.execute(f"COMMENT ON COLUMN staff.job_satisfaction IS 'job satisfaction: {SCALE}'")
    con.execute(f"COMMENT ON COLUMN staff.environment_satisfaction IS 'satisfaction with the environment: {SCALE}'")
    con.close()
    work = build_groundwork(server_settings(folder, f"duckdb:///{path}"))
    yield lambda question: extract_intent(question, work.semantic, work.values)
    work.warehouse.close()


def test_a_year_column_dates_a_table_without_dates(read):
    said = read("how many films came out in 1999?").intent
    assert said is not None and said.time is not None and said.time.year == 1999
    # a verb naming the year column ('released': release year) says the year on that column itself
    released = read("how many films were released in 1985?").intent
    assert released is not None and released.time is None
    assert [(f.op, f.values) for f in released.filters] == [("=", [1985])], released.filters


def test_a_decade_is_its_ten_years(read):
    said = read("how many films came out in the 80s?").intent
    assert said is not None and said.time.years == list(range(1980, 1990))
    assert read("how many films came out in the 1990s?").intent.time.years == list(range(1990, 2000))


def test_a_code_label_before_the_column_name_is_its_value(read):
    said = read("average monthly income among staff with low job satisfaction").intent
    assert said is not None and [(f.field, f.values) for f in said.filters] == [("job_satisfaction", ["1"])]
    high = read("how many staff have high environment satisfaction?").intent
    assert high is not None and [(f.field, f.values) for f in high.filters] == [("environment_satisfaction", ["3"])]


def test_an_everyday_label_without_its_column_is_not_a_value(read):
    # 'low' labels both satisfaction codes, and nothing says which: asked, not guessed
    assert read("average monthly income of staff with low satisfaction").intent is None
    assert read("how many staff have a low income?").intent is None
