"""Text-to-SQL: the free path (context → two strategies → judge → validate and repair)."""

from agent.text2sql.draft import Placeholder, SqlDraft
from agent.text2sql.free_path import build_free_path, draft_sql
from agent.text2sql.placeholders import fill_placeholders

__all__ = ["Placeholder", "SqlDraft", "build_free_path", "draft_sql", "fill_placeholders"]
