"""Learning words: the offer after a clarification, the confirmation (under the access policy's `teach:`
groups, recorded in the audit trail), forgetting, and each run's model with the workspace's words.

Every run asks the store for the workspace's version (one small read) and lays the words over the
person's model again only when it changed, so a word taught on one replica is read by the next
question on any other."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Literal

from agent.audit.trail import AuditRecord, AuditTrail
from agent.context import ChatContext
from agent.errors import AssistantError
from agent.learning.overlay import is_model_name, label_of, resolve, with_learned
from agent.learning.teaching import definition_for
from agent.learning.store import DEFAULT_WORKSPACE, LearnedWord, LearningStore, VerifiedQuery, normal_word
from agent.learning.verified import new_query
from agent.semantic.model.runtime import SemanticModel
from agent.learning.offer import LearnOffer

log = logging.getLogger(__name__)

Outcome = Literal["ok", "refused", "error"]
MAX_VIEWS = 256  # (person's model, workspace) pairs kept laid over
MAX_ANSWER_WORDS = 6  # longer than this, a reply is a message of its own, not the name of a thing
MAX_WORD_WORDS = 4  # a clarified term longer than this is a phrase of the question, not a word to keep


def workspace_of(who: ChatContext | None) -> str:
    return (who.workspace if who is not None else None) or DEFAULT_WORKSPACE


@dataclass
class Taught:
    ok: bool
    text: str


class WordLearning:
    def __init__(self, store: LearningStore, audit: AuditTrail | None):
        self.store = store
        self.audit = audit
        self._views: dict[tuple[int, str], tuple[SemanticModel, str, SemanticModel]] = {}
        self._queries: dict[str, tuple[str, list[VerifiedQuery]]] = {}
        self._lock = threading.Lock()

    def for_run(self, model: SemanticModel, who: ChatContext) -> tuple[SemanticModel, list[VerifiedQuery]]:
        """`model` with the asker's workspace's learned words, and the workspace's verified queries: both
        read again only when the store's version moved, and that version read once for the two (in Redis,
        one round trip a run, not one each)."""
        workspace = workspace_of(who)
        try:
            version = self.store.version(workspace)
        except AssistantError as exc:  # the answer goes out without the team's words; said in the log
            log.warning("learned words and verified queries not read (workspace %s): %s", workspace,
                        exc.detail or exc.user_message)
            return model, []
        return self._model_at(model, workspace, version), self._verified_at(workspace, version)

    def _model_at(self, model: SemanticModel, workspace: str, version: str) -> SemanticModel:
        with self._lock:
            known = self._views.get((id(model), workspace))
        if known is not None and known[0] is model and known[1] == version:
            return known[2]
        try:
            learned = with_learned(model, self.store.words(workspace))
        except AssistantError as exc:
            log.warning("learned words not applied (workspace %s): %s", workspace, exc.detail or exc.user_message)
            return model
        with self._lock:
            if len(self._views) >= MAX_VIEWS:
                self._views.pop(next(iter(self._views)))
            self._views[(id(model), workspace)] = (model, version, learned)
        return learned

    def typed_answer(self, model: SemanticModel, text: str) -> str | None:
        """A reply to "What do you mean by “X”?" that names one thing of the model ('the origin airport'),
        as that thing's label; None when it names none (it is then a new message)."""
        if len(text.split()) > MAX_ANSWER_WORDS:
            return None
        target = resolve(text, model)
        return label_of(target, model) if target is not None else None

    def _verified_at(self, workspace: str, version: str) -> list[VerifiedQuery]:
        with self._lock:
            known = self._queries.get(workspace)
        if known is not None and known[0] == version:
            return known[1]
        try:
            queries = list(self.store.queries(workspace).values())
        except AssistantError as exc:
            log.warning("verified queries not read (workspace %s): %s", workspace, exc.detail or exc.user_message)
            return []
        with self._lock:
            if len(self._queries) >= MAX_VIEWS:
                self._queries.pop(next(iter(self._queries)))
            self._queries[workspace] = (version, queries)
        return queries

    def save_query(self, question: str, intent: dict[str, Any], tables: list[str], who: ChatContext, *,
                   allowed: bool) -> Taught:
        """Keep a confirmed answer's question and reading as a verified query of the workspace (or, asked
        the same way again, add nothing): under the policy's `teach:` groups, recorded in the audit trail."""
        workspace = workspace_of(who)
        if not allowed:
            self._record("verified.save", who, {"question": question}, "refused")
            return Taught(False, "Only the people the access policy lets teach the bot can save verified queries.")
        queries = self.store.queries(workspace)
        same = next((q for q in queries.values() if q.intent == intent), None)
        if same is not None:
            if question not in same.phrasings:
                same = same.model_copy(update={"phrasings": [*same.phrasings, question]})
                self.store.put_query(workspace, same)
                self._record("verified.phrasing", who, {"name": same.name, "question": question}, "ok")
            return Taught(True, f"That answer is saved already as the verified query {same.name}.")
        query = new_query(question, intent, tables, who.user, set(queries))
        self.store.put_query(workspace, query)
        self._record("verified.save", who, query.model_dump(), "ok")
        return Taught(True, f"Saved as a verified query ({query.name}): asked this way again, in this workspace, "
                            "it is answered the same way.")

    def offer(self, model: SemanticModel, term: str | None, chosen: str, workspace: str) -> LearnOffer | None:
        """"Remember “term” = chosen for everyone?", when the choice is an element of the model and the
        term is no name of its own nor already learned as that."""
        word = normal_word(term or "")
        if not word or len(word.split()) > MAX_WORD_WORDS or is_model_name(word, model):
            return None
        target = resolve(chosen, model)
        if target is None:
            return None
        kind, name, _ = target
        try:
            known = self.store.words(workspace).get(word)
        except AssistantError as exc:
            log.warning("no offer to remember %r: %s", word, exc.detail or exc.user_message)
            return None
        if known is not None and (known.kind, known.name) == (kind, name):
            return None
        return LearnOffer(word=word, meaning=chosen, kind=kind, name=name)

    def teach(self, model: SemanticModel, offer: LearnOffer, who: ChatContext, *, allowed: bool) -> Taught:
        workspace = workspace_of(who)
        word = normal_word(offer.word)
        if not allowed:
            self._record("vocabulary.learn", who, {"word": word, "meaning": offer.meaning}, "refused")
            return Taught(False, "Only the people the access policy lets teach the bot its words can do that; "
                                 "ask one of them to confirm it.")
        if is_model_name(word, model):
            return Taught(False, f"“{word}” is already a name in the data model, so I keep its meaning there.")
        learned = self._learned(word, offer, model, who)
        if learned is None:
            return Taught(False, f"“{offer.meaning}” is not something I can read in this data, so I did not "
                                 f"remember “{word}”.")
        self.store.put_word(workspace, learned)
        self._record("vocabulary.learn", who, learned.model_dump(), "ok")
        return Taught(True, f"Remembered for everyone here: “{word}” means {offer.meaning}.")

    @staticmethod
    def _learned(word: str, offer: LearnOffer, model: SemanticModel, who: ChatContext) -> LearnedWord | None:
        """What to keep, read again from the offer's words (a button's value is never trusted as it is)."""
        if offer.kind == "definition":
            definition = definition_for(word, offer.meaning, model)
            if definition is None:
                return None
            return LearnedWord(word=word, kind="definition", name=definition.name, label=offer.meaning,
                               table=definition.table, definition=definition.model_dump(), taught_by=who.user)
        target = resolve(offer.meaning, model)
        if target is None or target[:2] != (offer.kind, offer.name):
            return None
        kind, name, table = target
        return LearnedWord(word=word, kind=kind, name=name, label=offer.meaning, table=table, taught_by=who.user)

    def forget(self, workspace: str, word: str, who: ChatContext) -> LearnedWord | None:
        gone = self.store.forget_word(workspace, word)
        if gone is not None:
            self._record("vocabulary.forget", who.model_copy(update={"workspace": workspace}), gone.model_dump(), "ok")
        return gone

    def _record(self, action: str, who: ChatContext, detail: dict[str, Any], outcome: Outcome) -> None:
        if self.audit is None:
            return
        self.audit.record(AuditRecord(action=action, user=who.user, channel=who.channel, request_id=who.request_id,
                                      workspace=workspace_of(who), detail=detail, outcome=outcome))
