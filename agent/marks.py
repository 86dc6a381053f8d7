"""Marks written into a turn's text, in a module of their own so reading them imports nothing heavy
(the public API and the command line must not load LangChain to read a question)."""

# Joins a short follow-up to the question it follows, so the turn's question carries both.
FOLLOW_UP_MARK = " | follow-up: "
