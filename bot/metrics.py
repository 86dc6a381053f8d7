"""Prometheus metrics for one bot process, served on the HTTP server's GET /metrics.

Each runtime gets its own registry (several run in one test process); names follow
Prometheus conventions (`_total` for counters, seconds for durations).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Warehouse queries: interactive questions, so most finish well under a second; the tail is the timeout.
QUERY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 60.0)


class BotMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("sda_requests", "Slack requests accepted, by surface", ["surface"], registry=r)
        self.answers = Counter(
            "sda_answers", "Replies delivered, by kind (answer, question, error)", ["kind"], registry=r
        )
        self.errors = Counter("sda_errors", "Error replies, by error code", ["code"], registry=r)
        self.llm_calls = Counter("sda_llm_calls", "Chat-model calls made for delivered replies", registry=r)
        self.llm_tokens = Counter("sda_llm_tokens", "LLM tokens, by direction (input, output)", ["direction"],
                                  registry=r)
        self.query_seconds = Histogram(
            "sda_query_duration_seconds", "Warehouse query time, by outcome (ok, refused, error)", ["outcome"],
            buckets=QUERY_BUCKETS, registry=r,
        )
        self.queue_depth = Gauge("sda_queue_depth", "Agent jobs waiting or running", registry=r)
        self.job_retries = Counter("sda_job_retries", "Agent jobs delivered again after a lost or failed attempt",
                                   registry=r)

    def watch_queue(self, depth: Callable[[], float]) -> None:
        self.queue_depth.set_function(depth)

    def reply_delivered(self, reply: Any) -> None:
        """Count one AgentReply the bot delivered (answer, question back, or error)."""
        if reply.error is not None:
            self.answers.labels("error").inc()
            self.errors.labels(reply.error_code or "error").inc()
        elif reply.ask_human is not None:
            self.answers.labels("question").inc()
        else:
            self.answers.labels("answer").inc()
        if reply.llm_calls:
            self.llm_calls.inc(reply.llm_calls)
        for direction, count in (reply.llm_tokens or {}).items():
            if count:
                self.llm_tokens.labels(direction).inc(count)

    def query_ran(self, record: dict[str, Any]) -> None:
        """An audit record of a warehouse query (agent.api's query listener)."""
        if record.get("duration_ms") is not None:
            self.query_seconds.labels(record.get("outcome") or "error").observe(record["duration_ms"] / 1000)

    def render(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
