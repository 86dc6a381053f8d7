WITH __q0 AS (
  SELECT
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
  LEFT JOIN customers AS "customer"
    ON "orders".customer_id = "customer".customer_id
  WHERE
    LOWER("customer".region) LIKE 'no%'
    AND LOWER("orders".channel) LIKE '%5!%!_off%' ESCAPE '!'
)
SELECT
  __q0."m0" AS "revenue"
FROM __q0
