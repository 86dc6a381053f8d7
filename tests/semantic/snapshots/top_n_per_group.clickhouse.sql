WITH __q0 AS (
  SELECT
    "customer".region AS "region",
    "orders".channel AS "channel",
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
  LEFT JOIN customers AS "customer"
    ON "orders".customer_id = "customer".customer_id
  GROUP BY
    "customer".region,
    "orders".channel
)
SELECT
  "region",
  "channel",
  "revenue"
FROM (
  SELECT
    *,
    ROW_NUMBER() OVER (PARTITION BY "region" ORDER BY "revenue" DESC, "region", "channel") AS "__rank"
  FROM (
    SELECT
      "__q0"."region",
      "__q0"."channel",
      __q0."m0" AS "revenue"
    FROM __q0
  ) AS __result
) AS __ranked
WHERE
  "__rank" <= 1
ORDER BY
  "region",
  "revenue" DESC,
  "channel"
