"""The data's latest dates, which 'last month' counts back from: read for real dates only."""

from __future__ import annotations


def test_the_demo_reads_its_latest_dates_without_a_failed_read(model, values, caplog):
    # the demo's calendar parts (year, month, day of week) are time dimensions too, but not dates
    with caplog.at_level("WARNING"):
        values.read_all_latest(model)
    assert "could not read the latest date" not in caplog.text
    assert str(values.latest_date("flights")) == "2013-12-31"


def test_a_latest_date_the_warehouse_did_not_answer_is_asked_again():
    # a busy warehouse once is no table without dates: 'last month' must work on the next question
    import datetime as dt

    from agent.semantic.model.values import DateUnread, ValueIndex

    answers = iter([DateUnread("busy"), dt.date(2013, 12, 31)])

    def read(table, dimension):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    index = ValueIndex(values={})
    index.read_latest = read
    assert index.latest_date("flights") is None
    assert index.latest_date("flights") == dt.date(2013, 12, 31)
