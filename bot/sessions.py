"""One Slack thread is one agent session: channel + thread_ts (a top-level message's own ts) -> session_id."""

from __future__ import annotations

from bot.store.state import StateStore


def thread_key(channel: str, thread_ts: str) -> str:
    return f"{channel}:{thread_ts}"


def new_session_id(channel: str, anchor: str) -> str:
    return f"slack-{channel}-{anchor}"


async def session_for_thread(store: StateStore, channel: str, thread_ts: str) -> tuple[str, bool]:
    """The thread's session, created on first use; the flag says whether it already existed."""
    key = thread_key(channel, thread_ts)
    existing = await store.session_for(key)
    if existing:
        return existing, True
    session_id = new_session_id(channel, thread_ts)
    await store.bind_session(key, session_id)
    return session_id, False
