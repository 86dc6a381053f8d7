"""Snowflake: STATEMENT_TIMEOUT_IN_SECONDS for the session, tagged queries, autocommit."""

from __future__ import annotations

from typing import Any

from agent.warehouse.engines.base import ServerEngine, SessionLimits


class Snowflake(ServerEngine):
    key = "snowflake"
    label = "Snowflake"
    dialect = "snowflake"
    extra = "snowflake"
    module = "snowflake.sqlalchemy"
    driver = "snowflake"
    schemes = ("snowflake",)

    def connect_args(self, limits: SessionLimits) -> dict[str, Any]:
        return {
            "session_parameters": {
                "STATEMENT_TIMEOUT_IN_SECONDS": limits.seconds,
                "QUERY_TAG": "slack-data-assistant",
                "AUTOCOMMIT": True,
            },
            "login_timeout": limits.connect_seconds,
            "network_timeout": limits.seconds * 3 + 5,
        }
