WITH __q0 AS (
  SELECT
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', MONTH(CAST(`orders`.ordered_at AS DATE)), ' 1'),
      '%Y %c %e'
    ) AS DATE) AS `metric_time__month`,
    SUM(`orders`.amount) AS `m0`
  FROM orders AS `orders`
  GROUP BY
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', MONTH(CAST(`orders`.ordered_at AS DATE)), ' 1'),
      '%Y %c %e'
    ) AS DATE)
)
SELECT
  `__q0`.`metric_time__month`,
  __q0.`m0` AS `revenue`
FROM __q0
ORDER BY
  CASE WHEN `__q0`.`metric_time__month` IS NULL THEN 1 ELSE 0 END, `__q0`.`metric_time__month`
