"""LogQL for Grafana Loki: written from a plain description by rules, and checked for form.

The checker is what makes an LLM-written query safe to show: a selector with at least one
well-formed matcher, then only known pipeline stages, optionally inside one range
aggregation. It is a structural check, not a full LogQL grammar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.errors import AssistantError

_LABEL = r"[A-Za-z_][A-Za-z0-9_]*"
_STRING = r'"(?:[^"\\]|\\.)*"|`[^`]*`'
_MATCHER = re.compile(rf"\s*({_LABEL})\s*(=~|!~|!=|=)\s*({_STRING})\s*")
_STAGES = [
    re.compile(rf"\|=\s*(?:{_STRING})"),
    re.compile(rf"!=\s*(?:{_STRING})"),
    re.compile(rf"\|~\s*(?:{_STRING})"),
    re.compile(rf"!~\s*(?:{_STRING})"),
    re.compile(r"\|\s*(?:json|logfmt|unpack)\b"),
    re.compile(rf"\|\s*(?:pattern|regexp|line_format)\s+(?:{_STRING})"),
    re.compile(rf"\|\s*label_format\s+{_LABEL}\s*=\s*(?:{_STRING}|{_LABEL})"),
    re.compile(rf"\|\s*{_LABEL}\s*(?:==|=|!=|>=|<=|>|<|=~|!~)\s*(?:{_STRING}|-?\d+(?:\.\d+)?[a-zA-Z]*)"),
]
_RANGE_FUNCS = "count_over_time|rate|bytes_over_time|bytes_rate|absent_over_time"
_METRIC = re.compile(
    rf"^\s*(?:(sum|count|avg|max|min|topk\(\d+,)\s*(?:by\s*\(\s*{_LABEL}(?:\s*,\s*{_LABEL})*\s*\)\s*)?\()?\s*"
    rf"({_RANGE_FUNCS})\s*\((.*)\[(\d+[smhd])\]\s*\)\s*(\))?\s*$",
    re.S,
)


class LogQLError(AssistantError):
    code = "logql"


def check_logql(query: str) -> None:
    """Raise LogQLError naming the first problem; return None when the query is well formed."""
    text = query.strip()
    metric = _METRIC.match(text)
    if metric:
        outer, _, inner, _, closing = metric.groups()
        if bool(outer) != bool(closing):
            raise LogQLError("The aggregation's parentheses do not match.")
        text = inner.strip()
    elif any(f in text for f in _RANGE_FUNCS.split("|")):
        raise LogQLError("A range function needs a log query and a range such as [5m].")
    if not text.startswith("{"):
        raise LogQLError("A LogQL query starts with a stream selector such as {app=\"checkout\"}.")
    end = _selector_end(text)
    selector, pipeline = text[1:end], text[end + 1 :]
    matchers = [m for m in _split_matchers(selector)]
    if not matchers:
        raise LogQLError("The stream selector needs at least one label matcher.")
    for matcher in matchers:
        if not _MATCHER.fullmatch(matcher):
            raise LogQLError(f"The label matcher `{matcher.strip()}` is not well formed.")
    if all(re.search(r'(=~|!~)\s*"\.\*"', m) or "!=" in m or "!~" in m for m in matchers):
        raise LogQLError("At least one label matcher must select something (not only negations or .*).")
    position = 0
    pipeline = pipeline.strip()
    while position < len(pipeline):
        for stage in _STAGES:
            found = stage.match(pipeline, position)
            if found:
                position = found.end()
                while position < len(pipeline) and pipeline[position].isspace():
                    position += 1
                break
        else:
            raise LogQLError(f"I do not recognise the pipeline stage starting at `{pipeline[position:position + 20]}`.")


def _selector_end(text: str) -> int:
    in_string = None
    for index, char in enumerate(text):
        if in_string:
            if char == in_string and text[index - 1] != "\\":
                in_string = None
        elif char in "\"`":
            in_string = char
        elif char == "}":
            return index
    raise LogQLError("The stream selector's braces `{}` are not closed.")


def _split_matchers(selector: str) -> list[str]:
    parts, current, in_string = [], "", None
    for char in selector:
        if in_string:
            in_string = None if char == in_string and not current.endswith("\\") else in_string
        elif char in "\"`":
            in_string = char
        elif char == ",":
            parts.append(current)
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current)
    return [p for p in parts if p.strip()]


# -- writing a query from a description ------------------------------------------------

_LABEL_WORDS = ("namespace", "pod", "container", "job", "cluster", "env", "environment", "host", "app", "service")
_LEVEL_WORDS = {
    "error": "error", "errors": "error", "exception": "exception", "exceptions": "exception",
    "warning": "warn", "warnings": "warn", "warn": "warn", "fatal": "fatal", "panic": "panic",
    "panics": "panic", "timeout": "timeout", "timeouts": "timeout", "critical": "critical",
}
_STOP = {"the", "a", "an", "our", "my", "all", "any", "some", "this", "that", "prod", "production", "logs", "log"}


@dataclass
class LogQuery:
    logql: str
    explanation: str


def write_logql(description: str) -> LogQuery:
    text = description.strip()
    lowered = text.lower()
    matchers: list[str] = []
    notes: list[str] = []
    for word in _LABEL_WORDS:
        pattern = rf"\b{word}\s*[:=]?\s*[\"'`]?([A-Za-z0-9][\w.-]*)" if word not in ("service", "app") else None
        if pattern and (m := re.search(pattern, text, re.I)):
            label = "env" if word == "environment" else word
            matchers.append(f'{label}="{m.group(1)}"')
    service = re.search(r"\b(?:the\s+)?([A-Za-z0-9][\w.-]*)\s+(?:service|app|api|server|worker)\b", text, re.I) or re.search(
        r"\b(?:service|app)\s*[:=]?\s*[\"'`]?([A-Za-z0-9][\w.-]*)", text, re.I
    )
    if service and service.group(1).lower() not in _STOP and service.group(1).lower() not in _LABEL_WORDS:
        matchers.insert(0, f'app="{service.group(1)}"')
    elif (env := re.search(r"\b(prod|production)\b", lowered)) and not any(f'"{env.group(1)}"' in m for m in matchers):
        matchers.append('env="production"')
    if not any(not m.startswith("env=") for m in matchers):
        matchers.insert(0, 'app=~".+"')
        notes.append("No service was named, so this searches every app; name one to narrow it.")
    stages: list[str] = []
    for quoted in re.findall(r"[\"“']([^\"”']{2,})[\"”']", text):
        stages.append(f'|= "{quoted}"')
    for word in re.findall(r"\b(?:excluding|except|without|ignoring|not containing)\s+([\w.-]+)", text, re.I):
        stages.append(f'!= "{word}"')
    levels = sorted({_LEVEL_WORDS[w] for w in re.findall(r"[a-z]+", lowered) if w in _LEVEL_WORDS})
    if levels:
        stages.append(f'|~ "(?i)({"|".join(levels)})"')
    if status := re.search(r"\b([1-5])xx\b", lowered):
        stages.append(f'|~ "\\\\b{status.group(1)}\\\\d\\\\d\\\\b"')
    elif status := re.search(r"\bstatus(?: code)?\s*(\d{3})\b", lowered):
        stages.append(f'|= "{status.group(1)}"')
    query = "{" + ", ".join(dict.fromkeys(matchers)) + "}" + ("".join(" " + s for s in stages))
    if re.search(r"\b(how many|count|number of|rate|per (second|minute|hour)|over time|trend|spike)\b", lowered):
        window = "1m" if "minute" in lowered else "1h" if "hour" in lowered else "5m"
        if m := re.search(r"\b(?:last|past)\s+(\d+)\s*(s|sec|seconds?|m|min|minutes?|h|hours?)\b", lowered):
            window = m.group(1) + m.group(2)[0]
        function = "rate" if re.search(r"\brate|per second\b", lowered) else "count_over_time"
        query = f"sum({function}({query} [{window}]))"
    check_logql(query)
    explanation = "Selects " + ", ".join(dict.fromkeys(matchers))
    if stages:
        explanation += ", keeps lines matching " + " and ".join(stages)
    if query.startswith("sum("):
        explanation += ", and counts them over time"
    return LogQuery(logql=query, explanation=explanation + ". " + " ".join(notes))
