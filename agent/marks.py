"""Marks written into a turn's text, and the words asking for SQL rather than numbers, in a module of their
own so reading them imports nothing heavy (the public API and the command line must not load LangChain to
read a question)."""

import re

# Joins a short follow-up to the question it follows, so the turn's question carries both.
FOLLOW_UP_MARK = " | follow-up: "

# How people ask for SQL rather than numbers ('just give me the sql for …, don't run it'): part of the
# request, not of the data question, so taken out before the question is read.
ASKING_FOR_SQL = re.compile(
    r"\b(?:(?:write|give|generate|draft|build|create|show|need|want)\s+(?:me\s+)?(?:just\s+|only\s+)?"
    r"(?:the\s+|a\s+|an\s+)?)?"
    r"(?:sql|query|queries|select statement)(?:\s+(?:first|only|for|to get|to find|that|which|to))?\b"
    r"|\b(?:don'?t|do not|no need to|without)\s+(?:run(?:ning)?|execut(?:e|ing))(?:\s+(?:it|that|this))?(?:\s+yet)?\b"
    r"|\bno\s+(?:results?|numbers|data|rows)\s+yet\b",
    re.I,
)
