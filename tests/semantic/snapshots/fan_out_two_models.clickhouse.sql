WITH __q0 AS (
  SELECT
    "orders".customer_id AS "customer",
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
  GROUP BY
    "orders".customer_id
), __q1 AS (
  SELECT
    "order".customer_id AS "customer",
    COUNT("order_items".item_id) AS "m1"
  FROM main.order_items AS "order_items"
  LEFT JOIN orders AS "order"
    ON "order_items".order_id = "order".order_id
  GROUP BY
    "order".customer_id
), __keys AS (
  SELECT
    "customer"
  FROM __q0
  UNION DISTINCT
  SELECT
    "customer"
  FROM __q1
)
SELECT
  "__keys"."customer",
  __q0."m0" AS "revenue",
  __q1."m1" AS "items"
FROM __keys
LEFT JOIN __q0
  ON "__keys"."customer" IS NOT DISTINCT FROM "__q0"."customer"
LEFT JOIN __q1
  ON "__keys"."customer" IS NOT DISTINCT FROM "__q1"."customer"
ORDER BY
  "customer"
