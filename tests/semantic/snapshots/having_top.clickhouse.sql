WITH __q0 AS (
  SELECT
    "orders".customer_id AS "customer",
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
  GROUP BY
    "orders".customer_id
)
SELECT
  "customer",
  "revenue"
FROM (
  SELECT
    "__q0"."customer",
    __q0."m0" AS "revenue"
  FROM __q0
) AS __result
WHERE
  "revenue" > 200
ORDER BY
  "revenue" DESC,
  "customer"
LIMIT 2
