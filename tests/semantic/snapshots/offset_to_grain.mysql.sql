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
), __q1 AS (
  SELECT
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', MONTH(CAST(`orders`.ordered_at AS DATE)), ' 1'),
      '%Y %c %e'
    ) AS DATE) AS `metric_time__month`,
    SUM(`orders`.amount) AS `m1`
  FROM orders AS `orders`
  GROUP BY
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', MONTH(CAST(`orders`.ordered_at AS DATE)), ' 1'),
      '%Y %c %e'
    ) AS DATE)
), __keys AS (
  SELECT
    `metric_time__month`
  FROM __q0
)
SELECT
  `__keys`.`metric_time__month`,
  (
    __q0.`m0`
  ) - (
    __q1.`m1`
  ) AS `revenue_vs_quarter_start`
FROM __keys
LEFT JOIN __q0
  ON `__keys`.`metric_time__month` <=> `__q0`.`metric_time__month`
LEFT JOIN __q1
  ON CAST(STR_TO_DATE(
    CONCAT(YEAR(CAST(`__keys`.`metric_time__month` AS DATE)), ' ', QUARTER(CAST(`__keys`.`metric_time__month` AS DATE)) * 3 - 2, ' 1'),
    '%Y %c %e'
  ) AS DATE) <=> `__q1`.`metric_time__month`
ORDER BY
  CASE WHEN `__keys`.`metric_time__month` IS NULL THEN 1 ELSE 0 END, `__keys`.`metric_time__month`
