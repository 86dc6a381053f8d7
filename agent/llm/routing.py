"""The offline model's routing rules: which tool a message needs, with which final intent.

General rules over the shape of the request (pasted SQL, how-to phrasing, log words) and
over what the catalog and semantic model recognise; no rule names a particular question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.text.phrases import UNIT_WORDS
from agent.text.shorthand import spell_out
from agent.semantic.nlq.dialogue_cues import drops_a_condition, refers_back, restarted
from agent.sql.dialect import DEFAULT_DIALECT
from agent.marks import FOLLOW_UP_MARK
from agent.tools.spec import EXECUTE, ToolName

if TYPE_CHECKING:
    from agent.context import Router

SHORT_FOLLOW_UP_WORDS = 5

_FENCE = re.compile(r"```(?:[a-zA-Z]+\n)?(.*?)```", re.S)
# "select" and its common typos (SELEC, SLECT, SELCT…), but not English words such as "selected".
_SELECT = r"(?:select|selec|selet|selct|slect|seelct|selcet|sleect)"
_SQL_START = re.compile(
    rf"\b({_SELECT}|with|insert|update|delete|create|drop|alter|merge|truncate)\b\s+[\w*(\"`]", re.I
)
_SQL_BODY = re.compile(
    rf"\b{_SELECT}\b.+\b(from|form|fro|frm|fom)\b\s+\w|"
    r"\b(insert\s+into|update\s+\w+\s+set|delete\s+from|drop\s+table|create\s+table)\b",
    re.I | re.S,
)
_ERROR_AFTER = re.compile(r"(?:^|\s)--\s+")
_EXPLAIN = re.compile(r"\b(explain|what does (this|it|the)\b.*\b(do|mean|return)|walk me through|describe|understand|meaning of)\b", re.I)
_FIX = re.compile(r"\b(fix|fixing|broken|error|errors|wrong|fails?|failing|failed|doesn'?t work|not working|debug|repair|correct)\b", re.I)
_RUN = re.compile(r"\b(run|execute|results?|and show)\b", re.I)
_LOGS = re.compile(r"\b(logs?|logql|loki|grafana|stack ?traces?)\b", re.I)
_LOG_SUBJECT = re.compile(r"\b(service|pod|namespace|container|app|api|server|worker|deployment)\b", re.I)
# Short answers to "Shall I run this?"; a message of nothing else also means "run what is waiting".
_YES_WORDS = (
    r"(yes|yeah|yep|y|sure|ok|okay|go|go ahead|go for it|run|run it|run that|run this|run the query|run the sql|"
    r"do it|do that|please do|execute|execute it|execute that|execute this|confirm|sounds good|looks good|"
    r"looks right|looks correct|looks fine|lgtm|yup|perfect|cool|great|nice|alright|all right|fine|good|"
    r"fire it off|fire away|fire|ship it|send it|let'?s go|let'?s see it|hit it|shoot)"
)
AFFIRMATIVE = re.compile(rf"^{_YES_WORDS}\b", re.I)
NEGATIVE = re.compile(r"^(no|nope|n|cancel|stop|don'?t|never ?mind|abort|skip)\b", re.I)
_ONLY_YES = re.compile(rf"^({_YES_WORDS}[.!, ]*(and\s+|then\s+)?)+(please)?[.! ]*$", re.I)  # "go ahead and run it"
_FOLLOW_UP = re.compile(
    # Only words that build on the last question; "just give me the number of X" is a question of its own.
    r"^(now|and|what about|how about|same|also|instead|only|break (it|this|that) down|split (it|this)?\s*by|per|by)\b|"
    r"\b(then|instead|now|too|as well)\s*[?.!]*$",  # 'avg seats per type then': said after the last answer
    re.I,
)
_WHERE_DATA = re.compile(
    r"\b(which|what) (tables?|columns?|fields?|datasets?|data sources?)\b|\bwhere (can|do|could|would|should) (i|we) (find|get|look)|"
    r"\bwhere is\b.*\b(data|stored|kept)\b|\bdo (we|you) have (any )?data\b|\bwhat data\b|\bschema of\b",
    re.I,
)
_SQL_ONLY = re.compile(
    r"\b(write|give me|generate|show me|create|draft|build|need|want)\b.*\b(sql|query|queries|select statement)\b|"
    r"\b(sql|query) (for|to get|that|which)\b|"
    r"\b(just|only) (the )?(sql|query)\b|\b(sql|query) (only|first)\b|"  # "just the sql pls", "sql first"
    r"\bno (results?|numbers|data|rows) yet\b|"  # "no results yet"
    r"\b(don'?t|do not|no need to|without) (run(ning)?|execut(e|ing))\b",  # "…, don't run it"
    re.I,
)
_HOW_TO = re.compile(
    r"^(how (do|can|should) (i|we|you)|how to|can you help|help\b|what can you do|what do you do|who (do|should) i (ask|contact))|"
    r"\b(slash command|/fixsql|/explainsql)\b",
    re.I,
)
_DEFINITION = re.compile(
    r"^(what('s| is| are) (a|an)\b|what does \S+ mean|define\b|definition of|meaning of|what do you mean by|"
    r"what (counts|is counted|is considered|qualifies) as|how (do|does) (you|we|it) (define|count)|"
    r"what do (you|we) (count|consider) as)|\bstand for\b",
    re.I,
)
_UNITS = "|".join(re.escape(w) for w in sorted(UNIT_WORDS, key=len, reverse=True) if w.isalpha() and len(w) > 1)
# "why?" after an answer: how it was worked out, told from the last answer's reading and SQL.
_WHY = re.compile(
    r"^(?:(?:wait|hmm|ok|okay|so|and|but|sorry|um)\W+)*(?:why\s*[?!.]+\s*)?(why|how come|how do you know|how(?: did|'d| do) you (get|calculate|compute|work out|arrive at|come up with|count|decide|determine|define|choose|pick|"
    r"match|join|link|tie|connect|combine|assign|group|split|bucket|sort|"
    r"(?:work|figure) (?:this|that|it|these|those|them) out|figure out)|how (was|is) (this|that|it) (calculated|computed|worked out)|"
    # 'how were the bands assigned', 'how is the speed calculated': a part of the answer, how it was made
    r"how (?:was|is|were|are) (?:the|that|this|those|these) \w+(?: \w+)? (?:calculated|computed|worked out|assigned|"
    r"defined|decided|determined|counted|measured|matched|joined|picked|chosen)|"
    r"explain (this|that|the) (answer|result|number|figure)s?|where did (this|that|it) come from|"
    r"how (are|were) you (counting|calculating|computing|measuring|getting|working out|figuring out|deciding|defining|"
    r"matching|joining)|"
    # the answer's unit: 'is that miles or km', 'what units is that in'
    r"(is|are) (that|this|it|those|these)( in)? \w+ or \w+|(in )?(what|which) units?|"
    # 'is that in minutes?', 'hours or minutes?': a unit asked about, alone
    rf"(?:(?:is|are) (?:that|this|it|those|these) (?:in )?(?:{_UNITS})|(?:{_UNITS}) or (?:{_UNITS}))(?=\W*$))\b"
    r"[^.!?]{0,40}[.!?]*$",
    re.I,
)
_NOT_FOR_US = re.compile(
    r"^(please\s+)?((can|could|would) you\s+)?(please\s+)?(book|reserve|buy|purchase|order|send|email|text|call|schedule|remind|"
    r"translate|sing|tell me a joke|write (me )?(a|an) (poem|story|essay|song|joke|haiku|letter|email|limerick|speech))\b",
    re.I,
)
# A request to change data, by its verb; the bot only reads, whatever the data set. Verbs that
# also ask about data ("remove cancelled flights from the count", "change the chart") only count
# with what a change acts on (tables, rows, columns).
_CHANGE_DATA = re.compile(
    r"^(please\s+)?((can|could|would|will) you\s+)?(please\s+)?(i (want|need|would like) to\s+|i'd like to\s+|let'?s\s+)?"
    r"(go ahead and\s+)?"
    r"(drop|delete|truncate|insert|alter|erase|wipe|purge|overwrite|update(?!\s+me\b)|"
    r"(remove|clear|empty|rename)\s+(all\s+|the\s+|every\s+|this\s+|that\s+)*(\w+\s+)?(tables?|rows?|records?|columns?|entries)|"
    r"(create|add)\s+(a\s+|an\s+|new\s+)*(\w+\s+)?(tables?|rows?|records?|columns?|views?|index|entry|entries))\b",
    re.I,
)
READ_ONLY_REASON = "I only read data; I never change, add or delete anything in the warehouse"
_GREETING = re.compile(r"^(hi|hello|hey|thanks|thank you|cheers|good (morning|afternoon|evening))\b[!. ]*$", re.I)


def _is_short(message: str) -> bool:
    """A message this short after a question ("for EWR", "just United") builds on it."""
    return len(message.split()) <= SHORT_FOLLOW_UP_WORDS


@dataclass
class Route:
    tool: str | None  # None: answer directly with `text`
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def clean_message(text: str) -> str:
    """Surfaces hand over plain text (Slack's mentions and escapes are undone in bot/)."""
    return (text or "").strip()


def person_message(text: str) -> str:
    """What a person typed, as every reader takes it: trimmed, chat shorthand spelled out ('w/', 'u',
    'gimme'), unless it holds SQL, which is kept exactly."""
    message = clean_message(text)
    return message if split_sql(message)[0] else spell_out(message)


def split_sql(text: str) -> tuple[str | None, str, str]:
    """(sql, words around it, error text after `--`) from a message that may contain SQL."""
    fence = _FENCE.search(text)
    if fence:
        sql = fence.group(1).strip()
        rest = (text[: fence.start()] + " " + text[fence.end():]).strip()
    else:
        start = _SQL_START.search(text)
        if not start or not _SQL_BODY.search(text[start.start():]):
            return None, text, ""
        sql, rest = text[start.start():].strip(), text[: start.start()].strip()
    error = ""
    if marker := _ERROR_AFTER.search(rest):
        rest, error = rest[: marker.start()], rest[marker.end():]
    match = re.search(r"\s--\s+(.+)$", sql, re.S)
    if match and not re.search(r"\b(select|from|where)\b", match.group(1), re.I):
        error, sql = match.group(1).strip(), sql[: match.start()].strip()
    if m := re.search(r"\b(?:error|fails with|says)\s*:?\s*(.+)$", rest, re.I | re.S):
        error = error or m.group(1).strip()
    return sql, rest.strip(), error.strip()


async def route_message(
    text: str,
    recognise: Router,
    *,
    previous_question: str | None = None,
    has_sql_to_run: bool = False,
    last_answer: tuple[str, str] | None = None,
) -> Route:
    """`last_answer` is the SQL of the thread's last answer and how its question was read."""
    message = clean_message(text)
    if not message:
        return Route(None, text="Ask me a data question, or paste SQL to fix or explain.")
    if previous_question and (fresh := restarted(message)):  # 'actually forget that. flights to MIA …'
        message, previous_question = fresh, None
    if _WHY.match(message):
        if last_answer is None:
            return Route(None, text="There is no answer in this thread to explain yet. Ask a data question first.")
        answered_sql, reading = last_answer
        return Route(
            ToolName.EXPLAIN_SQL,
            # no dialect: an answer's SQL is the warehouse's own, which explain_sql reads it in
            {"sql": answered_sql, "reading": reading, "final_intent": ToolName.EXPLAIN_SQL},
        )

    sql, words, error = split_sql(message)
    if sql:
        runs = await recognise.sql_runs(sql)
        if _EXPLAIN.search(words) and not _FIX.search(words):
            return Route(ToolName.EXPLAIN_SQL, {"sql": sql, "final_intent": ToolName.EXPLAIN_SQL})
        if _FIX.search(words) or error or not runs:
            final = EXECUTE if _RUN.search(words) else ToolName.FIX_SQL
            return Route(ToolName.FIX_SQL, {"sql": sql, "error_info": error, "final_intent": final})
        if _RUN.search(words):
            return Route(
                EXECUTE,
                {"user_question": words or "Run this query", "sql": sql, "sql_dialect": DEFAULT_DIALECT,
                 "final_intent": EXECUTE},
            )
        return Route(ToolName.EXPLAIN_SQL, {"sql": sql, "final_intent": ToolName.EXPLAIN_SQL})

    if _ONLY_YES.match(message):
        if has_sql_to_run:
            return Route(
                EXECUTE,
                {"user_question": previous_question or message, "final_intent": EXECUTE},
            )
        return Route(None, text="There is nothing waiting to run. Ask a data question or paste SQL.")

    if _CHANGE_DATA.match(message) and not (previous_question and drops_a_condition(message, previous_question)):
        return Route("reject_out_of_scope", {"reason": READ_ONLY_REASON, "final_intent": "reject_out_of_scope"})

    if _NOT_FOR_US.match(message):
        return Route(ToolName.REJECT, {"reason": "I only work with data, SQL and logs", "final_intent": ToolName.REJECT})

    if _GREETING.match(message):
        return Route(None, text="Hi! Ask me a data question, or use /fixsql and /explainsql for SQL.")

    if _LOGS.search(message) or (re.search(r"\b(errors?|exceptions?|timeouts?|panics?)\b", message, re.I) and _LOG_SUBJECT.search(message)):
        return Route(ToolName.SEARCH_LOG, {"description": message, "final_intent": ToolName.SEARCH_LOG})

    if _HOW_TO.search(message) or (_DEFINITION.search(message) and await recognise.knows_term(message)):
        return Route(ToolName.FAQ, {"user_question": message, "final_intent": ToolName.FAQ})

    if previous_question and (_FOLLOW_UP.search(message) or refers_back(message) or _is_short(message)):
        # An edit of the last reading ("make it top 3", "for EWR", "drop the JFK filter"): generate_sql
        # reads it against that reading, or as a question of its own when it is one.
        final = ToolName.GENERATE_SQL if _SQL_ONLY.search(message) else EXECUTE
        question = previous_question + FOLLOW_UP_MARK + message
        return Route(ToolName.DATA_DISCOVERY, {"user_question": question, "final_intent": final})

    question = message

    if _WHERE_DATA.search(message):
        return Route(ToolName.DATA_DISCOVERY, {"user_question": question, "final_intent": ToolName.DATA_DISCOVERY})

    if await recognise.is_data_question(question):
        final = ToolName.GENERATE_SQL if _SQL_ONLY.search(message) else EXECUTE
        return Route(ToolName.DATA_DISCOVERY, {"user_question": question, "final_intent": final})

    if _DEFINITION.search(message) or await recognise.knows_term(message):
        return Route(ToolName.FAQ, {"user_question": message, "final_intent": ToolName.FAQ})

    reason = "it is not about the data I can reach" if re.search(r"[a-z]{3,}", message, re.I) else "I could not make sense of it"
    return Route(ToolName.REJECT, {"reason": reason, "final_intent": ToolName.REJECT})
