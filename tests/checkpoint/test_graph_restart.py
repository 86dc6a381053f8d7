"""A real LangGraph graph paused by interrupt() survives a process restart on Redis."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from checkpoint_redis import AsyncRedisSaver
from checkpoint_redis.keys import Keyspace


class ConfirmState(TypedDict):
    question: str
    sql: str
    log: Annotated[list[str], operator.add]
    answer: str


def _confirm_graph(ran: list[str]) -> StateGraph:
    """draft SQL -> ask the person to confirm (pauses) -> run."""

    def draft(state: ConfirmState) -> dict:
        ran.append("draft")
        return {"sql": f"SELECT count(*) FROM flights -- {state['question']}", "log": ["drafted"]}

    def confirm(state: ConfirmState) -> dict:
        choice = interrupt({"ask": "Run this query?", "sql": state["sql"]})
        ran.append("confirm")
        return {"log": [f"person said {choice}"]}

    def run(state: ConfirmState) -> dict:
        ran.append("run")
        return {"answer": f"ran: {state['sql']}", "log": ["ran"]}

    builder = StateGraph(ConfirmState)
    builder.add_node("draft", draft)
    builder.add_node("confirm", confirm)
    builder.add_node("run", run)
    builder.add_edge(START, "draft")
    builder.add_edge("draft", "confirm")
    builder.add_edge("confirm", "run")
    builder.add_edge("run", END)
    return builder


def _nested_graph(ran: list[str]) -> StateGraph:
    """The confirm step lives in a sub-graph, so its checkpoints use a child namespace."""
    inner = _confirm_graph(ran).compile()
    outer = StateGraph(ConfirmState)
    outer.add_node("session", inner)
    outer.add_edge(START, "session")
    outer.add_edge("session", END)
    return outer


async def _pause_then_resume_in_a_new_process(build, redis_url, redis_client, key_prefix, *, namespaces):
    ran: list[str] = []
    config = {"configurable": {"thread_id": "C042:1712345678.000100"}}

    async with AsyncRedisSaver.from_url(redis_url, prefix=key_prefix, ttl_seconds=3600) as first_process:
        graph = build(ran).compile(checkpointer=first_process)
        paused = await graph.ainvoke({"question": "daily departures from JFK", "log": []}, config)
        [pending] = paused["__interrupt__"]
        assert pending.value["ask"] == "Run this query?"
        assert "answer" not in paused
    stored_namespaces = await redis_client.smembers(
        Keyspace(key_prefix).thread(config["configurable"]["thread_id"]).namespaces
    )
    assert len(stored_namespaces) == namespaces

    # Nothing in memory survives: a new client, a new saver, a freshly compiled graph.
    async with AsyncRedisSaver.from_url(redis_url, prefix=key_prefix, ttl_seconds=3600) as second_process:
        graph = build(ran).compile(checkpointer=second_process)
        state = await graph.aget_state(config, subgraphs=True)
        assert state.next
        assert state.values["question"] == "daily departures from JFK"

        done = await graph.ainvoke(Command(resume="yes"), config)

    assert done["answer"] == "ran: SELECT count(*) FROM flights -- daily departures from JFK"
    assert done["log"] == ["drafted", "person said yes", "ran"]
    # The draft step ran once: the resume started from the saved pause, not from scratch.
    assert ran == ["draft", "confirm", "run"]


async def test_interrupt_resumes_after_restart(redis_url, redis_client, key_prefix):
    await _pause_then_resume_in_a_new_process(
        _confirm_graph, redis_url, redis_client, key_prefix, namespaces=1
    )


async def test_interrupt_inside_a_subgraph_resumes_after_restart(redis_url, redis_client, key_prefix):
    # Root namespace plus the sub-graph's own "session:<task id>" namespace.
    await _pause_then_resume_in_a_new_process(
        _nested_graph, redis_url, redis_client, key_prefix, namespaces=2
    )


async def test_follow_up_turns_see_the_earlier_turns(redis_url, key_prefix):
    ran: list[str] = []
    config = {"configurable": {"thread_id": "C042:follow-up"}}
    for turn, question in enumerate(["by day", "now by month"]):
        async with AsyncRedisSaver.from_url(redis_url, prefix=key_prefix) as process:
            graph = _confirm_graph(ran).compile(checkpointer=process)
            await graph.ainvoke({"question": question, "log": []}, config)
            done = await graph.ainvoke(Command(resume=f"yes {turn}"), config)
    assert done["log"] == ["drafted", "person said yes 0", "ran", "drafted", "person said yes 1", "ran"]
    assert done["question"] == "now by month"
