WITH __q0 AS (
  SELECT
    "flights".origin AS "origin",
    AVG("flights".dep_delay) AS "m0"
  FROM flights AS "flights"
  WHERE
    (
      (
        "flights".month = 11 AND "flights".day >= 20
      )
      OR "flights".month = 12
      OR (
        "flights".month = 1 AND "flights".day <= 5
      )
    )
  GROUP BY
    "flights".origin
)
SELECT
  "__q0"."origin",
  __q0."m0" AS "avg_dep_delay"
FROM __q0
ORDER BY
  "origin"
