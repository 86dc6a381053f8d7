WITH __q0 AS (
  SELECT
    COUNT("orders".order_id) AS "m0"
  FROM orders AS "orders"
  WHERE
    NOT EXISTS(
      SELECT
        1
      FROM main.order_items AS "order_items__absent"
      WHERE
        "order_items__absent".order_id = "orders".order_id
    )
)
SELECT
  __q0."m0" AS "orders"
FROM __q0
