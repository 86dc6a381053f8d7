"""What the bot offers to remember after a clarification: kept here, beside the store that keeps it,
so the supervisor's reply can carry it without the learning package depending on the supervisor."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class LearnOffer(BaseModel):
    """After a clarification: the word and what the person said it means, to remember for the workspace."""

    word: str
    meaning: str  # the option as shown
    kind: Literal["metric", "dimension", "entity", "definition", "context"]
    name: str  # the model element's name (a definition: the name it is given)

    @property
    def question(self) -> str:
        return f"Remember “{self.word}” = {self.meaning} for everyone?"
