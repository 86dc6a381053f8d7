"""render_png draws real PNGs of the requested size, for every chart shape, in parallel too."""

from __future__ import annotations

import io
import math
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from agent.chatbi.choose_chart import choose_chart
from agent.charts.prepare import ChartError, prepare
from agent.charts.render import format_number, render_png
from agent.charts.spec import ChartSpec

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

QUERIES = {
    "line by month": "SELECT month, avg(dep_delay) AS avg_delay FROM flights GROUP BY month ORDER BY month",
    "line by date": "SELECT make_date(year, month, day) AS d, count(*) AS n FROM flights GROUP BY d ORDER BY d",
    "line by timestamp": "SELECT time_hour, temp FROM weather WHERE origin = 'JFK' AND month = 2",
    "lines per origin": "SELECT month, origin, avg(temp) AS temp FROM weather GROUP BY month, origin",
    "bar": "SELECT carrier, avg(dep_delay) AS avg_delay FROM flights GROUP BY carrier",
    "bar, long labels": "SELECT a.name, count(*) AS n FROM flights f JOIN airlines a USING (carrier) GROUP BY a.name",
    "bar, top n": "SELECT dest, count(*) AS n FROM flights GROUP BY dest",
    "bars per origin": "SELECT carrier, origin, count(*) AS n FROM flights GROUP BY carrier, origin",
    "bar with nulls": "SELECT tzone, avg(alt) AS alt FROM airports GROUP BY tzone",
}


