"""A word the bot asked about becomes the workspace's word once someone confirms it: read at once by
every assistant on the same store, unknown in another workspace, gone once forgotten, never over a
name the model has, and only from the people the access policy's `teach:` names."""

from __future__ import annotations

from agent.api import ChatContext, learning_command
from agent.learning.store import open_store
from tests.learning.conftest import ask, choose

ASKER = ChatContext(user="U1", channel="C1", workspace="T1")
OTHER_WORKSPACE = ChatContext(user="U9", channel="C9", workspace="T2")
QUESTION = "flights per hub"


async def _teach_hub(assistant, session, who=ASKER):
    asked = await ask(assistant, session, QUESTION, who)
    assert asked.ask_human is not None and asked.ask_human.kind == "clarify"
    assert asked.ask_human.term == "hub" and "What do you mean by “hub”?" in asked.ask_human.question
    answered = await choose(assistant, session, "origin airport", who)
    assert answered.ok and answered.learn is not None
    assert answered.learn.question == "Remember “hub” = origin airport for everyone?"
    return answered


async def test_an_answered_question_is_remembered_and_read_without_asking(make_learning_assistant, new_session, audit):
    assistant = make_learning_assistant()
    answered = await _teach_hub(assistant, new_session())
    assert "by origin airport" in answered.text  # the answer itself used the choice
    taught = await assistant.learn_word("s", answered.learn, ASKER)
    assert taught.ok and "“hub” means origin airport" in taught.text
    again = await ask(assistant, new_session(), QUESTION, ChatContext(user="U2", workspace="T1"))
    assert again.ask_human is None or again.ask_human.kind == "confirm_sql"
    assert "Number of flights by origin airport" in again.text
    learned = [r for r in audit if r.get("action") == "vocabulary.learn"]
    assert learned and learned[0]["user"] == "U1" and learned[0]["outcome"] == "ok" and learned[0]["ts"]
    assert learned[0]["detail"]["word"] == "hub" and learned[0]["workspace"] == "T1"


async def test_a_typed_answer_naming_a_thing_of_the_model_is_an_answer(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    session = new_session()
    await ask(assistant, session, QUESTION, ASKER)
    answered = await ask(assistant, session, "the destination airport", ASKER)
    assert answered.ok and answered.learn is not None and answered.learn.name == "dest"
    assert "destination" in answered.text.lower()


async def test_a_word_is_per_workspace_and_a_forgotten_word_is_asked_again(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    answered = await _teach_hub(assistant, new_session())
    assert (await assistant.learn_word("s", answered.learn, ASKER)).ok
    elsewhere = await ask(assistant, new_session(), QUESTION, OTHER_WORKSPACE)
    assert elsewhere.ask_human is not None and elsewhere.ask_human.kind == "clarify"
    status, lines = learning_command(assistant.settings, "vocabulary", "forget", "hub", "T1")
    assert status == 0 and "Forgot “hub”" in lines[0]
    forgotten = await ask(assistant, new_session(), QUESTION, ASKER)
    assert forgotten.ask_human is not None and forgotten.ask_human.kind == "clarify"


async def test_two_replicas_on_one_redis_read_a_word_at_once(make_learning_assistant, new_session, redis_url,
                                                             redis_prefix):
    first = make_learning_assistant(redis_url=redis_url, prefix=redis_prefix)
    second = make_learning_assistant(redis_url=redis_url, prefix=redis_prefix)
    before = await ask(second, new_session(), QUESTION, ASKER)  # the second replica has read the words once
    assert before.ask_human is not None and before.ask_human.kind == "clarify"
    answered = await _teach_hub(first, new_session())
    assert (await first.learn_word("s", answered.learn, ASKER)).ok
    after = await ask(second, new_session(), QUESTION, ASKER)
    assert "Number of flights by origin airport" in after.text
    assert "hub" not in open_store(second.settings).words("T2")


async def test_a_learned_word_never_takes_a_name_the_model_has(make_learning_assistant, new_session):
    assistant = make_learning_assistant()
    answered = await _teach_hub(assistant, new_session())
    offer = answered.learn.model_copy(update={"word": "carrier"})
    refused = await assistant.learn_word("s", offer, ASKER)
    assert not refused.ok and "already a name in the data model" in refused.error
    assert "carrier" not in assistant.learning.store.words("T1")


POLICY = """\
version: 1
contact: "#data-access"
default: allow
groups:
  leads: [ULEAD]
teach: [leads]
"""


async def test_only_the_policys_teach_groups_may_confirm_and_a_refusal_is_recorded(make_learning_assistant,
                                                                                   new_session, audit):
    assistant = make_learning_assistant(policy=POLICY)
    answered = await _teach_hub(assistant, new_session())
    refused = await assistant.learn_word("s", answered.learn, ASKER)
    assert not refused.ok and "teach" in refused.error
    assert [r["outcome"] for r in audit if r.get("action") == "vocabulary.learn"] == ["refused"]
    lead = ChatContext(user="ULEAD", workspace="T1")
    assert (await assistant.learn_word("s", answered.learn, lead)).ok
    assert assistant.learning.store.words("T1")["hub"].taught_by == "ULEAD"


async def test_a_word_that_only_names_the_data_is_dropped_and_remembered_as_such(make_learning_assistant,
                                                                                 new_session):
    from agent.learning.phrases import NAMES_THE_DATA

    assistant = make_learning_assistant()
    session = new_session()
    asked = await ask(assistant, session, "how many flights are in the ledger", ASKER)
    assert asked.ask_human is not None and asked.ask_human.options[0].label == NAMES_THE_DATA
    answered = await choose(assistant, session, NAMES_THE_DATA, ASKER)
    assert "Number of flights" in answered.text and answered.learn is not None and answered.learn.kind == "context"
    assert (await assistant.learn_word("s", answered.learn, ASKER)).ok
    again = await ask(assistant, new_session(), "how many flights are in the ledger", ASKER)
    assert again.ask_human is None or again.ask_human.kind == "confirm_sql", again.text
    assert "Number of flights" in again.text


async def test_a_run_reads_the_store_s_version_once_for_its_words_and_its_verified_queries(
        make_learning_assistant, new_session, redis_url, redis_prefix, monkeypatch):
    """Each run lays the workspace's words over the model and takes its verified queries, both only when
    the store's version moved: one version read (a Redis round trip) serves the two."""
    assistant = make_learning_assistant(redis_url=redis_url, prefix=redis_prefix)
    store = assistant.learning.store
    reads: list[str] = []
    version = store.version

    def counted(workspace: str) -> str:
        reads.append(workspace)
        return version(workspace)

    monkeypatch.setattr(store, "version", counted)
    asked = await ask(assistant, new_session(), "number of flights by origin", ASKER)
    assert asked.ask_human is not None and asked.ask_human.kind == "confirm_sql", asked.text
    assert reads == ["T1"]
