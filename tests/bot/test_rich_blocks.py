"""The native block builders against Slack's documented limits, over random result shapes."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.charts.spec import ChartSpec
from bot.render import actions
from bot.render.rich_blocks import (
    CHART_MAX_SERIES,
    data_table_block,
    data_visualization_block,
    feedback_block,
)
from agent.api import column_cells
from tests.support.block_limits import block_problems

TEXT = st.text(alphabet=string.ascii_letters + " éü-_.", min_size=0, max_size=60)
NUMBER = st.one_of(st.none(), st.integers(-10**9, 10**9), st.floats(-1e9, 1e9, allow_nan=False))
CELL = st.one_of(TEXT, NUMBER)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=1, max_value=25),
    st.integers(min_value=0, max_value=180),
    st.data(),
)
def test_data_table_fits_every_limit_or_is_not_built(width, height, data):
    columns = [f"c{i}" for i in range(width)]
    # A few drawn rows repeated up to the drawn height: the limits depend on the shape (past 100 rows, past
    # 10,000 characters), and drawing up to 4,500 cells one by one made this test take minutes.
    drawn = data.draw(st.lists(st.lists(CELL, min_size=width, max_size=width), min_size=1, max_size=8))
    rows = [list(drawn[i % len(drawn)]) for i in range(height)]
    block = data_table_block(columns, rows, caption="Result")
    if block is None:
        cells = column_cells(columns, rows[:100], [])
        too_long = sum(len(c) or 1 for r in cells for c in r) + sum(map(len, columns)) > 10_000
        assert width > 20 or height == 0 or too_long
        return
    assert block_problems([block]) == []
    assert len(block["rows"]) == min(height, 100) + 1
    assert block["rows"][0] == [{"type": "raw_text", "text": c} for c in columns]


def test_data_table_numbers_sort_as_numbers_and_read_in_one_format():
    block = data_table_block(["team", "orders", "share"], [["a", 9705, 0.403], ["b", 17283, 0.597]],
                             caption="Orders", formats=[None, None, "fraction"])
    assert block["rows"][1][1] == {"type": "raw_number", "value": 9705, "text": "9,705"}
    assert block["rows"][2][2] == {"type": "raw_number", "value": 0.597, "text": "59.7%"}
    assert block["page_size"] == 2 and block["caption"] == "Orders"


def test_data_table_rows_of_uneven_length_become_rows_of_one_length():
    block = data_table_block(["origin", "flights", "share"], [["JFK", 5], ["EWR", 7, 0.5, "extra"]], caption="Ragged")
    assert block_problems([block]) == []
    assert [[c["text"] for c in row] for row in block["rows"]] == [
        ["origin", "flights", "share"], ["JFK", "5", "–"], ["EWR", "7", "0.50"]
    ]


def test_data_table_over_the_character_budget_is_left_to_the_text_table():
    columns = [f"c{i}" for i in range(20)]
    rows = [[f"value {i} {j} " + "x" * 20 for j in range(20)] for i in range(100)]
    assert data_table_block(columns, rows, caption="Wide") is None


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["bar", "line"]),
    st.integers(min_value=2, max_value=30),
    st.integers(min_value=0, max_value=9),
    st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=120),
)
def test_chart_block_fits_every_limit_or_is_not_built(kind, points, series_count, title):
    if series_count:
        rows = [[f"category {i}", f"series {j}", float(i * j + 1)] for i in range(points) for j in range(series_count)]
        spec = ChartSpec(kind=kind, x="x", y=["v"], series="s", title=title)
        columns = ["x", "s", "v"]
    else:
        rows = [[f"category {i}", float(i + 1)] for i in range(points)]
        spec = ChartSpec(kind=kind, x="x", y=["v"], title=title)
        columns = ["x", "v"]
    block = data_visualization_block(spec, columns, rows)
    if block is None:
        assert points > 20 or series_count > CHART_MAX_SERIES
        return
    assert block_problems([block]) == []
    assert block["title"] == " ".join(title.split())[:50] or block["title"].endswith("…")
    shown = {p["label"] for s in block["chart"]["series"] for p in s["data"]}
    assert len(shown) == points  # nothing cut silently: it fits whole or goes to the PNG


def test_chart_block_carries_axis_names_with_units_and_names_for_codes():
    spec = ChartSpec(kind="bar", x="code", y=["avg_wait"], title="Average wait by team",
                     x_label="team", y_label="average wait (minutes)", names={"A1": "Alpha"})
    block = data_visualization_block(spec, ["code", "avg_wait"], [["A1", 3.5], ["B2", 1.25]])
    axis = block["chart"]["axis_config"]
    assert axis == {"categories": ["Alpha", "B2"], "x_label": "team", "y_label": "average wait (minutes)"}


def test_feedback_buttons_fit_the_context_actions_block():
    block = feedback_block("s" * 200, "r1")
    assert block_problems([block]) == []
    [element] = block["elements"]
    assert element["type"] == "feedback_buttons" and element["action_id"] == actions.FEEDBACK
    assert actions.decode(element["negative_button"]["value"])["v"] == "down"


def test_a_chart_with_missing_values_is_left_to_the_png_and_its_note_is_said():
    from agent.api import AgentReply, Chart
    from bot.render.blocks import render_reply

    spec = ChartSpec(kind="bar", x="k", y=["v"], title="V by k", note="No value for b.")
    rows = [["a", 1.0], ["b", None], ["c", 2.0]]
    assert data_visualization_block(spec, ["k", "v"], rows) is None
    reply = AgentReply(session_id="s", text="x", columns=["k", "v"], rows=rows, row_count=3,
                       chart=Chart(spec=spec, png=b"png"))
    rendered = render_reply(reply)
    assert "No value for b." in str(rendered.blocks) and "No value for b." in str(rendered.fallback_blocks)


def test_a_month_axis_reads_as_month_names():
    spec = ChartSpec(kind="line", x="month", y=["v"], title="V by month")
    block = data_visualization_block(spec, ["month", "v"], [[1, 2.0], [2, 3.0], [3, 1.5]])
    assert block["chart"]["axis_config"]["categories"] == ["Jan", "Feb", "Mar"]
