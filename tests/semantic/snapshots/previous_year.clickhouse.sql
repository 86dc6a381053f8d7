WITH __q0 AS (
  SELECT
    CAST(dateTrunc('QUARTER', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "metric_time__quarter",
    COUNT("orders".order_id) AS "m0"
  FROM orders AS "orders"
  GROUP BY
    CAST(dateTrunc('QUARTER', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
), __q1 AS (
  SELECT
    CAST(dateTrunc(
      'QUARTER',
      CAST(DATE_ADD(YEAR, 1, CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
    ) AS Nullable(DATE)) AS "metric_time__quarter",
    COUNT("orders".order_id) AS "m1"
  FROM orders AS "orders"
  GROUP BY
    CAST(dateTrunc(
      'QUARTER',
      CAST(DATE_ADD(YEAR, 1, CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
    ) AS Nullable(DATE))
), __keys AS (
  SELECT
    "metric_time__quarter"
  FROM __q0
)
SELECT
  "__keys"."metric_time__quarter",
  __q0."m0" AS "orders",
  __q1."m1" AS "orders__previous",
  __q0."m0" - __q1."m1" AS "orders__change",
  CAST(__q0."m0" - __q1."m1" AS Nullable(Float64)) / nullIf(__q1."m1", 0) * 100 AS "orders__pct_change"
FROM __keys
LEFT JOIN __q0
  ON "__keys"."metric_time__quarter" IS NOT DISTINCT FROM "__q0"."metric_time__quarter"
LEFT JOIN __q1
  ON "__keys"."metric_time__quarter" IS NOT DISTINCT FROM "__q1"."metric_time__quarter"
ORDER BY
  "metric_time__quarter"
