WITH __q0 AS (
  SELECT
    CAST(DATE_TRUNC(CAST(`orders`.ordered_at AS DATE), MONTH) AS DATE) AS `metric_time__month`,
    SUM(`orders`.amount) AS `m0`
  FROM orders AS `orders`
  GROUP BY
    CAST(DATE_TRUNC(CAST(`orders`.ordered_at AS DATE), MONTH) AS DATE)
)
SELECT
  `__q0`.`metric_time__month`,
  __q0.`m0` AS `revenue`
FROM __q0
ORDER BY
  `metric_time__month` NULLS LAST
