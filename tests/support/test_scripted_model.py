import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from tests.support.scripted_model import ScriptedChatModel, tool_call


class Answer(BaseModel):
    value: int


async def test_replays_tool_calls_and_structured_output_in_order():
    model = ScriptedChatModel([tool_call("fix_sql", {"sql": "x"}), {"value": 3}])
    first = await model.bind_tools([]).ainvoke([HumanMessage("hi")])
    second = await model.with_structured_output(Answer).ainvoke([HumanMessage("n?")])
    assert first.tool_calls[0]["name"] == "fix_sql"
    assert second == Answer(value=3)
    assert len(model.calls) == 2 and model.remaining == 0


async def test_raises_scripted_errors_and_when_exhausted():
    model = ScriptedChatModel([TimeoutError("slow")])
    with pytest.raises(TimeoutError):
        await model.ainvoke([HumanMessage("hi")])
    with pytest.raises(AssertionError):
        await model.ainvoke([HumanMessage("again")])
