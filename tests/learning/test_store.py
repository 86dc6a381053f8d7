"""The learned-word store: per workspace, versioned, the same contract on Redis and on a file."""

from __future__ import annotations

import pytest

from agent.learning.store import FileLearningStore, LearnedWord, RedisLearningStore, VerifiedQuery


@pytest.fixture(params=["file", "redis"])
def store(request, tmp_path):
    if request.param == "file":
        yield FileLearningStore(tmp_path / "learned")
        return
    url = request.getfixturevalue("redis_url")
    prefix = request.getfixturevalue("redis_prefix")
    opened = RedisLearningStore(url, prefix.rstrip(":"))
    yield opened
    opened.close()


def _word(word: str, name: str = "origin") -> LearnedWord:
    return LearnedWord(word=word, kind="dimension", name=name, label="origin airport", table="flights", taught_by="U1")


def test_a_word_is_kept_per_workspace_and_its_version_moves(store):
    before = store.version("T1")
    store.put_word("T1", _word("hub"))
    assert store.version("T1") != before
    assert store.words("T1")["hub"].name == "origin"
    assert store.words("T2") == {}


def test_a_forgotten_word_is_gone_and_forgetting_twice_changes_nothing(store):
    store.put_word("T1", _word("hub"))
    version = store.version("T1")
    gone = store.forget_word("T1", "  HUB ")
    assert gone is not None and gone.word == "hub"
    assert store.words("T1") == {}
    assert store.version("T1") != version
    assert store.forget_word("T1", "hub") is None


def test_verified_queries_are_kept_beside_the_words(store):
    query = VerifiedQuery(name="flights_by_origin", question="flights by origin", intent={"metrics": ["flights"]})
    store.put_query("T1", query)
    assert list(store.queries("T1")) == ["flights_by_origin"]
    assert store.forget_query("T1", "flights_by_origin") is not None
    assert store.queries("T1") == {}


def test_two_stores_on_one_place_see_each_others_words(store, tmp_path, request):
    if isinstance(store, FileLearningStore):
        other = FileLearningStore(store.folder)
    else:
        other = RedisLearningStore(request.getfixturevalue("redis_url"), store.prefix)
    store.put_word("T1", _word("hub"))
    assert other.version("T1") == store.version("T1")
    assert "hub" in other.words("T1")
    other.close()
