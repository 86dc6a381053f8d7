"""Putting one answer into one Slack thread: first feedback at once, throttled progress, the final reply.

In channels and DMs the feedback is a placeholder message that the final reply replaces;
in Assistant threads it is the thread status (falling back to a placeholder when Slack
refuses the status, e.g. in a DM thread that is not an Assistant thread).

The status, streaming and file uploads are extras: whatever Slack answers to them (an error,
a 5xx, an HTML page, nothing before the timeout) is logged once and the answer goes out the
plain way (chat.postMessage / chat.update).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from agent.api import Chart
from bot.render.blocks import Rendered, render_progress
from bot.slack_client import WEB_API_FAILURES, error_code, optional, slack_error

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 1.0
_NOT_A_MEMBER = ("not_in_channel", "channel_not_found")
# Rotated by Slack under the status while the agent works (the agent view's loading messages).
LOADING_MESSAGES = ["Reading your question…", "Finding the right tables…", "Writing SQL…", "Checking the numbers…"]
# Characters of the answer per chat.appendStream call: Slack takes 12,000 per call (not per message),
# so a long answer is streamed whole, in as many calls as it needs.
STREAM_CHUNK = 400


class ThreadDelivery:
    def __init__(
        self,
        client: AsyncWebClient,
        channel: str,
        thread_ts: str | None,
        *,
        use_status: bool = False,
        response_url: str | None = None,
        recipient: tuple[str | None, str | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        min_interval_s: float = PROGRESS_INTERVAL_S,
    ):
        self.client = client
        self.channel = channel
        self.thread_ts = thread_ts
        self.placeholder_ts: str | None = None
        self._use_status = use_status
        self._response_url = response_url
        self._via_response_url = False
        self._clock = clock
        self._min_interval_s = min_interval_s
        self._last_update = float("-inf")
        self._last_label: str | None = None
        # (team, user) the answer is for: with it the answer is streamed (chat.startStream …).
        self._recipient = recipient
        self._progress_failed = False  # a failing progress update is logged once, not on every step

    async def start(self, label: str) -> None:
        if self._use_status and self.thread_ts:
            try:
                await self.client.assistant_threads_setStatus(
                    channel_id=self.channel, thread_ts=self.thread_ts, status=label, loading_messages=LOADING_MESSAGES
                )
                self._mark(label)
                return
            except WEB_API_FAILURES as exc:
                log.warning("status failed (%s); using a placeholder message", slack_error(exc))
                self._use_status = False
        rendered = render_progress(label)
        try:
            response = await self.client.chat_postMessage(
                channel=self.channel, thread_ts=self.thread_ts, text=rendered.text, blocks=rendered.blocks
            )
        except SlackApiError as exc:
            if not self._response_url or error_code(exc) not in _NOT_A_MEMBER:
                raise
            # A slash command in a channel the bot is not in: answer through the command's response_url.
            log.info("cannot post in %s (%s); answering via response_url", self.channel, error_code(exc))
            self._via_response_url = True
            return
        self.placeholder_ts = response["ts"]
        if self.thread_ts is None:
            self.thread_ts = response["ts"]  # the placeholder starts the thread (slash commands)
        self._mark(label)

    def _mark(self, label: str) -> None:
        self._last_update = self._clock()
        self._last_label = label

    async def progress(self, label: str) -> None:
        """Show a progress label; at most one Slack call per interval, repeated labels skipped."""
        too_soon = self._clock() - self._last_update < self._min_interval_s
        if self._via_response_url or label == self._last_label or too_soon:
            return
        self._mark(label)
        try:
            if self._use_status and self.thread_ts:
                await self.client.assistant_threads_setStatus(
                    channel_id=self.channel, thread_ts=self.thread_ts, status=label
                )
            elif self.placeholder_ts:
                rendered = render_progress(label)
                await self.client.chat_update(
                    channel=self.channel, ts=self.placeholder_ts, text=rendered.text, blocks=rendered.blocks
                )
        except WEB_API_FAILURES as exc:  # cosmetic: the final reply still comes
            if not self._progress_failed:
                log.warning("progress update failed (%s); the answer will still be posted", slack_error(exc))
            self._progress_failed = True

    async def finish(self, rendered: Rendered) -> str | None:
        """Put the reply in the thread and return its message's ts, if known.

        Streamed (chat.startStream / appendStream / stopStream) when Slack allows it, else the
        placeholder is replaced (chat.update) or the reply posted; blocks Slack refuses as
        invalid_blocks are sent again in their fallback form (text table, PNG only, plain buttons).
        """
        if self._via_response_url and self._response_url:
            hook = await AsyncWebhookClient(self._response_url).send(
                text=rendered.text, blocks=rendered.fallback_blocks or rendered.blocks, response_type="ephemeral"
            )
            if hook.status_code != 200:
                log.error("response_url refused the reply: %s %s", hook.status_code, hook.body)
            return None
        if rendered.stream_text and self._recipient and self.thread_ts:
            streamed = await self._stream(rendered)
            if streamed:
                return streamed
        try:
            return await self._replace_or_post(rendered.text, rendered.blocks)
        except SlackApiError as exc:
            if error_code(exc) != "invalid_blocks" or rendered.fallback_blocks is None:
                raise
            log.warning("Slack refused the reply's blocks (%s); sending the fallback", exc.response.get("errors"))
            return await self._replace_or_post(rendered.text, rendered.fallback_blocks)

    async def _replace_or_post(self, text: str, blocks: list[dict[str, Any]]) -> str | None:
        if self.placeholder_ts:
            try:
                await self.client.chat_update(channel=self.channel, ts=self.placeholder_ts, text=text, blocks=blocks)
                return self.placeholder_ts
            except SlackApiError as exc:
                if error_code(exc) == "invalid_blocks":
                    raise
                log.warning("could not replace the placeholder (%s); posting the reply", slack_error(exc))
        response = await self.client.chat_postMessage(channel=self.channel, thread_ts=self.thread_ts, text=text, blocks=blocks)
        ts: str | None = response.get("ts")
        return ts

    async def _stream(self, rendered: Rendered) -> str | None:
        """Stream the answer's words, then stop with the blocks beneath; None when Slack would not stream."""
        team, user = self._recipient or (None, None)
        if self.thread_ts is None:
            return None  # a stream is always a reply in a thread
        streamer = await self.client.chat_stream(
            channel=self.channel, thread_ts=self.thread_ts, recipient_team_id=team, recipient_user_id=user,
            buffer_size=STREAM_CHUNK,
        )
        text = rendered.stream_text
        try:
            for start in range(0, len(text), STREAM_CHUNK):
                await streamer.append(markdown_text=text[start : start + STREAM_CHUNK])
            try:
                await streamer.stop(blocks=rendered.stream_blocks)
            except SlackApiError as exc:
                if error_code(exc) != "invalid_blocks" or rendered.fallback_stream_blocks is None:
                    raise
                log.warning("Slack refused the streamed reply's blocks; stopping with the fallback")
                await streamer.stop(blocks=rendered.fallback_stream_blocks)
        except WEB_API_FAILURES as exc:
            log.warning("streaming failed (%s); posting the answer instead", slack_error(exc))
            if streamer.ts:
                await self._quietly_delete(streamer.ts)
            return None
        if self.placeholder_ts:
            await self._quietly_delete(self.placeholder_ts)
            self.placeholder_ts = None
        return streamer.ts

    async def _quietly_delete(self, ts: str) -> None:
        await optional(f"deleting message {ts}", self.client.chat_delete(channel=self.channel, ts=ts))

    async def attach(self, *, filename: str, content: bytes, title: str) -> None:
        """Upload a file (chart, CSV) into the thread; a failure is told in the thread, not swallowed."""
        if self._via_response_url:
            return  # no thread to upload into
        try:
            await self.client.files_upload_v2(
                channel=self.channel, thread_ts=self.thread_ts, file=content, filename=filename, title=title
            )
        except WEB_API_FAILURES as exc:
            log.warning("upload of %s failed (%s); saying so in the thread", filename, slack_error(exc))
            await optional("saying the upload failed", self.client.chat_postMessage(
                channel=self.channel, thread_ts=self.thread_ts, text=f"I could not attach {filename} ({title})."
            ))

    async def attach_chart(self, chart: Chart) -> None:
        assert chart.png is not None, "a chart is drawn (agent.draw_chart) before it is attached"
        await self.attach(filename="chart.png", content=chart.png, title=chart.spec.title or "Chart")

