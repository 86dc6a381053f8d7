WITH __q0 AS (
  SELECT
    CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "metric_time__month",
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
  GROUP BY
    CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
), __q1 AS (
  SELECT
    CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "metric_time__month",
    SUM("orders".amount) AS "m1"
  FROM orders AS "orders"
  GROUP BY
    CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
), __keys AS (
  SELECT
    "metric_time__month"
  FROM __q0
)
SELECT
  "__keys"."metric_time__month",
  (
    __q0."m0"
  ) - (
    __q1."m1"
  ) AS "revenue_vs_quarter_start"
FROM __keys
LEFT JOIN __q0
  ON "__keys"."metric_time__month" IS NOT DISTINCT FROM "__q0"."metric_time__month"
LEFT JOIN __q1
  ON CAST(dateTrunc('QUARTER', CAST("__keys"."metric_time__month" AS Nullable(DATE))) AS Nullable(DATE)) IS NOT DISTINCT FROM "__q1"."metric_time__month"
ORDER BY
  "metric_time__month"
