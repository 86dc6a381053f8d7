WITH __q0 AS (
  SELECT
    COUNT("orders".order_id) AS "m0"
  FROM orders AS "orders"
  WHERE
    (
      "orders".amount >= 100
    ) = TRUE
)
SELECT
  __q0."m0" AS "orders"
FROM __q0
