"""choose_chart picks line for time, bar for categories, series for two keys, none otherwise."""

from __future__ import annotations

import pytest

from agent.chatbi.choose_chart import choose_chart
from agent.charts.prepare import ChartError, check_spec, prepare, spec_from_data
from agent.charts.roles import Role, column_role
from agent.charts.spec import ChartSpec
from tests.support.meanings import meanings_for


def spec_for(warehouse, sql: str, reading: str = "") -> ChartSpec:
    result = warehouse.run(sql)
    meanings = meanings_for(warehouse, sql, result.columns)
    return choose_chart(result.columns, result.types, result.rows, meanings=meanings, reading=reading)


# -- through real query results ----------------------------------------------------------


def test_month_number_is_a_time_axis(warehouse):
    spec = spec_for(warehouse, "SELECT month, avg(dep_delay) AS avg_delay FROM flights GROUP BY month ORDER BY month")
    assert (spec.kind, spec.x, spec.y, spec.series) == ("line", "month", ["avg_delay"], None)


def test_date_column_is_a_time_axis(warehouse):
    spec = spec_for(
        warehouse,
        "SELECT make_date(year, month, day) AS flight_date, count(*) AS n FROM flights "
        "WHERE month = 7 GROUP BY flight_date ORDER BY flight_date",
    )
    assert (spec.kind, spec.x, spec.y) == ("line", "flight_date", ["n"])


def test_timestamp_column_is_a_time_axis(warehouse):
    spec = spec_for(
        warehouse, "SELECT time_hour, avg(temp) AS temp FROM weather WHERE month = 1 AND day < 4 GROUP BY time_hour"
    )
    assert (spec.kind, spec.x) == ("line", "time_hour")


def test_category_and_number_is_a_bar(warehouse):
    spec = spec_for(warehouse, "SELECT carrier, avg(dep_delay) AS avg_delay FROM flights GROUP BY carrier")
    assert (spec.kind, spec.x, spec.y, spec.series) == ("bar", "carrier", ["avg_delay"], None)
    assert spec.note is None


def test_long_category_list_notes_the_top_n(warehouse):
    spec = spec_for(warehouse, "SELECT dest, count(*) AS flights FROM flights GROUP BY dest")
    assert spec.kind == "bar"
    assert spec.note == "Showing the top 20 of 105 destination by flights."


def test_two_categories_make_series_with_the_smaller_one_as_legend(warehouse):
    spec = spec_for(warehouse, "SELECT origin, carrier, count(*) AS n FROM flights GROUP BY origin, carrier")
    assert (spec.kind, spec.x, spec.y, spec.series) == ("bar", "carrier", ["n"], "origin")


def test_time_and_category_make_one_line_per_category(warehouse):
    spec = spec_for(warehouse, "SELECT month, origin, avg(temp) AS temp FROM weather GROUP BY month, origin")
    assert (spec.kind, spec.x, spec.y, spec.series) == ("line", "month", ["temp"], "origin")


def test_a_constant_column_does_not_split_series(warehouse):
    spec = spec_for(warehouse, "SELECT year, month, count(*) AS n FROM flights GROUP BY year, month")
    assert (spec.kind, spec.x, spec.series) == ("line", "month", None)


def test_numeric_group_key_is_a_bar(warehouse):
    spec = spec_for(warehouse, "SELECT engines, avg(seats) AS seats FROM planes GROUP BY engines ORDER BY engines")
    assert (spec.kind, spec.x, spec.y) == ("bar", "engines", ["seats"])


def test_single_value_has_no_chart(warehouse):
    assert spec_for(warehouse, "SELECT count(*) AS n FROM flights").kind == "none"


def test_single_row_has_no_chart(warehouse):
    assert spec_for(warehouse, "SELECT avg(dep_delay) AS d, avg(arr_delay) AS a FROM flights").kind == "none"


def test_no_numbers_has_no_chart(warehouse):
    assert spec_for(warehouse, "SELECT carrier, name FROM airlines").kind == "none"


def test_numbers_of_a_different_scale_are_left_out(warehouse):
    spec = spec_for(
        warehouse, "SELECT carrier, count(*) AS n, avg(dep_delay) AS d FROM flights GROUP BY carrier"
    )
    assert spec.y == ["n"]
    both = spec_for(
        warehouse, "SELECT carrier, avg(dep_delay) AS dep, avg(arr_delay) AS arr FROM flights GROUP BY carrier"
    )
    assert both.y == ["dep", "arr"]


def test_title_says_what_the_chart_shows_and_how_the_question_was_read(warehouse):
    sql = "SELECT carrier, avg(arr_delay) AS avg_arr_delay FROM flights GROUP BY carrier"
    assert spec_for(warehouse, sql).title == "Average arrival delay by carrier"
    assert spec_for(warehouse, sql, "origin JFK").title == "Average arrival delay by carrier, origin JFK"


def test_two_different_charts_never_share_a_title(warehouse):
    first = spec_for(warehouse, "SELECT carrier, count(*) AS flight_count FROM flights GROUP BY carrier")
    second = spec_for(warehouse, "SELECT origin, avg(dep_delay) AS avg_dep_delay FROM flights GROUP BY origin")
    assert first.title != second.title


def test_axis_labels_are_names_with_units(warehouse):
    spec = spec_for(warehouse, "SELECT carrier, avg(arr_delay) AS arr_delay FROM flights GROUP BY carrier")
    assert spec.x_label == "carrier"
    assert spec.y_label == "average arrival delay (minutes)"


