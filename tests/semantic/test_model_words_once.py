"""The model's own words are put in the reader's forms once per model (issue 23): a question's passes read
them on the model (`SemanticModel.phrases`, `noun_phrases`, `name_words`) instead of tokenizing the same
word lists and splitting the same names again on every question."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from agent.semantic.model.runtime import Said
from agent.semantic.nlq.follow_ups import follow_up_intents
from agent.text.phrases import phrase
from agent.text.words import inflections, split_name

QUESTION = "average arrival delay by carrier last month"


def _calls_into(functions: list[Callable[..., Any]], read: Callable[[], object]) -> list[str]:
    codes = {f.__code__ for f in functions}
    seen: list[str] = []

    def hook(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code in codes:
            seen.append(f"{frame.f_code.co_name}{tuple(frame.f_locals.values())}")

    sys.setprofile(hook)
    try:
        read()
    finally:
        sys.setprofile(None)
    return seen


def test_a_question_read_again_puts_no_word_of_the_model_in_form_again(ask, model, values):
    def read() -> None:
        intent = ask(QUESTION).intent
        assert intent is not None
        follow_up_intents(intent, model, values)

    read()
    assert _calls_into([phrase, split_name, inflections], read) == []


def test_the_forms_are_the_text_modules_own(model):
    assert model.phrases["as of now"] == phrase("as of now")
    assert model.noun_phrases["origin airport"] == frozenset(inflections(phrase("origin airport")))
    assert model.name_words["departure_hour"] == split_name("departure_hour") == "departure hour"


def test_a_text_not_made_beforehand_is_made_when_first_named_and_kept():
    made: list[str] = []
    said = Said(lambda text: made.append(text) or text.upper(), ["kept"])
    assert said["kept"] == "KEPT" and said["new"] == "NEW" and said["new"] == "NEW"
    assert made == ["kept", "new"]
