"""The English that asks the bot to keep an answer, read from phrases.yaml (data, not code)."""

from __future__ import annotations

import re
from pathlib import Path

from agent.yamlload import safe_load

_DATA = safe_load(Path(__file__).with_name("phrases.yaml").read_text(encoding="utf-8"))
SAVE_REQUESTS = frozenset(" ".join(re.findall(r"[\w-]+", p.lower())) for p in _DATA["save_requests"])


def _pattern(template: str) -> re.Pattern[str]:
    literal = re.escape(template).replace(r"\{word\}", "{word}").replace(r"\{meaning\}", "{meaning}")
    literal = literal.replace(r"\ ", r"\s+")
    return re.compile("^" + literal.replace("{word}", r"[\"“']?(?P<word>[\w][\w\s-]{0,40}?)[\"”']?")
                      .replace("{meaning}", r"(?P<meaning>.+?)") + r"[\s.!]*$", re.IGNORECASE)


NAMES_THE_DATA: str = _DATA["names_the_data_choice"]
TEACHING = [_pattern(t) for t in _DATA["teaching"]]


def taught_in_words(text: str) -> tuple[str, str] | None:
    """(word, meaning) when the message teaches a word ('when I say hub I mean origin airport')."""
    said = " ".join(text.split())
    for pattern in TEACHING:
        match = pattern.match(said)
        if match:
            return " ".join(match["word"].lower().split()), match["meaning"].strip()
    return None
