WITH __q0 AS (
  SELECT
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', WEEK(CAST(`orders`.ordered_at AS DATE), 1), ' 1'),
      '%Y %u %w'
    ) AS DATE) AS `ordered_at__week`,
    WEEKDAY(CAST(`orders`.ordered_at AS DATE)) + 1 AS `ordered_at__extract_dow`,
    COUNT(`orders`.order_id) AS `m0`
  FROM orders AS `orders`
  GROUP BY
    CAST(STR_TO_DATE(
      CONCAT(YEAR(CAST(`orders`.ordered_at AS DATE)), ' ', WEEK(CAST(`orders`.ordered_at AS DATE), 1), ' 1'),
      '%Y %u %w'
    ) AS DATE),
    WEEKDAY(CAST(`orders`.ordered_at AS DATE)) + 1
)
SELECT
  `__q0`.`ordered_at__week`,
  `__q0`.`ordered_at__extract_dow`,
  __q0.`m0` AS `orders`
FROM __q0
ORDER BY
  CASE WHEN `__q0`.`ordered_at__week` IS NULL THEN 1 ELSE 0 END, `__q0`.`ordered_at__week`,
  CASE WHEN `__q0`.`ordered_at__extract_dow` IS NULL THEN 1 ELSE 0 END, `__q0`.`ordered_at__extract_dow`
