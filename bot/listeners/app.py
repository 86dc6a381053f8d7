"""The Slack surfaces: every listener acks at once and hands the work to the job runner.

Listeners only decide *whether* and *what* to run (dedupe, filters, parsing); turns.py
does the running. Bolt runs with process_before_response=True so a request's job is
submitted before its HTTP response leaves; listeners make no Web API calls inline
(those go through `jobs.spawn`), so the ack never waits on Slack.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.save_thread_context.async_save_thread_context import AsyncSaveThreadContext
from slack_sdk.web.async_client import AsyncWebClient

from agent.api import DEFAULT_DIALECT, AgentName, ChatContext, LearnOffer
from bot.settings import BotSettings
from bot.render import actions
from bot.agent_port import AgentPort
from bot.render.blocks import edit_sql_modal, feedback_reason_prompt, settle_question
from bot.listeners.commands import EXPLAINSQL_USAGE, FIXSQL_USAGE, parse_sql_command
from bot.jobs.model import AskJob, JobRunner, ResumeJob, ToolJob, Where, job_from_json
from bot.listeners.observe import AssistantEventsOnly, Observe
from bot.logs import new_request_id
from bot.metrics import BotMetrics
from bot.render.mrkdwn import from_slack
from bot.sessions import new_session_id, session_for_thread, thread_key
from bot.slack_client import optional
from bot.store.state import Feedback, StateStore
from bot.user_groups import UserGroups

log = logging.getLogger(__name__)

DEDUPE_TTL_S = 3600
PERSON_SUBTYPES = (None, "thread_broadcast")  # edits, deletions, bot posts, joins… all carry other subtypes
MAX_SUGGESTED_PROMPTS = 4  # Slack shows up to four
PROMPTS_TITLE = "Try asking"
GREETING = "Hi! Ask me a question about the data, paste SQL to fix or explain, or pick a suggestion below."
NOT_YOURS = (
    "This question belongs to the person who asked it, so only they can run, edit or cancel it. "
    "Ask your own question and I will answer you."
)
# Someone else writing in a thread whose question waits for its asker's Run: left as it is, and said so.
WAITS_FOR_ASKER = (
    "The question in this thread is waiting for the person who asked it to run it, so I left it as it is. "
    "To ask your own question, mention me in a new message in the channel and I will answer you in its own thread."
)
ALREADY_ANSWERED = "That question was already answered."
EMPTY_QUESTION_HINT = "Ask me a data question, e.g. _How many flights left JFK each month?_"
# What manifest.yml (the agent view) subscribes to for the listeners below; message.* all arrive as `message`.
BOT_EVENTS = (
    "app_context_changed",
    "app_home_opened",
    "app_mention",
    "message.channels",
    "message.groups",
    "message.im",
    "message.mpim",
)
# The legacy Assistant pane's events. Slack sends them only to an app whose manifest declares
# assistant_view instead of agent_view (README, "Slack setup"); the listeners below still answer them.
ASSISTANT_PANE_EVENTS = ("assistant_thread_started", "assistant_thread_context_changed")
# Prompts are offered again when the person's view changes, at most this often per person.
PROMPTS_REFRESH_S = 60
COMMANDS = {
    "/fixsql": (AgentName.FIX_SQL, FIXSQL_USAGE, True, "Fixing the SQL <@{user}> sent…"),
    "/explainsql": (AgentName.EXPLAIN_SQL, EXPLAINSQL_USAGE, False, "Explaining the SQL <@{user}> sent…"),
}


@dataclass
class Surfaces:
    """The state the listeners share; one instance per app."""

    settings: BotSettings
    agent: AgentPort
    store: StateStore
    jobs: JobRunner
    client: AsyncWebClient
    user_groups: UserGroups | None = None  # Slack user groups, for the access policy's run_button groups

    # -- messages: mentions, DMs, thread replies, Assistant threads -------------------------

    async def accept_message(self, event: dict[str, Any], bot_user_id: str | None, *, assistant_thread: bool) -> None:
        channel, ts, user = event.get("channel"), event.get("ts"), event.get("user")
        if not (channel and ts and user):
            return
        # One answer per user message: app_mention and message, and Slack's retries, share channel+ts.
        if not await self.store.claim(f"msg:{channel}:{ts}", DEDUPE_TTL_S):
            log.info("duplicate delivery of %s:%s ignored", channel, ts)
            return
        thread_ts = event.get("thread_ts") or ts
        text = strip_mentions(from_slack(event.get("text") or ""))
        if not text:
            self.jobs.spawn(self._notice(channel, user, thread_ts, EMPTY_QUESTION_HINT), "empty-question-hint")
            return
        if await self._over_rate_limit(user):
            limit = self.settings.user_rate_limit_per_minute
            notice = f"You have asked {limit} questions in the last minute; please wait a moment and ask again."
            self.jobs.spawn(self._notice(channel, user, thread_ts, notice), "rate-limit-notice")
            return
        team = event.get("team") or event.get("user_team")
        where = Where(channel=channel, thread_ts=thread_ts, user=user, team=team, assistant_thread=assistant_thread)
        await self._ask_in_thread(where, text, title=text[:80] if assistant_thread else None)

    async def wants_channel_message(self, event: dict[str, Any], bot_user_id: str | None) -> bool:
        """A channel message is ours when it mentions the bot or continues a thread the bot is in."""
        if bot_user_id and f"<@{bot_user_id}" in (event.get("text") or ""):
            return True
        thread_ts = event.get("thread_ts")
        if not thread_ts:
            return False
        return await self.store.session_for(thread_key(event["channel"], thread_ts)) is not None

    async def _over_rate_limit(self, user: str) -> bool:
        limit = self.settings.user_rate_limit_per_minute
        return limit > 0 and await self.store.count_hit(f"rate:{user}", 60) > limit

    def prompts(self, user: str | None, channel: str | None) -> list[dict[str, str]]:
        """Example questions this person may ask here (the access policy decides which)."""
        who = ChatContext(user=user, channel=channel)
        return [p.model_dump() for p in self.agent.suggested_prompts(MAX_SUGGESTED_PROMPTS, who)]

    async def offer_prompts(self, channel: str, user: str | None, *, thread_ts: str | None = None) -> None:
        """Suggested prompts. The agent view shows them at the DM's latest message and must get no
        thread_ts (Slack drops such a call without a word); the legacy pane shows them in its thread."""
        prompts = self.prompts(user, channel)
        if prompts:
            where = {"thread_ts": thread_ts} if thread_ts else {}
            await optional("suggested prompts", self.client.assistant_threads_setSuggestedPrompts(
                channel_id=channel, prompts=prompts, title=PROMPTS_TITLE, **where
            ))

    async def context_changed(self, event: dict[str, Any]) -> None:
        """The person moved to another channel with the agent view open: the prompts were set at the
        DM's latest message, which an answer since may have buried, so they are offered again."""
        channel, user = event.get("channel"), event.get("user")
        if channel and user and await self.store.claim(f"prompts:{user}", PROMPTS_REFRESH_S):
            self.jobs.spawn(self.offer_prompts(channel, user), "suggested-prompts")

    async def greet_pane(self, channel: str, thread_ts: str, user: str | None) -> None:
        """The legacy Assistant pane's new thread: a greeting, then the prompts in that thread."""
        await optional("the greeting", self.client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=GREETING))
        await self.offer_prompts(channel, user, thread_ts=thread_ts)

    async def _notice(self, channel: str, user: str, thread_ts: str | None, text: str) -> None:
        await self.client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts, text=text)

    # -- slash commands --------------------------------------------------------------------

    async def accept_command(self, command: dict[str, Any], ack: AsyncAck) -> None:
        agent_name, usage, allow_error, placeholder = COMMANDS[command["command"]]
        parsed = parse_sql_command(command.get("text", ""), allow_error=allow_error)
        if parsed is None:
            await ack(text=usage)
            return
        await ack()
        request_id = new_request_id()
        channel, user = command["channel_id"], command["user_id"]
        args: dict[str, Any] = {"sql": parsed.sql, "dialect": DEFAULT_DIALECT}
        if allow_error:
            args["error"] = parsed.error
        await self.jobs.submit(
            ToolJob(
                request_id=request_id,
                session_id=new_session_id(channel, f"cmd-{request_id}"),
                where=Where(channel=channel, thread_ts=None, user=user),
                tool=agent_name,
                tool_args=args,
                placeholder=placeholder.format(user=user),
                response_url=command.get("response_url"),
            )
        )

    # -- buttons and the edit modal ----------------------------------------------------------

    async def answer_question(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        """Run / Cancel / a table or clarification option: resume the paused session, once."""
        value = actions.decode(action.get("value"))
        session_id, choice = value.get("s"), value.get("v")
        channel, message_ts, thread_ts, user = _where_clicked(body)
        if not (session_id and choice and channel):
            return
        if not await self._may_answer(session_id, channel, user, thread_ts):
            return
        if not await self._take_answer(session_id, value.get("q")) and not self._expired(message_ts):
            self.jobs.spawn(self._notice(channel, user, thread_ts, ALREADY_ANSWERED), "stale")
            return
        # An expired question goes to the agent too: it says so and offers to ask again.
        label = action.get("text", {}).get("text", choice)
        blocks = body.get("message", {}).get("blocks", [])
        self.jobs.spawn(
            self.client.chat_update(
                channel=channel, ts=message_ts, text=f"{label} chosen", blocks=settle_question(blocks, user, label)
            ),
            "settle-question",
        )
        await self.jobs.submit(
            ResumeJob(
                request_id=new_request_id(),
                session_id=session_id,
                where=Where(channel=channel, thread_ts=thread_ts, user=user, team=_team(body)),
                choice=choice,
                placeholder="Running it…" if choice == "run" else "Working on it…",
            )
        )

    async def _may_answer(
        self, session_id: str, channel: str, user: str, thread_ts: str | None, *, refusal: str = NOT_YOURS
    ) -> bool:
        """A question's buttons belong to the person who asked; anyone else gets `refusal`, a note only they see."""
        who = ChatContext(user=user, channel=channel)
        if await self.agent.may_answer(session_id, who):
            return True
        # Not the asker: a run_button group may still let them (groups are looked up only now).
        if self.user_groups is not None:
            who.groups = await self.user_groups.of(user)
            if who.groups and await self.agent.may_answer(session_id, who):
                return True
        log.info("%s may not answer someone else's question in session %s: refused", user, session_id)
        self.jobs.spawn(self._notice(channel, user, thread_ts, refusal), "not-yours")
        return False

    async def _take_answer(self, session_id: str, question_id: str | None) -> bool:
        """Whether this answer is the one that answers the session's pending question: the agent says
        what is pending (the session owns it, the bot keeps no flag of its own), and of the answers to
        one question only the first is taken (a double click, two people, two replicas). A button
        naming another question than the pending one (`question_id`) comes from a question answered since."""
        pending = await self.agent.pending(session_id)
        if pending is None or (question_id is not None and question_id != pending.id):
            return False
        return await self.store.claim(_answer_key(session_id, pending.id), self.settings.pending_ttl_s)

    def _expired(self, message_ts: str | None) -> bool:
        """The question message is older than a pending question may wait (Slack ts are epoch seconds)."""
        try:
            return time.time() - float(message_ts or "") > self.settings.pending_ttl_s
        except ValueError:
            return False

    async def open_sql_editor(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        session_id = actions.decode(action.get("value")).get("s")
        channel, message_ts, thread_ts, user = _where_clicked(body)
        if not (session_id and channel):
            return
        self.jobs.spawn(
            self._open_editor(session_id, body["trigger_id"], channel, message_ts, thread_ts, user), "open-editor"
        )

    async def _open_editor(
        self, session_id: str, trigger_id: str, channel: str, message_ts: str, thread_ts: str, user: str
    ) -> None:
        pending = await self.agent.pending(session_id)
        if pending is None:
            await self._notice(channel, user, thread_ts, ALREADY_ANSWERED)
            return
        if not await self._may_answer(session_id, channel, user, thread_ts):
            return
        metadata = actions.encode(s=session_id, c=channel, t=thread_ts, m=message_ts, q=pending.id)
        await self.client.views_open(trigger_id=trigger_id, view=edit_sql_modal(pending.sql or "", metadata))

    async def submit_edited_sql(self, body: dict[str, Any], view: dict[str, Any], ack: AsyncAck) -> None:
        sql = (
            view.get("state", {}).get("values", {}).get(actions.EDIT_SQL_BLOCK, {}).get(actions.EDIT_SQL_INPUT, {})
        ).get("value") or ""
        if not sql.strip():
            await ack(response_action="errors", errors={actions.EDIT_SQL_BLOCK: "Enter the SQL to run."})
            return
        await ack()
        meta = actions.decode(view.get("private_metadata"))
        session_id, channel, thread_ts, user = meta.get("s"), meta.get("c"), meta.get("t"), body["user"]["id"]
        if not (session_id and channel and thread_ts):
            return
        if not await self._may_answer(session_id, channel, user, thread_ts):
            return
        if not await self._take_answer(session_id, meta.get("q")):
            self.jobs.spawn(self._notice(channel, user, thread_ts, ALREADY_ANSWERED), "stale")
            return
        await self.jobs.submit(
            ResumeJob(
                request_id=new_request_id(),
                session_id=session_id,
                where=Where(channel=channel, thread_ts=thread_ts, user=user),
                choice="edit",
                edited_sql=sql.strip(),
                placeholder="Running your edited SQL…",
            )
        )

    async def ask_follow_up(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        question = actions.decode(action.get("value")).get("q")
        channel, _, thread_ts, user = _where_clicked(body)
        if not (question and channel and thread_ts):
            return
        await self._ask_in_thread(
            Where(channel=channel, thread_ts=thread_ts, user=user, team=_team(body)), question,
            echo=f"<@{user}> asked: {question}",
        )

    async def _ask_in_thread(self, where: Where, text: str, *, title: str | None = None, echo: str | None = None) -> None:
        """Queue a question in the thread's session; `title` names the thread when the session is new."""
        if where.thread_ts is None:  # only slash commands start threads, and they do not come this way
            raise ValueError("a question in a thread needs the thread's ts")
        session_id, existed = await session_for_thread(self.store, where.channel, where.thread_ts)
        pending = await self.agent.pending(session_id) if existed else None
        if pending is not None:
            if not await self._may_answer(
                session_id, where.channel, where.user, where.thread_ts, refusal=WAITS_FOR_ASKER
            ):
                # A question waiting in the thread belongs to its asker: anyone else's message neither
                # answers nor replaces it (their own question goes in a new thread), so it is not taken.
                return
            # The asker's message answers it in words (the agent reads "yes/run it/cancel") or replaces it:
            # either way a click on its buttons afterwards finds it answered.
            await self.store.claim(_answer_key(session_id, pending.id), self.settings.pending_ttl_s)
        await self.jobs.submit(
            AskJob(
                request_id=new_request_id(),
                session_id=session_id,
                where=where,
                text=text,
                thread_title=None if existed else title,
                echo=echo,
            )
        )

    async def record_feedback(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        value = actions.decode(action.get("value"))
        channel, message_ts, thread_ts, user = _where_clicked(body)
        if action["action_id"] == actions.FEEDBACK:
            vote = "down" if value.get("v") == "down" else "up"
        else:
            vote = "up" if action["action_id"] == actions.FEEDBACK_UP else "down"
        feedback = Feedback(
            session_id=value.get("s") or "", message_ts=message_ts, channel=channel, user=user, vote=vote,
            request_id=value.get("r"),
        )
        await self.store.record_feedback(feedback)
        log.info("feedback vote=%s session=%s request=%s user=%s", vote, feedback.session_id, feedback.request_id, user)
        if vote == "down":
            # A thumbs-down is most useful with a reason; asking is one ephemeral message, answering is optional.
            rendered = feedback_reason_prompt(feedback.session_id, message_ts, feedback.request_id)
            self.jobs.spawn(
                self.client.chat_postEphemeral(
                    channel=channel, user=user, thread_ts=thread_ts, text=rendered.text, blocks=rendered.blocks
                ),
                "feedback-reason",
            )
            return
        # A thumbs-up confirms the answer: its question and reading become a verified query of the workspace.
        self.jobs.spawn(self._save_verified(feedback.session_id, channel, thread_ts, user, _team(body)), "save-verified")

    async def _save_verified(self, session_id: str, channel: str, thread_ts: str, user: str, team: str | None) -> None:
        who = ChatContext(user=user, channel=channel, workspace=team, request_id=new_request_id(),
                          groups=await self.user_groups.of(user) if self.user_groups is not None else [])
        saved = await self.agent.save_verified(session_id, who)
        if saved.ok:
            text = f"Thanks for the feedback! {saved.text}"
        else:  # the vote counts either way; why nothing was saved is said, with the request id for the logs
            text = f"Thanks for the feedback! ({saved.error} Request {saved.request_id}.)"
        await self._notice(channel, user, thread_ts, text)

    async def record_feedback_reason(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        value = actions.decode(action.get("value"))
        channel, _, thread_ts, user = _where_clicked(body)
        if not value.get("m"):
            return
        feedback = Feedback(
            session_id=value.get("s") or "", message_ts=value["m"], channel=channel, user=user, vote="down",
            request_id=value.get("r"), reason=value.get("why"),
        )
        await self.store.record_feedback(feedback)
        log.info("feedback reason=%s session=%s request=%s user=%s", feedback.reason, feedback.session_id,
                 feedback.request_id, user)
        self.jobs.spawn(self._notice(channel, user, thread_ts, "Thanks, that helps me improve."), "feedback-thanks")

    async def learn_word(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        """"Remember “X” = Y for everyone?": the agent keeps it if the policy's `teach:` groups allow this person."""
        value = actions.decode(action.get("value"))
        channel, _, thread_ts, user = _where_clicked(body)
        if not (value.get("w") and value.get("m") and channel):
            return
        offer = LearnOffer(word=value["w"], meaning=value["m"], kind=value.get("k") or "dimension", name=value.get("n") or "")
        self.jobs.spawn(self._learn(offer, value.get("s") or "", channel, thread_ts, user, _team(body)), "learn-word")

    async def _learn(self, offer: LearnOffer, session_id: str, channel: str, thread_ts: str, user: str,
                     team: str | None) -> None:
        who = ChatContext(user=user, channel=channel, workspace=team, request_id=new_request_id(),
                          groups=await self.user_groups.of(user) if self.user_groups is not None else [])
        reply = await self.agent.learn_word(session_id, offer, who)
        text = reply.text if reply.ok else f"{reply.error} (request {reply.request_id})"
        await self._notice(channel, user, thread_ts, text)

    async def retry(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        job_id = actions.decode(action.get("value")).get("j")
        channel, message_ts, thread_ts, user = _where_clicked(body)
        if not (job_id and channel):
            return
        if not await self.store.claim(f"retry:{channel}:{message_ts}", DEDUPE_TTL_S):
            return  # a double click: the first one is already running
        saved = await self.store.load_job(job_id)
        if saved is None:
            notice = "That request is too old to retry; please ask again."
            self.jobs.spawn(self._notice(channel, user, thread_ts, notice), "retry-expired")
            return
        original = job_from_json(saved)
        self.jobs.spawn(
            self.client.chat_update(channel=channel, ts=message_ts, text="Retrying…", blocks=[]), "settle-retry"
        )
        await self.jobs.submit(
            original.model_copy(
                update={
                    "job_id": uuid.uuid4().hex,
                    "request_id": new_request_id(),
                    "where": original.where.model_copy(update={"thread_ts": thread_ts, "user": user}),
                    "echo": None,
                    "thread_title": None,
                }
            )
        )


def strip_mentions(text: str) -> str:
    """The question without Slack user mentions: the bot's own, and others', which carry no meaning for the agent."""
    text = re.sub(r"<@[A-Z0-9]+(\|[^>]*)?>", " ", text)
    return re.sub(r"[ \t]+", " ", text).strip()


def is_person_message(event: dict[str, Any], bot_user_id: str | None) -> bool:
    return (
        event.get("subtype") in PERSON_SUBTYPES
        and not event.get("bot_id")
        and event.get("user") not in (None, bot_user_id)
    )


def _team(body: dict[str, Any]) -> str | None:
    return (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id")


def _where_clicked(body: dict[str, Any]) -> tuple[str, str, str, str]:
    """(channel, message_ts, thread_ts, user) of a button click; thread_ts is the thread to answer in."""
    container = body.get("container", {})
    message = body.get("message", {})
    channel = container.get("channel_id") or body.get("channel", {}).get("id")
    message_ts = container.get("message_ts") or message.get("ts")
    thread_ts = container.get("thread_ts") or message.get("thread_ts") or message_ts
    return channel, message_ts, thread_ts, body["user"]["id"]


def build_app(surfaces: Surfaces, *, signing_secret: str | None, metrics: BotMetrics | None = None) -> AsyncApp:
    """Register every surface on one AsyncApp; manifest.yml declares exactly these (a test checks)."""
    app = AsyncApp(
        # Bolt's default name is the caller's file name, found with inspect.stack(), which reads the source of
        # every frame on the stack: ~0.07 CPU-s of the bot's start before its first /readyz 200. The same name.
        name=Path(__file__).name,
        client=surfaces.client,
        signing_secret=signing_secret,
        process_before_response=True,
        # Socket Mode requests arrive unsigned over the authenticated socket; HTTP requires the secret.
        request_verification_enabled=signing_secret is not None,
    )
    app.use(Observe(metrics or BotMetrics()))
    # Bolt tries its listeners in the order they were added, each one's matchers, until one matches: the
    # events that come most (mentions, messages) first, so a burst of mentions is not checked against
    # every rarer listener before its own on the way to its ack.
    @app.event("app_mention")
    async def mention(event: dict[str, Any], context: AsyncBoltContext) -> None:
        if is_person_message(event, context.bot_user_id):
            await surfaces.accept_message(event, context.bot_user_id, assistant_thread=False)

    @app.event("message")
    async def message(event: dict[str, Any], context: AsyncBoltContext) -> None:
        if not is_person_message(event, context.bot_user_id):
            return
        if event.get("channel_type") == "im" or await surfaces.wants_channel_message(event, context.bot_user_id):
            await surfaces.accept_message(event, context.bot_user_id, assistant_thread=False)

    assistant = AssistantEventsOnly()

    @assistant.thread_started
    async def thread_started(payload: dict[str, Any]) -> None:
        # The legacy Assistant pane (assistant_view): a greeting and prompts per thread, after the ack.
        thread = payload.get("assistant_thread") or {}
        if thread.get("channel_id") and thread.get("thread_ts"):
            surfaces.jobs.spawn(
                surfaces.greet_pane(thread["channel_id"], thread["thread_ts"], thread.get("user_id")), "greeting"
            )

    @app.event("app_home_opened")
    async def home_opened(event: dict[str, Any]) -> None:
        # The agent view (agent_view): the Messages tab of the app's DM shows the prompts.
        if event.get("tab") == "messages" and event.get("channel"):
            surfaces.jobs.spawn(surfaces.offer_prompts(event["channel"], event.get("user")), "suggested-prompts")

    @app.event("app_context_changed")
    async def app_context_changed(event: dict[str, Any]) -> None:
        # The agent view's context event (the legacy pane's is assistant_thread_context_changed).
        await surfaces.context_changed(event)

    @assistant.thread_context_changed
    async def context_changed(save_thread_context: AsyncSaveThreadContext, payload: dict[str, Any]) -> None:
        # Which channel the person is looking at; saved after the ack, like every Web API call.
        surfaces.jobs.spawn(
            optional("saving the thread context", save_thread_context(payload["assistant_thread"]["context"])),
            "save-thread-context",
        )

    @assistant.user_message
    async def assistant_message(payload: dict[str, Any], context: AsyncBoltContext) -> None:
        if is_person_message(payload, context.bot_user_id):
            await surfaces.accept_message(payload, context.bot_user_id, assistant_thread=True)

    app.assistant(assistant)

    for name in COMMANDS:

        @app.command(name)
        async def command(ack: AsyncAck, command: dict[str, Any]) -> None:
            await surfaces.accept_command(command, ack)

    async def on_edit_submitted(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        await surfaces.submit_edited_sql(body, view, ack)

    # Each click is acked first, then handled; the handlers only touch the store and the job runner.
    clicks: list[tuple[str | re.Pattern[str], ClickHandler]] = [
        (actions.RUN, surfaces.answer_question),
        (actions.CANCEL, surfaces.answer_question),
        (actions.CHOOSE_PATTERN, surfaces.answer_question),
        (actions.EDIT, surfaces.open_sql_editor),
        (actions.FOLLOW_UP_PATTERN, surfaces.ask_follow_up),
        (actions.FEEDBACK, surfaces.record_feedback),
        (actions.FEEDBACK_UP, surfaces.record_feedback),
        (actions.FEEDBACK_DOWN, surfaces.record_feedback),
        (actions.FEEDBACK_REASON_PATTERN, surfaces.record_feedback_reason),
        (actions.LEARN, surfaces.learn_word),
        (actions.RETRY, surfaces.retry),
    ]
    for action_id, handler in clicks:
        app.action(action_id)(_acking(handler))
    app.view_submission(actions.EDIT_SQL_VIEW)(on_edit_submitted)
    return app


ClickHandler = Callable[[dict[str, Any], dict[str, Any]], Awaitable[None]]


def _acking(handler: ClickHandler) -> Callable[[AsyncAck, dict[str, Any], dict[str, Any]], Awaitable[None]]:
    async def listener(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        await handler(body, action)

    return listener


def _answer_key(session_id: str, question_id: str | None) -> str:
    """The claim the first answer to a session's pending question takes (`StateStore.claim`)."""
    return f"answer:{session_id}:{question_id or ''}"
