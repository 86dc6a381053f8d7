"""A command line's chart is drawn by a process forked at its start (it imports the chart library on
another core meanwhile): the same step, the same result and errors, the same budget; one step, and a
process whose step never comes is stopped. Times are never asserted."""

from __future__ import annotations

import asyncio
import os

import pytest

from agent.bootstrap import Groundwork, build_groundwork, chart_ahead
from agent.budget.ahead import StepAhead
from agent.budget.in_process import InProcessCpu
from agent.charts.render import render_png
from agent.charts.spec import ChartSpec
from agent.errors import InputTooLargeError, StepOverrunError
from agent.tools import steps

GENEROUS_S = 60
COLUMNS = ["origin", "flights"]
ROWS = [["EWR", 120835], ["JFK", 111279], ["LGA", 104662]]


def _recurse(depth: int) -> int:
    return 1 + _recurse(depth + 1)


def _gone(pid: int) -> bool:
    """The process has exited and been reaped (by whoever forked it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_chart_drawn_ahead_is_the_one_drawn_in_process():
    spec = ChartSpec(kind="bar", x="origin", y=["flights"], title="Flights by origin")
    drawing = chart_ahead()
    png = drawing.run("Drawing the chart", GENEROUS_S, (spec, COLUMNS, ROWS), {})
    assert png.startswith(b"\x89PNG") and png == render_png(spec, COLUMNS, ROWS)


def test_the_step_runs_in_another_process_once_and_is_reaped():
    ahead = StepAhead("os:getpid")
    pid = ahead.run("Counting", GENEROUS_S, (), {})
    assert pid != os.getpid() and _gone(pid)
    with pytest.raises(RuntimeError, match="served its step already"):
        ahead.run("Counting", GENEROUS_S, (), {})


def test_the_steps_error_is_raised_in_the_caller_as_it_would_be_in_process():
    with pytest.raises(ValueError, match="invalid literal"):
        StepAhead("builtins:int").run("Counting", GENEROUS_S, ("many",), {})
    with pytest.raises(InputTooLargeError, match="nested too deeply"):
        StepAhead(f"{__name__}:_recurse").run("Reading the SQL", GENEROUS_S, (0,), {})


def test_a_step_past_its_budget_is_stopped_with_its_process():
    ahead = StepAhead("tests.support.runaway:spin")
    pid = ahead._pid
    with pytest.raises(StepOverrunError, match="took longer than 1 seconds"):
        ahead.run("Drawing the chart", 1.0, (), {})
    assert ahead.overran and pid is not None and _gone(pid)


def test_a_process_whose_step_never_comes_is_stopped_on_close():
    ahead = chart_ahead()
    pid = ahead._pid
    ahead.close()
    assert pid is not None and _gone(pid)
    ahead.close()  # twice is harmless


async def test_the_command_lines_cpu_hands_the_step_to_its_process_once_then_runs_it_itself():
    cpu = InProcessCpu(budget_s=GENEROUS_S, preload=steps.PRELOAD, ahead={os.getpid: StepAhead("os:getpid")})
    try:
        assert await asyncio.wait_for(cpu.run("Counting", os.getpid), GENEROUS_S) != os.getpid()
        assert await cpu.run("Counting", os.getpid) == os.getpid()
    finally:
        cpu.close()


async def test_closing_the_command_lines_cpu_stops_a_process_that_was_not_used():
    ahead = chart_ahead()
    pid = ahead._pid
    InProcessCpu(budget_s=1.0, preload=steps.PRELOAD, ahead={steps.draw_chart: ahead}).close()
    assert pid is not None and _gone(pid)


@pytest.fixture(scope="module")
def groundwork(settings, warehouse) -> Groundwork:
    return build_groundwork(settings, warehouse)


@pytest.mark.parametrize(("question", "grouped"), [
    ("number of flights by origin", True),  # a row per origin: a bar chart
    ("flights per month in 2013", True),
    ("how many flights", False),  # one number
    ("how many carriers have more than 10000 flights", False),  # a count of groups: one number
])
def test_the_reading_says_whether_the_answer_has_a_row_per_group(groundwork, question, grouped):
    reading = groundwork.reading(question)
    assert reading is not None and reading.grouped is grouped
