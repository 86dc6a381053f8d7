"""The Slack stand-in in a process of its own, watching a burst of questions: the bench's Slack side.

Real Slack does its own work elsewhere; in the bot's process the stand-in's serving (and the clicks
it sends back) would share the bot's event loop and count as the bot's. Here it runs on its own loop
in its own process, over a pipe: it sends its Web API URL, takes the bot's events URL, watches each
question's thread, presses Run on each SQL confirmation `think_s` after it shows (as the asker), and
sends back when each Run click was sent and each final answer (the message with the feedback buttons)
arrived, by `time.perf_counter()` (the system's monotonic clock, the same in every process), once all are in or
`timeout_s` has passed. It stops when told to.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import aiohttp

from bot.render import actions
from tests.support.slack_requests import SlackSender, click, find_button, find_feedback
from tests.support.slack_standin import SlackStandIn


@dataclass
class Question:
    person: str
    ts: str  # the mention's ts: the thread the answer goes to
    answered_at: float | None = None
    not_answer: str | None = None  # what came instead of an answer
    clicked: bool = False


@dataclass
class Watch:
    """What the stand-in has shown in each question's thread, as it changes."""

    questions: dict[str, Question]  # by thread ts
    channel: str
    think_s: float
    sender: SlackSender | None = None
    all_done: asyncio.Event = field(default_factory=asyncio.Event)
    clicks: list[asyncio.Task[None]] = field(default_factory=list)
    click_acks: list[float] = field(default_factory=list)
    clicked_at: dict[str, float] = field(default_factory=dict)  # thread ts -> when its Run click was sent
    notices: list[str] = field(default_factory=list)  # notes only the person sees (rate limit, stale click)

    def seen(self, message: dict[str, Any], streaming: bool) -> None:
        question = self.questions.get(message.get("thread_ts") or message["ts"])
        if question is None or streaming or question.answered_at or question.not_answer:
            return
        text = message["text"] + json.dumps(message.get("blocks", []))
        if find_feedback(message, "up"):
            question.answered_at = time.perf_counter()
        elif find_button(message, actions.RUN):
            if not question.clicked:
                question.clicked = True
                self.clicks.append(asyncio.create_task(self.press_run(question, message)))
            return
        elif ":warning:" in text:
            question.not_answer = "busy" if "requests running" in text else "error"
        elif any(block.get("type") == "actions" for block in message.get("blocks", [])):
            question.not_answer = "asked back"  # a clarification the bench cannot answer for the person
        else:
            return  # a placeholder or progress ("Queued, 2 ahead of you…")
        if all(q.answered_at or q.not_answer for q in self.questions.values()):
            self.all_done.set()

    async def press_run(self, question: Question, message: dict[str, Any]) -> None:
        run = find_button(message, actions.RUN)
        assert run is not None and self.sender is not None
        await asyncio.sleep(self.think_s)  # the person reads the SQL first
        started = self.clicked_at[question.ts] = time.perf_counter()
        status, _ = await self.sender.interaction(
            click(actions.RUN, run["value"], message=message, channel=self.channel, user=question.person, label="Run"))
        self.click_acks.append(time.perf_counter() - started)
        assert status == 200, status


class WatchingStandIn(SlackStandIn):
    """Tells its watch of every message the bot posts, changes or finishes streaming."""

    watch: Watch

    async def _api(self, request):
        response = await super()._api(request)
        call = self.calls[-1]  # ours: nothing awaits between its recording and the answer
        key = (call.params.get("channel"), call.params.get("ts"))
        if call.method == "chat.postMessage" and response.status == 200:
            key = (call.params.get("channel"), json.loads(response.body)["ts"])
        if call.method == "chat.postEphemeral":
            if call.params.get("thread_ts") in self.watch.questions:
                self.watch.notices.append(call.params.get("text", ""))
        elif key in self.messages:
            self.watch.seen(self.messages[key], key in self.streaming)
        return response


def serve(conn: Connection, questions: list[tuple[str, str]], channel: str, secret: str, think_s: float,
          timeout_s: float) -> None:
    """The process's entry: `questions` are (person, thread ts)."""
    asyncio.run(_serve(conn, questions, channel, secret, think_s, timeout_s))


async def _serve(conn: Connection, questions: list[tuple[str, str]], channel: str, secret: str, think_s: float,
                 timeout_s: float) -> None:
    loop = asyncio.get_running_loop()
    watch = Watch({ts: Question(person, ts) for person, ts in questions}, channel, think_s)
    slack = WatchingStandIn()
    slack.watch = watch
    await slack.start()
    conn.send(slack.api_url)
    bot_url = await loop.run_in_executor(None, conn.recv)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        watch.sender = SlackSender(bot_url, secret, session)
        try:
            await asyncio.wait_for(watch.all_done.wait(), timeout_s)
        except TimeoutError:
            pass
        await asyncio.gather(*watch.clicks)
        conn.send({
            "answered": {q.ts: q.answered_at for q in watch.questions.values()},
            "not_answers": {q.ts: q.not_answer for q in watch.questions.values()},
            "click_acks": watch.click_acks,
            "clicked_at": watch.clicked_at,
            "notices": watch.notices,
        })
        await loop.run_in_executor(None, conn.recv)  # the bot has finished (charts and files after the answers)
    await slack.close()
