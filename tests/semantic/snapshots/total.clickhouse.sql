WITH __q0 AS (
  SELECT
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
)
SELECT
  __q0."m0" AS "revenue"
FROM __q0
