"""The reader's English words, agent/semantic/vocabulary.yaml, parsed once per process.

Several modules take their part of it at import (function words, abbreviations, units, name type tags,
chat shorthand, net measures); each parsing the whole file again cost a start about 5 ms a time, six
times over. The document is shared, so it is only ever read, never edited: a reader that changes what
it takes copies it first.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from agent.yamlload import safe_load

VOCABULARY_PATH = Path(__file__).parents[1] / "semantic" / "vocabulary.yaml"


@cache
def english() -> dict[str, Any]:
    document: dict[str, Any] = safe_load(VOCABULARY_PATH.read_text(encoding="utf-8"))
    return document
