"""The reader's word look-ups on disk: a new process reads them back instead of loading the libraries,
and what it reads back is what the libraries said."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.text import word_cache
from agent.text.word_cache import MISSING, WordCache
from tests.support.timeouts import PROCESS_TIMEOUT_S

REPO = Path(__file__).resolve().parents[2]
LOOKUPS = ("from agent.text import words\n"
           "out = [sorted(words.noun_forms('people')), words.lemmas('priciest'), words.is_common('menu'),\n"
           "       words.is_english('arriver'), words.plural_phrase('job role'), list(words.inflection('pricey', 'JJS')),\n"
           "       words.all_inflections('earn', 'VERB'), list(words.lemma('movies', 'NOUN')), words.stem('Performers')]\n")


def run(code: str, cache: Path | None) -> dict:
    """What `code` left in `out` (as JSON) and which of the libraries were imported, in a fresh interpreter."""
    use = f"words.use_disk_cache(__import__('pathlib').Path({str(cache)!r}))\n" if cache else ""
    script = (f"import json, sys\nfrom agent.text import words\n{use}{code}"
              "print(json.dumps({'out': out, 'libraries': sorted({m.split('.')[0] for m in sys.modules}"
              " & {'lemminflect', 'wordfreq', 'snowballstemmer'})}))")
    env = {**os.environ, "LOG_LEVEL": "WARNING"}
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.subprocess
def test_a_second_process_reads_the_words_from_disk_and_gets_what_the_libraries_said(tmp_path):
    from_libraries = run(LOOKUPS, None)
    first = run(LOOKUPS, tmp_path)  # looks them up, and saves them at exit
    second = run(LOOKUPS, tmp_path)
    assert from_libraries["libraries"] == first["libraries"] == ["lemminflect", "snowballstemmer", "wordfreq"]
    assert second["libraries"] == []
    assert first["out"] == second["out"] == from_libraries["out"]
    assert [p.name for p in tmp_path.iterdir()] == [word_cache.file_name()]


def test_a_damaged_file_is_started_again(tmp_path):
    (tmp_path / word_cache.file_name()).write_text("{not json")
    cache = WordCache()
    cache.use(tmp_path)
    assert cache.get("zipf", "menu") is MISSING
    cache.put("zipf", "menu", 4.3)
    cache.save()
    again = WordCache()
    again.use(tmp_path)
    assert again.get("zipf", "menu") == 4.3


def test_each_kind_keeps_at_most_its_bound_dropping_the_oldest(tmp_path, monkeypatch):
    monkeypatch.setattr(word_cache, "MAX_ENTRIES", 2)
    cache = WordCache()
    cache.use(tmp_path)
    for word in ("a", "b", "c"):
        cache.put("zipf", word, 1.0)
    assert [cache.get("zipf", w) for w in ("a", "b", "c")] == [MISSING, 1.0, 1.0]


def test_words_learned_before_the_folder_was_named_are_saved_there(tmp_path):
    cache = WordCache()
    cache.put("zipf", "menu", 4.3)
    cache.use(tmp_path)
    cache.save()
    assert json.loads((tmp_path / word_cache.file_name()).read_text()) == {"zipf": {"menu": 4.3}}