def test_codes_are_shown_by_name_where_the_model_has_names(warehouse):
    result = warehouse.run("SELECT carrier, count(*) AS n FROM flights GROUP BY carrier")
    spec = spec_for(warehouse, "SELECT carrier, count(*) AS n FROM flights GROUP BY carrier")
    chart = prepare(spec, result.columns, result.rows)
    assert "United Air Lines Inc." in chart.x_values and "UA" not in chart.x_values


def test_a_spec_carries_the_names_of_the_codes_in_its_result_not_the_whole_code_list(warehouse):
    """The model names every airport; a chart of three origins (kept in its session) needs three names."""
    sql = "SELECT origin, count(*) AS n FROM flights GROUP BY origin"
    result = warehouse.run(sql)
    known = meanings_for(warehouse, sql, result.columns)["origin"].names
    spec = spec_for(warehouse, sql)
    assert len(known) > 100
    assert spec.names == {code: known[code] for code in ("EWR", "JFK", "LGA")}
    assert "Newark Liberty Intl" in prepare(spec, result.columns, result.rows).x_values


def test_bars_are_ordered_by_value_unless_the_rows_were_sorted_as_asked(warehouse):
    alphabetical = "SELECT carrier, count(*) AS n FROM flights GROUP BY carrier ORDER BY carrier"
    result = warehouse.run(alphabetical)
    chart = prepare(spec_for(warehouse, alphabetical), result.columns, result.rows)
    values = chart.series[0].values
    assert values == sorted(values, reverse=True)
    smallest_first = "SELECT carrier, avg(arr_delay) AS d FROM flights GROUP BY carrier ORDER BY d ASC"
    result = warehouse.run(smallest_first)
    chart = prepare(spec_for(warehouse, smallest_first), result.columns, result.rows)
    assert chart.series[0].values == sorted(chart.series[0].values)


def test_a_category_without_a_value_is_said_not_silently_dropped():
    rows = [("A", 3.0), ("B", None), ("C", 1.0), ("D", None)]
    spec = choose_chart(["group_name", "amount"], ["VARCHAR", "DOUBLE"], rows)
    chart = prepare(spec, ["group_name", "amount"], rows)
    assert len(chart.x_values) == 4
    assert "No value for B, D." in (chart.note or "")


def test_series_beyond_the_chart_limit_are_said_to_be_cut():
    rows = [(f"g{i}", k, float(i + j)) for i in range(10) for j, k in enumerate(("x", "y"))]
    spec = ChartSpec(kind="bar", x="kind", y=["v"], series="group_name")
    chart = prepare(spec, ["group_name", "kind", "v"], rows)
    assert len(chart.series) < 10 and "of 10" in (chart.note or "")


# -- from plain rows (no types) ----------------------------------------------------------


def test_iso_date_strings_without_types_are_time():
    rows = [("2013-01-01", 5), ("2013-01-02", 7), ("2013-01-03", 6)]
    assert choose_chart(["day_start", "n"], [], rows).kind == "line"


def test_month_out_of_range_is_not_time():
    assert column_role("month", "BIGINT", [1, 12, 13]) is Role.NUMBER
    assert column_role("dep_hour", "BIGINT", [0, 5, 23]) is Role.TIME
    assert column_role("flight", "BIGINT", [1, 12]) is Role.NUMBER


def test_empty_result_has_no_chart():
    assert choose_chart(["carrier", "n"], ["VARCHAR", "BIGINT"], []).kind == "none"


def test_none_values_do_not_break_the_choice():
    rows = [("UA", 3.5), (None, 2.0), ("DL", None)]
    spec = choose_chart(["carrier", "delay"], ["VARCHAR", "DOUBLE"], rows)
    assert (spec.kind, spec.x, spec.y) == ("bar", "carrier", ["delay"])


# -- the spec is data, checked against the result ----------------------------------------


COLUMNS = ["carrier", "n"]
ROWS = [("UA", 10), ("DL", 8)]


def test_spec_naming_a_missing_column_is_refused():
    with pytest.raises(ChartError) as caught:
        check_spec(ChartSpec(kind="bar", x="airline", y=["n"]), COLUMNS, ROWS)
    assert "x column 'airline' is not in the result" in caught.value.user_message
    with pytest.raises(ChartError) as caught:
        check_spec(ChartSpec(kind="bar", x="carrier", y=["flights"]), COLUMNS, ROWS)
    assert "y column 'flights'" in caught.value.user_message


def test_spec_plotting_text_is_refused():
    with pytest.raises(ChartError) as caught:
        check_spec(ChartSpec(kind="bar", x="n", y=["carrier"]), COLUMNS, ROWS)
    assert "'carrier' as a number" in caught.value.user_message


def test_spec_without_y_is_refused():
    with pytest.raises(ChartError):
        check_spec(ChartSpec(kind="line", x="carrier"), COLUMNS, ROWS)


def test_spec_from_untrusted_data():
    spec = spec_from_data({"kind": "bar", "x": "carrier", "y": ["n"]}, COLUMNS, ROWS)
    assert spec.kind == "bar"
    with pytest.raises(ChartError) as caught:
        spec_from_data({"kind": "pie", "x": "carrier", "y": ["n"]}, COLUMNS, ROWS)
    assert "kind" in caught.value.user_message
    with pytest.raises(ChartError):
        spec_from_data({"kind": "bar", "x": "__import__('os')", "y": ["n"]}, COLUMNS, ROWS)
