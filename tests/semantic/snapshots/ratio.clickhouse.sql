WITH __q0 AS (
  SELECT
    "customer".segment AS "segment",
    SUM(CASE WHEN "orders".channel = 'web' THEN "orders".amount END) AS "m0",
    SUM("orders".amount) AS "m1",
    COUNT("orders".order_id) AS "m3"
  FROM orders AS "orders"
  LEFT JOIN customers AS "customer"
    ON "orders".customer_id = "customer".customer_id
  GROUP BY
    "customer".segment
), __q1 AS (
  SELECT
    "order__customer".segment AS "segment",
    COUNT("order_items".item_id) AS "m2"
  FROM main.order_items AS "order_items"
  LEFT JOIN orders AS "order"
    ON "order_items".order_id = "order".order_id
  LEFT JOIN customers AS "order__customer"
    ON "order".customer_id = "order__customer".customer_id
  GROUP BY
    "order__customer".segment
), __keys AS (
  SELECT
    "segment"
  FROM __q0
  UNION DISTINCT
  SELECT
    "segment"
  FROM __q1
)
SELECT
  "__keys"."segment",
  CAST(__q0."m0" AS Nullable(Float64)) / nullIf(__q0."m1", 0) AS "web_share",
  CAST(__q1."m2" AS Nullable(Float64)) / nullIf(__q0."m3", 0) AS "items_per_order"
FROM __keys
LEFT JOIN __q0
  ON "__keys"."segment" IS NOT DISTINCT FROM "__q0"."segment"
LEFT JOIN __q1
  ON "__keys"."segment" IS NOT DISTINCT FROM "__q1"."segment"
ORDER BY
  "segment"
