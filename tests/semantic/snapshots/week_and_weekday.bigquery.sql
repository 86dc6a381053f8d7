WITH __q0 AS (
  SELECT
    CAST(DATE_TRUNC(CAST(`orders`.ordered_at AS DATE), WEEK) AS DATE) AS `ordered_at__week`,
    (
      MOD(EXTRACT(DAYOFWEEK FROM CAST(`orders`.ordered_at AS DATE)) + 5, 7) + 1
    ) AS `ordered_at__extract_dow`,
    COUNT(`orders`.order_id) AS `m0`
  FROM orders AS `orders`
  GROUP BY
    CAST(DATE_TRUNC(CAST(`orders`.ordered_at AS DATE), WEEK) AS DATE),
    (
      MOD(EXTRACT(DAYOFWEEK FROM CAST(`orders`.ordered_at AS DATE)) + 5, 7) + 1
    )
)
SELECT
  `__q0`.`ordered_at__week`,
  `__q0`.`ordered_at__extract_dow`,
  __q0.`m0` AS `orders`
FROM __q0
ORDER BY
  `ordered_at__week` NULLS LAST,
  `ordered_at__extract_dow` NULLS LAST
