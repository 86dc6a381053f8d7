"""BigQuery: a job timeout and maximum_bytes_billed on every job (sqlalchemy-bigquery turns unknown
URL parameters into the default QueryJobConfig)."""

from __future__ import annotations

from agent.warehouse.engines.base import ServerEngine, SessionLimits


class BigQuery(ServerEngine):
    key = "bigquery"
    label = "BigQuery"
    dialect = "bigquery"
    extra = "bigquery"
    module = "sqlalchemy_bigquery"
    driver = "bigquery"
    schemes = ("bigquery", "bq")

    def url_params(self, limits: SessionLimits) -> dict[str, str]:
        return {"maximum_bytes_billed": str(limits.max_bytes_billed), "job_timeout_ms": str(limits.timeout_ms)}
