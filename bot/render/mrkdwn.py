"""Markdown (what the agent writes) to Slack mrkdwn (what a section block shows).

Code spans and fenced blocks pass through untouched; everything else is escaped as Slack
requires (&, <, >) and then bold, italics, strikethrough, links, headings and bullets are
rewritten in Slack's syntax.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"```[^\n`]*\n?(.*?)```", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_STAR = re.compile(r"(?<![*\w])\*(?=[^\s*])([^*\n]+?)(?<=\S)\*(?![*\w])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.M)
_BULLET = re.compile(r"^(\s*)[-*+]\s+", re.M)
_HR = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$", re.M)


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(markdown: str) -> str:
    protected: list[str] = []

    def keep(fragment: str) -> str:
        protected.append(fragment)
        return f"\x00{len(protected) - 1}\x00"

    text = _FENCE.sub(lambda m: keep("```\n" + escape(m.group(1).strip("\n")) + "\n```"), markdown)
    text = _INLINE_CODE.sub(lambda m: keep(escape(m.group(0))), text)
    text = escape(text)
    text = _LINK.sub(lambda m: keep(f"<{m.group(2)}|{m.group(1)}>"), text)
    text = _HR.sub("", text)
    # Bold first, parked as a placeholder, so the single-star italics rule cannot see its stars.
    text = _BOLD.sub(lambda m: keep(f"*{m.group(2)}*"), text)
    text = _HEADING.sub(lambda m: keep(f"*{m.group(1)}*"), text)
    text = _BULLET.sub(lambda m: f"{m.group(1)}• ", text)
    text = _ITALIC_STAR.sub(r"_\1_", text)
    text = _STRIKE.sub(r"~\1~", text)
    while "\x00" in text:
        text = re.sub(r"\x00(\d+)\x00", lambda m: protected[int(m.group(1))], text)
    return text.strip()


def from_slack(text: str) -> str:
    """What a person typed, from Slack's encoded form: links and entities back to plain text."""
    text = re.sub(r"<(https?://[^|>]+)\|([^>]+)>", r"\2", text)
    text = re.sub(r"<(https?://[^>]+)>", r"\1", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
