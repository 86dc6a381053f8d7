"""Action ids and button values: the contract between the blocks we send and the listeners that receive clicks."""

from __future__ import annotations

import json
import re
from typing import Any

RUN = "confirm_run"
EDIT = "confirm_edit"
CANCEL = "confirm_cancel"
CHOOSE = "choose_option"  # suffixed with the option's index: ids must be unique within a message
FOLLOW_UP = "follow_up"  # suffixed likewise
FEEDBACK = "answer_feedback"  # Slack's feedback_buttons; the value says which was pressed
FEEDBACK_UP = "feedback_up"  # the legacy buttons, still answered for messages already posted
FEEDBACK_DOWN = "feedback_down"
FEEDBACK_REASON = "feedback_reason"  # "what was wrong?" after a thumbs-down
RETRY = "retry"
LEARN = "learn_word"  # "Remember “X” = Y for everyone?" after a clarification
EDIT_SQL_VIEW = "edit_sql"
EDIT_SQL_BLOCK = "sql_block"
EDIT_SQL_INPUT = "sql_input"

CHOOSE_PATTERN = re.compile(rf"^{CHOOSE}(_\d+)?$")
FOLLOW_UP_PATTERN = re.compile(rf"^{FOLLOW_UP}(_\d+)?$")
FEEDBACK_REASON_PATTERN = re.compile(rf"^{FEEDBACK_REASON}(_\d+)?$")

MAX_VALUE = 2000


def encode(**fields: Any) -> str:
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)


def decode(value: str | None) -> dict[str, Any]:
    try:
        decoded = json.loads(value or "{}")
    except json.JSONDecodeError:
        return {}
    return decoded if isinstance(decoded, dict) else {}
