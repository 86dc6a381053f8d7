WITH __q0 AS (
  SELECT
    "customer".region AS "region",
    SUM("orders".amount) AS "m0",
    COUNT("orders".order_id) AS "m1"
  FROM orders AS "orders"
  LEFT JOIN customers AS "customer"
    ON "orders".customer_id = "customer".customer_id
  WHERE
    "orders".channel = 'web'
  GROUP BY
    "customer".region
)
SELECT
  "__q0"."region",
  __q0."m0" AS "revenue",
  __q0."m1" AS "orders"
FROM __q0
ORDER BY
  "region"
