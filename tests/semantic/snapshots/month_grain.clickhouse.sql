WITH __q0 AS (
  SELECT
    CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "metric_time__month",
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
  GROUP BY
    CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
)
SELECT
  "__q0"."metric_time__month",
  __q0."m0" AS "revenue"
FROM __q0
ORDER BY
  "metric_time__month"
