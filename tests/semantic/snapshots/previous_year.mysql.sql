WITH __q0 AS (
  SELECT
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', QUARTER(CAST(`orders`.ordered_at AS DATE)) * 3 - 2, ' 1'),
      '%Y %c %e'
    ) AS DATE) AS `metric_time__quarter`,
    COUNT(`orders`.order_id) AS `m0`
  FROM orders AS `orders`
  GROUP BY
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', QUARTER(CAST(`orders`.ordered_at AS DATE)) * 3 - 2, ' 1'),
      '%Y %c %e'
    ) AS DATE)
), __q1 AS (
  SELECT
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(DATE_ADD(CAST(`orders`.ordered_at AS DATE), INTERVAL 1 YEAR) AS DATE)), ' ', QUARTER(CAST(DATE_ADD(CAST(`orders`.ordered_at AS DATE), INTERVAL 1 YEAR) AS DATE)) * 3 - 2, ' 1'),
      '%Y %c %e'
    ) AS DATE) AS `metric_time__quarter`,
    COUNT(`orders`.order_id) AS `m1`
  FROM orders AS `orders`
  GROUP BY
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(DATE_ADD(CAST(`orders`.ordered_at AS DATE), INTERVAL 1 YEAR) AS DATE)), ' ', QUARTER(CAST(DATE_ADD(CAST(`orders`.ordered_at AS DATE), INTERVAL 1 YEAR) AS DATE)) * 3 - 2, ' 1'),
      '%Y %c %e'
    ) AS DATE)
), __keys AS (
  SELECT
    `metric_time__quarter`
  FROM __q0
)
SELECT
  `__keys`.`metric_time__quarter`,
  __q0.`m0` AS `orders`,
  __q1.`m1` AS `orders__previous`,
  __q0.`m0` - __q1.`m1` AS `orders__change`,
  CAST(__q0.`m0` - __q1.`m1` AS DOUBLE) / NULLIF(__q1.`m1`, 0) * 100 AS `orders__pct_change`
FROM __keys
LEFT JOIN __q0
  ON `__keys`.`metric_time__quarter` <=> `__q0`.`metric_time__quarter`
LEFT JOIN __q1
  ON `__keys`.`metric_time__quarter` <=> `__q1`.`metric_time__quarter`
ORDER BY
  CASE WHEN `__keys`.`metric_time__quarter` IS NULL THEN 1 ELSE 0 END, `__keys`.`metric_time__quarter`
