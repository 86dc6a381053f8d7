WITH __q0 AS (
  SELECT
    CAST(DATE_TRUNC('WEEK', CAST("orders".ordered_at AS DATE)) AS DATE) AS "ordered_at__week",
    DAYOFWEEKISO(CAST("orders".ordered_at AS DATE)) AS "ordered_at__extract_dow",
    COUNT("orders".order_id) AS "m0"
  FROM orders AS "orders"
  GROUP BY
    CAST(DATE_TRUNC('WEEK', CAST("orders".ordered_at AS DATE)) AS DATE),
    DAYOFWEEKISO(CAST("orders".ordered_at AS DATE))
)
SELECT
  "__q0"."ordered_at__week",
  "__q0"."ordered_at__extract_dow",
  __q0."m0" AS "orders"
FROM __q0
ORDER BY
  "ordered_at__week",
  "ordered_at__extract_dow"
