WITH __q0 AS (
  SELECT
    PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY
      "orders".amount) AS "m0",
    PERCENTILE_CONT(0.9) WITHIN GROUP (ORDER BY
      "orders".amount) AS "m1",
    COUNT(DISTINCT "orders".customer_id) AS "m2"
  FROM orders AS "orders"
  WHERE
    "orders".ordered_at BETWEEN '2023-12-01' AND '2024-01-31'
)
SELECT
  __q0."m0" AS "median_order_value",
  __q0."m1" AS "p90_order_value",
  __q0."m2" AS "customers_buying"
FROM __q0
