WITH __q0 AS (
  SELECT
    "flights".carrier AS "carrier",
    "flights".dest AS "dest",
    COUNT(1) AS "m0"
  FROM flights AS "flights"
  GROUP BY
    "flights".carrier,
    "flights".dest
)
SELECT
  "carrier",
  "dest",
  "flight_count"
FROM (
  SELECT
    *,
    ROW_NUMBER() OVER (PARTITION BY "carrier" ORDER BY "flight_count" DESC, "carrier", "dest") AS "__rank"
  FROM (
    SELECT
      "__q0"."carrier",
      "__q0"."dest",
      __q0."m0" AS "flight_count"
    FROM __q0
  ) AS __result
) AS __ranked
WHERE
  "__rank" <= 3
ORDER BY
  "carrier",
  "flight_count" DESC,
  "dest"
