"""The data's latest dates, which 'last month' counts back from: read for real dates only."""

from __future__ import annotations


def test_the_demo_reads_its_latest_dates_without_a_failed_read(model, values, caplog):
    # the demo's calendar parts (year, month, day of week) are time dimensions too, but not dates
    with caplog.at_level("WARNING"):
        values.read_all_latest(model)
    assert "could not read the latest date" not in caplog.text
    assert str(values.latest_date("flights")) == "2013-12-31"
