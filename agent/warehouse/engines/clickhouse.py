"""ClickHouse: readonly sessions and max_execution_time (clickhouse-connect passes unknown URL
parameters to the server as settings), temporary disk bounded by max_temporary_data_on_disk_size."""

from __future__ import annotations

from agent.warehouse.engines.base import ServerEngine, SessionLimits


class ClickHouse(ServerEngine):
    key = "clickhouse"
    label = "ClickHouse"
    dialect = "clickhouse"
    extra = "clickhouse"
    module = "clickhouse_connect"
    driver = "clickhousedb"
    schemes = ("clickhouse", "clickhousedb")

    def url_params(self, limits: SessionLimits) -> dict[str, str]:
        params = {"readonly": "1", "max_execution_time": str(limits.seconds), "timeout_overflow_mode": "throw",
                  "connect_timeout": str(limits.connect_seconds)}
        if limits.temp_disk_bytes:
            params["max_temporary_data_on_disk_size_for_query"] = str(limits.temp_disk_bytes)
        return params
