WITH __q0 AS (
  SELECT
    CAST(dateTrunc('WEEK', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)) AS "ordered_at__week",
    toDayOfWeek(CAST("orders".ordered_at AS Nullable(DATE))) AS "ordered_at__extract_dow",
    COUNT("orders".order_id) AS "m0"
  FROM orders AS "orders"
  GROUP BY
    CAST(dateTrunc('WEEK', CAST("orders".ordered_at AS Nullable(DATE))) AS Nullable(DATE)),
    toDayOfWeek(CAST("orders".ordered_at AS Nullable(DATE)))
)
SELECT
  "__q0"."ordered_at__week",
  "__q0"."ordered_at__extract_dow",
  __q0."m0" AS "orders"
FROM __q0
ORDER BY
  "ordered_at__week",
  "ordered_at__extract_dow"
