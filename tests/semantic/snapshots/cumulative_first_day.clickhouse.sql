WITH __q0 AS (
  SELECT
    "__periods"."period" AS "metric_time__month",
    SUM("orders".amount) AS "m0"
  FROM (
    SELECT DISTINCT
      CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "period"
    FROM orders AS "orders"
  ) AS __periods
  INNER JOIN orders AS "orders"
    ON CAST(dateTrunc('DAY', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) <= GREATEST(
      "__periods"."period",
      (
        SELECT
          MIN(
            CAST(dateTrunc('DAY', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
          )
        FROM orders AS "orders"
      )
    )
  GROUP BY
    "__periods"."period"
)
SELECT
  "__q0"."metric_time__month",
  __q0."m0" AS "revenue_to_date"
FROM __q0
ORDER BY
  "metric_time__month"
