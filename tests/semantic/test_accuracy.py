"""Every dev question, and questions of our own phrased differently, answered offline:
extract -> compile -> run on the demo warehouse, compared with the gold SQL's rows."""

import json
from pathlib import Path

import pytest

from agent.semantic.compare import rows_match
from agent.semantic.compile.compiler import compile_intent

# the shared eval folder sits next to the checkout (/work/main) or two levels up (/work/wt/<name>)
DEV = next((p / "shared/eval/dev_questions.json" for p in Path(__file__).resolve().parents
            if (p / "shared/eval/dev_questions.json").exists()), Path("shared/eval/dev_questions.json"))
EXTRA = Path(__file__).with_name("extra_questions.json")


def _load(path: Path) -> list[dict]:
    return json.loads(path.read_text()) if path.exists() else []


QUESTIONS = _load(DEV) + _load(EXTRA)


@pytest.mark.parametrize("item", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_question_answered_like_the_gold_sql(item, ask, model, warehouse):
    extraction = ask(item["q"])
    assert extraction.intent is not None, extraction.reason or extraction.unsupported
    compiled = compile_intent(extraction.intent, model)
    got = warehouse.run(compiled.sql)
    gold = warehouse.run(item["sql"])
    assert rows_match(gold.columns, gold.rows, got.columns, got.rows, ordered=bool(item.get("ordered"))), compiled.sql


def test_dev_questions_are_present():
    assert len(_load(DEV)) >= 18, "the shared dev questions were not found"
    assert len(_load(EXTRA)) >= 20
