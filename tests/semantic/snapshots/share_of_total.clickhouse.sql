WITH __q0 AS (
  SELECT
    "customer".region AS "region",
    SUM("orders".amount) AS "m0"
  FROM orders AS "orders"
  LEFT JOIN customers AS "customer"
    ON "orders".customer_id = "customer".customer_id
  GROUP BY
    "customer".region
)
SELECT
  "__q0"."region",
  __q0."m0" AS "revenue",
  CAST(__q0."m0" AS Nullable(Float64)) / nullIf(SUM(__q0."m0") OVER (), 0) * 100 AS "revenue__share"
FROM __q0
ORDER BY
  "revenue" DESC,
  "region"
LIMIT 2
