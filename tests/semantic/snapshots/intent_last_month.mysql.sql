WITH __q0 AS (
  SELECT
    COUNT(1) AS `m0`
  FROM flights AS `flights`
  WHERE
    DATE_FROM_PARTS(`flights`.year, `flights`.month, `flights`.day) BETWEEN CAST('2013-12-01' AS DATE) AND CAST('2013-12-31' AS DATE)
)
SELECT
  __q0.`m0` AS `flight_count`
FROM __q0
