WITH __q0 AS (
  SELECT
    CAST(DATE_TRUNC(CAST(`orders`.ordered_at AS DATE), QUARTER) AS DATE) AS `metric_time__quarter`,
    COUNT(`orders`.order_id) AS `m0`
  FROM orders AS `orders`
  GROUP BY
    CAST(DATE_TRUNC(CAST(`orders`.ordered_at AS DATE), QUARTER) AS DATE)
), __q1 AS (
  SELECT
    CAST(DATE_TRUNC(
      CAST(DATE_ADD(CAST(`orders`.ordered_at AS DATE), INTERVAL 1 YEAR) AS DATE),
      QUARTER
    ) AS DATE) AS `metric_time__quarter`,
    COUNT(`orders`.order_id) AS `m1`
  FROM orders AS `orders`
  GROUP BY
    CAST(DATE_TRUNC(
      CAST(DATE_ADD(CAST(`orders`.ordered_at AS DATE), INTERVAL 1 YEAR) AS DATE),
      QUARTER
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
  CAST(__q0.`m0` - __q1.`m1` AS FLOAT64) / NULLIF(__q1.`m1`, 0) * 100 AS `orders__pct_change`
FROM __keys
LEFT JOIN __q0
  ON `__keys`.`metric_time__quarter` IS NOT DISTINCT FROM `__q0`.`metric_time__quarter`
LEFT JOIN __q1
  ON `__keys`.`metric_time__quarter` IS NOT DISTINCT FROM `__q1`.`metric_time__quarter`
ORDER BY
  `metric_time__quarter` NULLS LAST
