"""BigQuery: a job timeout and maximum_bytes_billed on every job (sqlalchemy-bigquery turns unknown
URL parameters into the default QueryJobConfig); a dry-run job says how many bytes a query would
scan (BigQuery has no EXPLAIN statement and estimates no rows)."""

from __future__ import annotations

from typing import Any

from agent.warehouse.engines.base import DriverConnection, PlanSize, ServerEngine, SessionLimits, finite


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

    def dry_run_size(self, raw: DriverConnection, sql: str) -> PlanSize | None:
        """A dry-run job through the DB-API cursor (it accepts a job_config): nothing runs or is billed."""
        from google.cloud.bigquery import QueryJobConfig

        cursor = raw.cursor()
        try:
            cursor.execute(sql, job_config=QueryJobConfig(dry_run=True, use_query_cache=False))
            return self.job_size(cursor.query_job.to_api_repr())
        finally:
            cursor.close()

    def job_size(self, job: dict[str, Any]) -> PlanSize | None:
        """The job resource's statistics.query.totalBytesProcessed (a string of digits, as the API sends it)."""
        statistics = job.get("statistics", {})
        scanned = finite(statistics.get("query", {}).get("totalBytesProcessed", statistics.get("totalBytesProcessed")))
        return PlanSize(bytes=scanned) if scanned is not None else None
