"""A command line's CPU steps run in its own process (no worker pool to start for one question),
still under their budget; the steps that need a process of their own still get one."""

from __future__ import annotations

import asyncio
import os

import pytest

from agent.tools import steps
from agent.budget.in_process import InProcessCpu
from agent.errors import InputTooLargeError, StepOverrunError
from tests.support.runaway import spin

GENEROUS_S = 60


def _recurse(depth: int) -> int:
    return 1 + _recurse(depth + 1)


@pytest.fixture
def cpu():
    pool = InProcessCpu(budget_s=1.0, preload=steps.PRELOAD)
    yield pool
    pool.close()


async def test_a_step_runs_in_the_calling_process(cpu):
    assert await cpu.run("Counting", os.getpid) == os.getpid()


async def test_a_step_past_its_budget_is_stopped_and_the_next_one_runs(cpu):
    with pytest.raises(StepOverrunError, match="took longer than 1 seconds"):
        await asyncio.wait_for(cpu.run("Reading the SQL", spin), GENEROUS_S)
    assert cpu.overruns == 1
    assert await cpu.run("Counting", spin, 0.01) > 0


async def test_a_step_nested_too_deeply_is_a_sentence(cpu):
    with pytest.raises(InputTooLargeError, match="nested too deeply"):
        await cpu.run("Reading the SQL", _recurse, 0)


async def test_shared_values_are_the_callers_own_objects(cpu):
    model, values = {"model": 1}, {"values": 2}
    shared_model, shared_values = cpu.share(model, values)
    assert shared_model is model and shared_values is values  # nothing pickled, no file


def _sizes(shared, extra: int) -> int:
    model, values = shared
    return len(model) + len(values) + extra


async def test_a_step_is_handed_the_values_shared_with_it_in_the_same_call(cpu):
    model, values = {"a": 1}, {"b": 2, "c": 3}
    assert await cpu.run_sharing("Counting", _sizes, (model, values), 10) == 13


async def test_a_step_that_needs_its_own_process_gets_a_worker():
    cpu = InProcessCpu(budget_s=1.0, preload=steps.PRELOAD, own_process=frozenset({os.getpid}))
    try:
        assert await asyncio.wait_for(cpu.run("Counting", os.getpid), GENEROUS_S) != os.getpid()
    finally:
        cpu.close()


def test_the_command_lines_fix_gets_a_worker(settings, warehouse):
    """A fix's probes open the warehouse file their own way: the composition root says so."""
    from agent.bootstrap import build_context

    context = build_context(settings, warehouse=warehouse, in_process=True)
    try:
        assert isinstance(context.cpu, InProcessCpu) and steps.fix_on_file in context.cpu.own_process
    finally:
        context.cpu.close()


CALLS: list[str] = []


def _read(question: str) -> list[str]:
    CALLS.append(question)
    return question.split()


async def test_a_pure_step_asked_again_is_answered_once_and_each_caller_gets_its_own_copy(cpu):
    CALLS.clear()
    first = await cpu.run_pure("Reading the question", _read, "flights by origin")
    first.append("changed by its caller")
    second = await cpu.run_pure("Reading the question", _read, "flights by origin")
    assert second == ["flights", "by", "origin"] and CALLS == ["flights by origin"]
    await cpu.run_pure("Reading the question", _read, "flights by month")
    assert CALLS == ["flights by origin", "flights by month"]


def test_a_reading_is_compiled_once_per_model_and_dialect(offline_context):
    from agent.semantic.compile.compiler import compile_intent
    from agent.semantic.compile.intent import StructuredIntent
    from agent.tools.semantic import compiled

    model = offline_context.semantic
    intent = StructuredIntent(metrics=[model.metrics[0].name])
    first = compiled(model, intent)
    assert compiled(model, StructuredIntent.model_validate(intent.model_dump())) is first
    assert first == compile_intent(intent, model)  # the same query a fresh compile writes
    assert compiled(model, intent, "postgres") is not first
    other = model.model_copy()
    assert compiled(other, intent) is not first  # another model object: compiled for it