def decode(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("name", QUERIES)
def test_each_shape_renders_a_png(warehouse, name):
    result = warehouse.run(QUERIES[name])
    spec = choose_chart(result.columns, result.types, result.rows)
    assert spec.kind in ("line", "bar")
    image = decode(render_png(spec, result.columns, result.rows))
    assert image.size == (800, 450)
    # Not a blank canvas: a chart has many colours (bars, text, anti-aliasing).
    assert len(image.convert("RGB").getcolors(maxcolors=100_000) or []) > 20


@pytest.mark.parametrize("size, dpi", [((8, 4.5), 100), ((6, 3), 150), ((10, 6), 72)])
def test_pixel_size_is_size_times_dpi(size, dpi):
    spec = ChartSpec(kind="bar", x="carrier", y=["n"], title="Flights")
    png = render_png(spec, ["carrier", "n"], [("UA", 58665), ("B6", 54635)], size=size, dpi=dpi)
    assert decode(png).size == (round(size[0] * dpi), round(size[1] * dpi))


def test_top_n_cut_keeps_the_largest_and_says_so():
    rows = [(f"c{i:03d}", i) for i in range(105)]
    spec = ChartSpec(kind="bar", x="code", y=["n"], title="Many")
    chart = prepare(spec, ["code", "n"], rows, top_n=20)
    assert chart.x_values == [f"c{i:03d}" for i in range(104, 84, -1)]
    assert chart.note == "Showing the top 20 of 105 code by n."
    assert decode(render_png(spec, ["code", "n"], rows, top_n=20)).size == (800, 450)


def test_bars_keep_the_query_order_only_when_asked():
    rows = [("b", 1), ("a", 3), ("c", 2)]
    chart = prepare(ChartSpec(kind="bar", x="k", y=["v"], order="data"), ["k", "v"], rows)
    assert chart.x_values == ["b", "a", "c"] and chart.note is None
    chart = prepare(ChartSpec(kind="bar", x="k", y=["v"]), ["k", "v"], rows)
    assert chart.x_values == ["a", "c", "b"]


def test_none_values_become_gaps_and_blank_labels():
    rows = [(1, 2.0), (2, None), (3, 4.0), (None, 9.0)]
    line = prepare(ChartSpec(kind="line", x="month", y=["v"]), ["month", "v"], rows)
    assert line.x_values == [1, 2, 3]
    assert math.isnan(line.series[0].values[1])
    bar = prepare(ChartSpec(kind="bar", x="k", y=["v"]), ["k", "v"], [("a", 1), (None, 2)])
    assert bar.x_values == ["(blank)", "a"]
    assert line.note == "1 row without a month is left out."
    decode(render_png(ChartSpec(kind="line", x="month", y=["v"]), ["month", "v"], rows))


def test_all_values_missing_still_renders():
    png = render_png(ChartSpec(kind="bar", x="k", y=["v"]), ["k", "v"], [("a", None), ("b", None)])
    assert decode(png).size == (800, 450)


def test_line_series_are_sorted_by_time_and_pivoted():
    rows = [(2, "JFK", 5.0), (1, "JFK", 4.0), (1, "EWR", 3.0), (2, "EWR", 6.0)]
    chart = prepare(ChartSpec(kind="line", x="month", y=["t"], series="origin"), ["month", "origin", "t"], rows)
    assert chart.x_values == [1, 2]
    assert {s.name: s.values for s in chart.series} == {"EWR": [3.0, 6.0], "JFK": [4.0, 5.0]}


def test_many_series_are_capped_with_a_note():
    rows = [(m, f"s{s}", float(s)) for m in range(1, 4) for s in range(12)]
    chart = prepare(ChartSpec(kind="line", x="month", y=["v"], series="name"), ["month", "name", "v"], rows)
    assert len(chart.series) == 8 and chart.series[0].name == "s11"
    assert chart.note == "Showing the 8 largest of 12 name values; the rest are in the table."


def test_dates_are_parsed_for_a_date_axis():
    rows = [("2013-01-01", 1), ("2013-01-02", 2)]
    chart = prepare(ChartSpec(kind="line", x="d", y=["n"]), ["d", "n"], rows, types=["DATE", "BIGINT"])
    assert chart.x_kind == "date" and chart.x_values[0].year == 2013


def test_invalid_spec_is_refused_before_drawing():
    with pytest.raises(ChartError):
        render_png(ChartSpec(kind="bar", x="nope", y=["n"]), ["carrier", "n"], [("UA", 1)])
    with pytest.raises(ChartError):
        render_png(ChartSpec(kind="none"), ["carrier", "n"], [("UA", 1)])


def test_renders_in_parallel_threads(warehouse):
    result = warehouse.run(QUERIES["bar, top n"])
    spec = choose_chart(result.columns, result.types, result.rows)
    alone = decode(render_png(spec, result.columns, result.rows))
    with ThreadPoolExecutor(max_workers=4) as pool:
        pngs = list(pool.map(lambda _: render_png(spec, result.columns, result.rows), range(8)))
    # Renders sharing threads must not draw into each other's figures: each equals the chart drawn alone.
    assert all(decode(png).size == (800, 450) and decode(png).tobytes() == alone.tobytes() for png in pngs)


@pytest.mark.parametrize(
    "value, text",
    [(12345.6, "12,346"), (1234567, "1,234,567"), (3.14159, "3.1"), (2.0, "2"), (0.1234, "0.123"), (-1500, "-1,500")],
)
def test_number_format(value, text):
    assert format_number(value) == text


def _drawn_the_old_way(monkeypatch, render):
    """`render()` with the layout engine attached to the figure, as before: `savefig` then draws twice."""
    import agent.charts.render as module
    from agent.charts.library import Figure

    class EngineOnFigure(Figure):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, layout="constrained", **kwargs)

    class SavefigRunsIt:
        def execute(self, figure):
            return None

    with monkeypatch.context() as patched:
        patched.setattr(module, "Figure", EngineOnFigure)
        patched.setattr(module, "ConstrainedLayoutEngine", SavefigRunsIt)
        return render()


def test_the_figure_is_drawn_once(monkeypatch, warehouse):
    from agent.charts.library import Figure

    result = warehouse.run(QUERIES["bars per origin"])
    spec = choose_chart(result.columns, result.types, result.rows)
    draws = []
    original = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda figure, renderer: draws.append(1) or original(figure, renderer))
    render_png(spec, result.columns, result.rows)
    # Laid out, then drawn once as it is saved (with the engine on the figure, savefig drew it twice).
    assert len(draws) == 1


@pytest.mark.parametrize("name", QUERIES)
def test_laid_out_once_the_png_is_the_same_byte_for_byte(monkeypatch, warehouse, name):
    result = warehouse.run(QUERIES[name])
    spec = choose_chart(result.columns, result.types, result.rows)

    def render():
        return render_png(spec, result.columns, result.rows, types=list(result.types))

    assert render() == _drawn_the_old_way(monkeypatch, render)
