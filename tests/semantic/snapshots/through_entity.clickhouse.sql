WITH __q0 AS (
  SELECT
    "order__customer".region AS "region",
    COUNT("order_items".item_id) AS "m0"
  FROM main.order_items AS "order_items"
  LEFT JOIN orders AS "order"
    ON "order_items".order_id = "order".order_id
  LEFT JOIN customers AS "order__customer"
    ON "order".customer_id = "order__customer".customer_id
  GROUP BY
    "order__customer".region
)
SELECT
  "__q0"."region",
  __q0."m0" AS "items"
FROM __q0
ORDER BY
  "region"
