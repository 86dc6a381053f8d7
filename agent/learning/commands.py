"""`python -m agent vocabulary list|show|forget|export` and `python -m agent verified list|forget|export`:
review and undo what the team taught, per workspace; each change is recorded in the audit trail
(who: the operating-system user, as `cli:<name>`)."""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Any

from agent.audit.trail import AuditRecord, AuditTrail
from agent.learning.export import saved_queries, words_overlay
from agent.learning.store import LearnedWord, LearningStore, VerifiedQuery, normal_word, open_store
from agent.settings import Settings


def _person() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # no name for this uid (a container): still recorded as the command line
        return "cli"


def _word_line(word: LearnedWord) -> str:
    by = f" (taught by {word.taught_by}" if word.taught_by else " (taught"
    return f"“{word.word}” = {word.label} [{word.kind} {word.name}]{by} on {word.taught_at[:10]})"


def _query_line(query: VerifiedQuery) -> str:
    by = f" by {query.saved_by}" if query.saved_by else ""
    return f"{query.name}: “{query.question}” (saved{by} on {query.saved_at[:10]})"


def run(settings: Settings, kind: str, step: str, target: str | None, workspace: str,
        out: Path | None = None) -> tuple[int, list[str]]:
    """(exit status, lines to print) for one review or undo command."""
    store = open_store(settings)
    try:
        if kind == "vocabulary":
            return _vocabulary(settings, store, step, target, workspace, out)
        return _verified(settings, store, step, target, workspace, out)
    finally:
        store.close()


def _vocabulary(settings: Settings, store: LearningStore, step: str, target: str | None, workspace: str,
                out: Path | None) -> tuple[int, list[str]]:
    words = store.words(workspace)
    if step == "list":
        return 0, [_word_line(w) for _, w in sorted(words.items())] or [f"No words learned in workspace {workspace}."]
    if step == "export":
        return _written(words_overlay(list(words.values()), workspace), out)
    word = normal_word(target or "")
    if step == "show":
        found = words.get(word)
        return (0, [_word_line(found)]) if found else (1, [f"“{word}” is not a learned word in workspace {workspace}."])
    gone = store.forget_word(workspace, word)
    if gone is None:
        return 1, [f"“{word}” is not a learned word in workspace {workspace}; nothing changed."]
    _record(settings, "vocabulary.forget", workspace, gone.model_dump())
    return 0, [f"Forgot “{word}” in workspace {workspace}: it no longer means {gone.label}."]


def _verified(settings: Settings, store: LearningStore, step: str, target: str | None, workspace: str,
              out: Path | None) -> tuple[int, list[str]]:
    queries = store.queries(workspace)
    if step == "list":
        return 0, [_query_line(q) for _, q in sorted(queries.items())] or [f"No verified queries in workspace {workspace}."]
    if step == "export":
        return _written(saved_queries(list(queries.values()), workspace), out)
    gone = store.forget_query(workspace, target or "")
    if gone is None:
        return 1, [f"No verified query is named “{target}” in workspace {workspace}; nothing changed."]
    _record(settings, "verified.forget", workspace, gone.model_dump())
    return 0, [f"Forgot the verified query {gone.name} (“{gone.question}”) in workspace {workspace}."]


def _written(text: str, out: Path | None) -> tuple[int, list[str]]:
    if out is None:
        return 0, [text.rstrip("\n")]
    out.write_text(text, encoding="utf-8")
    return 0, [f"Wrote {out}."]


def _record(settings: Settings, action: str, workspace: str, detail: dict[str, Any]) -> None:
    trail = AuditTrail.from_settings(settings)
    try:
        trail.record(AuditRecord(action=action, user=_person(), workspace=workspace, detail=detail, outcome="ok"))
    finally:
        trail.close()
