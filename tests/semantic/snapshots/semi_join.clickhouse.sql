WITH __q0 AS (
  SELECT
    AVG("orders".amount) AS "m0"
  FROM orders AS "orders"
  WHERE
    "orders".order_id IN (
      SELECT
        "order_items__semi".order_id
      FROM main.order_items AS "order_items__semi"
      WHERE
        "order_items__semi".product = 'lamp'
    )
)
SELECT
  __q0."m0" AS "aov"
FROM __q0
