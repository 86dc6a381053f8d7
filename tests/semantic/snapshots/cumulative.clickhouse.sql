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
    ON CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) <= "__periods"."period"
  GROUP BY
    "__periods"."period"
), __q1 AS (
  SELECT
    "__periods"."period" AS "metric_time__month",
    SUM("orders".amount) AS "m1"
  FROM (
    SELECT DISTINCT
      CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "period"
    FROM orders AS "orders"
  ) AS __periods
  INNER JOIN orders AS "orders"
    ON CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) <= "__periods"."period"
    AND CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) > DATE_ADD(MONTH, -2, CAST("__periods"."period" AS Nullable(DATE)))
  GROUP BY
    "__periods"."period"
), __q2 AS (
  SELECT
    "__periods"."period" AS "metric_time__month",
    SUM("orders".amount) AS "m2"
  FROM (
    SELECT DISTINCT
      CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "period"
    FROM orders AS "orders"
  ) AS __periods
  INNER JOIN orders AS "orders"
    ON CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) <= "__periods"."period"
    AND CAST(dateTrunc(
      'YEAR',
      CAST(dateTrunc('MONTH', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE))
    ) AS Nullable(DATE)) = CAST(dateTrunc('YEAR', CAST("__periods"."period" AS Nullable(DATE))) AS Nullable(DATE))
  GROUP BY
    "__periods"."period"
), __keys AS (
  SELECT
    "metric_time__month"
  FROM __q0
  UNION DISTINCT
  SELECT
    "metric_time__month"
  FROM __q1
  UNION DISTINCT
  SELECT
    "metric_time__month"
  FROM __q2
)
SELECT
  "__keys"."metric_time__month",
  __q0."m0" AS "cumulative_revenue",
  __q1."m1" AS "revenue_2_months",
  __q2."m2" AS "revenue_ytd"
FROM __keys
LEFT JOIN __q0
  ON "__keys"."metric_time__month" IS NOT DISTINCT FROM "__q0"."metric_time__month"
LEFT JOIN __q1
  ON "__keys"."metric_time__month" IS NOT DISTINCT FROM "__q1"."metric_time__month"
LEFT JOIN __q2
  ON "__keys"."metric_time__month" IS NOT DISTINCT FROM "__q2"."metric_time__month"
ORDER BY
  "metric_time__month"
