"""What Slack refuses before it looks at anything else: missing arguments, text that is too long,
prompts it cannot show. Written from Slack's method reference pages (docs.slack.dev/reference/methods/…),
independent of the bot's code. `refusal(method, params)` is the answer Slack would give, or None.
"""

from __future__ import annotations

from typing import Any

MAX_MESSAGE_TEXT = 40_000  # chat.postMessage: "messages containing more than 40,000 characters" are refused or cut
MAX_MARKDOWN_TEXT = 12_000  # chat.*Stream markdown_text, per call
MAX_PROMPTS = 4

# Arguments each method the stand-in answers cannot go without (present and not empty).
REQUIRED: dict[str, tuple[str, ...]] = {
    "auth.test": (),
    "usergroups.list": (),
    "chat.postMessage": ("channel",),
    "chat.update": ("channel", "ts"),
    "chat.postEphemeral": ("channel", "user"),
    "chat.delete": ("channel", "ts"),
    "chat.startStream": ("channel", "thread_ts"),
    "chat.appendStream": ("channel", "ts"),
    "chat.stopStream": ("channel", "ts"),
    "assistant.threads.setStatus": ("channel_id", "thread_ts"),
    "assistant.threads.setSuggestedPrompts": ("channel_id", "prompts"),
    "assistant.threads.setTitle": ("channel_id", "thread_ts", "title"),
    "files.getUploadURLExternal": ("filename", "length"),
    "files.completeUploadExternal": ("files",),
    "views.open": ("trigger_id", "view"),
    "conversations.replies": ("channel", "ts"),
}


def invalid(message: str) -> dict[str, Any]:
    return {"ok": False, "error": "invalid_arguments", "response_metadata": {"messages": [f"[ERROR] {message}"]}}


def refusal(method: str, params: dict[str, Any], *, view: str) -> dict[str, Any] | None:
    """Slack's error for these arguments, or None when it would go on to do the call.
    `view`: "agent" or "assistant", the messaging experience the app's manifest declares."""
    for name in REQUIRED[method]:
        if params.get(name) in (None, "", [], {}):
            if method.startswith("chat.") and name == "channel":
                return {"ok": False, "error": "channel_not_found"}
            return invalid(f"missing required field: {name}")
    check = _CHECKS.get(method)
    return check(params, view) if check else None


def _message(params: dict[str, Any], view: str) -> dict[str, Any] | None:
    text = params.get("text")
    if not text and not params.get("blocks"):
        return {"ok": False, "error": "no_text"}
    if text is not None and not isinstance(text, str):
        return invalid("text must be a string")
    if text and len(text) > MAX_MESSAGE_TEXT:
        return {"ok": False, "error": "msg_too_long"}
    return None


def _status(params: dict[str, Any], view: str) -> dict[str, Any] | None:
    # An empty status clears it, so the argument must be there but may be "".
    if not isinstance(params.get("status"), str):
        return invalid("missing required field: status")
    loading = params.get("loading_messages")
    if loading is not None and not (isinstance(loading, list) and all(isinstance(m, str) and m for m in loading)):
        return invalid("loading_messages must be a list of strings")
    return None


def _prompts(params: dict[str, Any], view: str) -> dict[str, Any] | None:
    prompts = params["prompts"]
    if not isinstance(prompts, list) or not 1 <= len(prompts) <= MAX_PROMPTS:
        return invalid(f"prompts must be a list of 1-{MAX_PROMPTS} prompts")
    for prompt in prompts:
        if not (isinstance(prompt, dict) and isinstance(prompt.get("title"), str) and prompt.get("title")
                and isinstance(prompt.get("message"), str) and prompt.get("message")):
            return invalid("each prompt needs a title and a message")
    if view == "agent" and params.get("thread_ts"):
        # Slack answers ok and shows nothing ("including it in a call for an agent app will cause the call
        # to silently fail"); the stand-in refuses it out loud so a test sees the prompts would be lost.
        return invalid("thread_ts is only for the legacy assistant view; an agent_view app must leave it out")
    return None


def _stream_text(params: dict[str, Any], view: str) -> dict[str, Any] | None:
    text = params.get("markdown_text")
    if text is not None and (not isinstance(text, str) or len(text) > MAX_MARKDOWN_TEXT):
        return {"ok": False, "error": "msg_too_long"}
    return None


def _append(params: dict[str, Any], view: str) -> dict[str, Any] | None:
    if not params.get("markdown_text") and not params.get("chunks"):
        return invalid("missing required field: markdown_text")
    return _stream_text(params, view)


_CHECKS = {
    "chat.postMessage": _message,
    "chat.update": _message,
    "chat.postEphemeral": _message,
    "chat.startStream": _stream_text,
    "chat.appendStream": _append,
    "chat.stopStream": _stream_text,
    "assistant.threads.setStatus": _status,
    "assistant.threads.setSuggestedPrompts": _prompts,
}
