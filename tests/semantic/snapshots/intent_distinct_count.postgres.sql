WITH __q0 AS (
  SELECT
    "planes".engine AS "engine",
    COUNT(DISTINCT "planes".manufacturer) AS "m0"
  FROM planes AS "planes"
  GROUP BY
    "planes".engine
)
SELECT
  "__q0"."engine",
  __q0."m0" AS "manufacturer__count_distinct"
FROM __q0
ORDER BY
  "engine"
