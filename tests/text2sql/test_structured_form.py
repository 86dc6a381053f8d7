"""A structured answer's schema is turned into its JSON form once, not on every call (LangChain would
redo it for its tracing metadata on each call, on the event loop)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from agent.llm.offline import OfflineChatModel
from agent.text2sql.steps import structured

forms: list[str] = []


class Tally(BaseModel):
    """A count of something."""

    n: int

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        forms.append(cls.__name__)
        return super().model_json_schema(*args, **kwargs)


def model(answer: dict[str, Any]) -> OfflineChatModel:
    async def fill(text: str) -> BaseModel:
        return Tally.model_construct(**answer)  # what a provider sends: not yet checked against the schema

    return OfflineChatModel(structured={"Tally": fill})


async def test_the_schema_is_turned_into_json_once_over_many_calls():
    forms.clear()
    answers = [await structured(model({"n": 3}), Tally, "how many?") for _ in range(5)]
    assert answers == [Tally(n=3)] * 5
    assert len(forms) <= 1


# The offline model dumps the provider's unchecked answer as sent; pydantic warns of the string in an int.
@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")
async def test_an_answer_that_does_not_fit_the_schema_is_refused():
    with pytest.raises(ValidationError):
        await structured(model({"n": "three"}), Tally, "how many?")
