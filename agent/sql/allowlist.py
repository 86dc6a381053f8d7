"""Which functions and tables a read query may use, per dialect: an allow-list, reviewed by hand.

Anything not listed is refused by the guard with a sentence naming it. A deny-list loses to
every engine release that adds a function reading files or running SQL from a string; an
allow-list only grows when a person has looked at the new function. DuckDB's whole function
list is enumerated by a test, so a DuckDB upgrade that adds a name fails the suite until the
name is reviewed (added here, or to `duckdb_refused.txt`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

# Syntax that sqlglot represents as function nodes (CASE, CAST, ARRAY[...], x IN (...)).
_SYNTAX = """
case cast try_cast safe_cast convert extract interval array struct map if iff coalesce nullif
ifnull nvl isnull in exists between any all some filter within paren bracket tuple row
columns star distinct not_null group over partition order window
"""

# Aggregates, window functions and scalar functions that compute on values only: no I/O,
# no settings, no session state, no SQL from strings, no sleeping, no unbounded output.
_COMMON = """
count sum avg min max median mode stddev stddev_pop stddev_samp variance var_pop var_samp
corr covar_pop covar_samp regr_slope regr_intercept regr_r2 regr_count regr_avgx regr_avgy
percentile_cont percentile_disc array_agg string_agg bool_and bool_or every count_if
approx_count_distinct approx_distinct approx_percentile approx_quantile any_value
first_value last_value nth_value row_number rank dense_rank percent_rank cume_dist ntile lag
lead abs round ceil ceiling floor trunc truncate sqrt cbrt power pow exp ln log log10 log2
sign mod greatest least pi degrees radians sin cos tan asin acos atan atan2 cot
lower upper length char_length character_length octet_length bit_length substr substring
left right trim ltrim rtrim btrim replace concat concat_ws position strpos reverse lpad rpad
repeat split_part starts_with ends_with md5 sha1 sha256 ascii chr initcap translate
regexp_replace regexp_like regexp_extract regexp_substr regexp_count regexp_instr like ilike
date_trunc date_part datepart date_diff datediff date_add date_sub dateadd year month day
hour minute second quarter week dayofweek dayofmonth dayofyear day_of_week day_of_month
day_of_year week_of_year weekofyear last_day current_date current_timestamp current_time
localtime localtimestamp now to_date to_timestamp to_char date timestamp time make_date
nullif coalesce greatest least cardinality array_length array_contains unnest
bit_and bit_or bit_xor bool_xor timestamp_trunc date_format str_to_date format strftime
strptime epoch epoch_ms from_unixtime unix_timestamp to_unixtime typeof
"""

_DUCKDB = """
arg_max arg_min max_by min_by argmax argmin first last list quantile quantile_cont
quantile_disc mad kurtosis skewness entropy product fsum sumkahan kahan_sum favg histogram
bitstring_agg geomean geometric_mean weighted_avg wavg sem approx_top_k reservoir_quantile
list_value list_pack list_extract list_element list_contains list_has list_position
list_distinct list_unique list_sort list_reverse_sort list_slice list_concat list_cat
array_concat array_extract array_position array_slice array_sort array_distinct array_has
array_value array_to_string list_aggregate list_aggr array_aggregate list_sum list_avg
list_min list_max list_count list_first list_last list_any_value list_reverse
list_transform list_filter list_apply array_transform array_filter list_has_any
list_has_all flatten len strlen contains prefix suffix string_split str_split
string_to_array regexp_matches regexp_full_match regexp_split_to_array regexp_extract_all
regexp_escape lcase ucase instr strip_accents levenshtein editdist3 damerau_levenshtein
hamming mismatches jaccard jaro_similarity jaro_winkler_similarity nfc_normalize printf
to_base bar formatreadablesize format_bytes formatreadabledecimalsize hash
dayname monthname isodow isoyear yearweek era decade century millennium microsecond
millisecond nanosecond julian epoch_us epoch_ns timezone_hour timezone_minute today
get_current_time get_current_timestamp transaction_timestamp make_time make_timestamp
make_timestamptz make_timestamp_ms make_timestamp_ns time_bucket age to_days to_hours
to_minutes to_seconds to_milliseconds to_microseconds to_weeks to_months to_years
to_quarters to_decades to_centuries to_millennia to_centuries date_diff date_sub
timestamp_diff strftime strptime try_strptime even isnan isinf isfinite nextafter gamma
lgamma factorial gcd lcm bit_count round_even roundbankers signbit xor struct_pack
struct_extract struct_insert row map_extract map_keys map_values map_entries
element_at cardinality ifnull nullif list_zip list_select list_where array_select
array_where array_zip generate_subscripts range generate_series
to_json json_extract json_extract_string json_extract_path json_extract_path_text
json_value json_keys json_array_length json_type json_valid json_object json_array
json_structure json_contains json_exists array_length list_resize array_resize
list_grade_up array_grade_up uuid gen_random_uuid random
"""

_POSTGRES = """
date_part age justify_days justify_hours justify_interval make_interval make_timestamp
make_timestamptz to_number initcap split_part regexp_match regexp_matches regexp_split_to_array
string_to_array array_to_string array_position array_positions array_remove array_append
array_prepend array_cat array_upper array_lower jsonb_extract_path jsonb_extract_path_text
json_extract_path json_extract_path_text jsonb_array_length json_array_length jsonb_typeof
json_typeof jsonb_build_object json_build_object json_agg jsonb_agg json_object_agg
jsonb_object_agg to_json to_jsonb date_bin statement_timestamp clock_timestamp
transaction_timestamp isfinite width_bucket generate_series generate_subscripts unnest
bool_and bool_or every div gcd lcm factorial trim_scale scale format left right
"""

_MYSQL = """
ifnull if date_format str_to_date time_format curdate curtime current_date current_time
sysdate utc_date utc_timestamp timestampdiff timestampadd adddate subdate addtime subtime
monthname dayname weekday yearweek to_days from_days period_add period_diff makedate
maketime sec_to_time time_to_sec extract group_concat substring_index locate instr
field elt find_in_set lcase ucase mid space strcmp soundex hex unhex conv bin oct
truncate rand crc32 sha2 json_extract json_unquote json_length json_keys json_contains
json_object json_array json_arrayagg json_objectagg json_value std date_add date_sub
convert_tz
"""

_TRINO = """
approx_distinct approx_percentile approx_set arbitrary max_by min_by count_if geometric_mean
histogram map_agg element_at cardinality contains array_join array_distinct array_max
array_min array_position array_sort split split_part regexp_extract_all regexp_split
date_format date_parse format_datetime parse_datetime from_iso8601_date
from_iso8601_timestamp to_iso8601 day_of_week day_of_year year_of_week week_of_year
last_day_of_month try url_extract_host json_extract_scalar json_array_length json_format
json_parse sequence generate_series unnest is_nan is_finite is_infinite nan infinity
"""

_SNOWFLAKE = """
iff nvl nvl2 zeroifnull nullifzero div0 listagg array_agg array_size array_contains
object_construct parse_json try_to_number try_to_date try_to_timestamp to_varchar to_number
to_decimal to_time dateadd datediff timeadd timediff date_from_parts time_from_parts
timestamp_from_parts dayname monthname last_day next_day previous_day yearofweek weekiso
dayofweekiso approx_count_distinct hll median mode ratio_to_report conditional_change_event
split_part strtok charindex contains editdistance generator flatten
"""

_BIGQUERY = """
safe_divide ieee_divide countif logical_and logical_or string_agg array_agg array_length
array_to_string generate_array generate_date_array date_diff datetime_diff timestamp_diff
date_add datetime_add timestamp_add date_sub datetime_sub timestamp_sub date_trunc
datetime_trunc timestamp_trunc format_date format_datetime format_timestamp parse_date
parse_datetime parse_timestamp extract safe_cast approx_count_distinct approx_quantiles
approx_top_count split starts_with ends_with regexp_contains unnest timestamp_seconds
timestamp_millis unix_seconds unix_millis current_datetime datetime
"""

_CLICKHOUSE = """
uniq uniqexact uniqcombined quantile quantiles quantileexact topk argmax argmin any anylast
countif sumif avgif minif maxif groupArray groupuniqarray toDate toDateTime toStartOfMonth
toStartOfWeek toStartOfDay toStartOfHour toStartOfYear toStartOfQuarter toYear toMonth
toDayOfWeek toDayOfMonth toHour toMinute toString toInt64 toFloat64 todecimal64 formatDateTime
dateDiff dateAdd dateSub arrayJoin has length empty notEmpty splitByChar multiIf
positionCaseInsensitive lowerUTF8 upperUTF8 numbers
"""

# Table functions (FROM f(...)): only value generators whose output size the guard bounds.
TABLE_FUNCTIONS: dict[str, frozenset[str]] = {
    "duckdb": frozenset({"range", "generate_series", "unnest"}),
    "postgres": frozenset({"generate_series", "unnest"}),
    "mysql": frozenset(),
    "trino": frozenset({"unnest", "sequence"}),
    "snowflake": frozenset({"flatten"}),
    "bigquery": frozenset({"unnest"}),
    "clickhouse": frozenset({"numbers"}),
}

_BY_FAMILY = {
    "duckdb": _DUCKDB,
    "postgres": _POSTGRES,
    "mysql": _MYSQL,
    "trino": _TRINO,
    "snowflake": _SNOWFLAKE,
    "bigquery": _BIGQUERY,
    "clickhouse": _CLICKHOUSE,
}

# sqlglot dialect -> the family whose list applies.
FAMILY = {
    "duckdb": "duckdb",
    "postgres": "postgres",
    "redshift": "postgres",
    "mysql": "mysql",
    "trino": "trino",
    "presto": "trino",
    "athena": "trino",
    "snowflake": "snowflake",
    "bigquery": "bigquery",
    "clickhouse": "clickhouse",
}

# Functions that take or release locks, wait, or change the session or the server: refused by
# name on every engine (and before the allow-list, so listing one there by mistake cannot let it
# through). A lock taken by a query outlives its answer on a pooled connection.
LOCK_AND_SESSION_FUNCTIONS = frozenset("""
get_lock release_lock release_all_locks is_used_lock is_free_lock
pg_advisory_lock pg_advisory_lock_shared pg_advisory_xact_lock pg_advisory_xact_lock_shared
pg_try_advisory_lock pg_try_advisory_lock_shared pg_try_advisory_xact_lock
pg_try_advisory_xact_lock_shared pg_advisory_unlock pg_advisory_unlock_shared pg_advisory_unlock_all
set_config current_setting pg_sleep pg_sleep_for pg_sleep_until sleep sleep_ms benchmark
master_pos_wait source_pos_wait master_gtid_wait wait_for_executed_gtid_set
wait_until_sql_thread_after_gtids pg_cancel_backend pg_terminate_backend pg_reload_conf
pg_rotate_logfile pg_notify nextval setval lastval last_insert_id set_var name_const
pg_export_snapshot txid_current pg_current_xact_id dbms_lock.sleep system$wait
""".split())

# Schemas and name prefixes of system catalogs, refused unless the operator allows them.
SYSTEM_SCHEMAS = frozenset({
    "information_schema", "pg_catalog", "pg_toast", "pg_temp", "mysql", "performance_schema",
    "sys", "system", "temp", "snowflake", "account_usage", "region-us", "region-eu",
})
SYSTEM_PREFIXES = ("pg_", "duckdb_", "pragma_", "sqlite_", "information_schema", "innodb_")

# Functions whose size arguments are bounded by the guard (they can build huge values).
SIZE_ARGUMENTS = {
    "repeat": 1, "lpad": 1, "rpad": 1, "space": 0, "list_resize": 1, "array_resize": 1,
}
MAX_GENERATED = 1_000_000  # rows a generator may make, characters a padding may reach


def _words(text: str) -> frozenset[str]:
    return frozenset(word.lower() for word in text.split())


@lru_cache(maxsize=None)
def allowed_functions(dialect: str) -> frozenset[str]:
    family = FAMILY.get(dialect, "")
    return _words(_SYNTAX) | _words(_COMMON) | _words(_BY_FAMILY.get(family, ""))


def table_functions(dialect: str) -> frozenset[str]:
    return TABLE_FUNCTIONS.get(FAMILY.get(dialect, ""), frozenset())


def duckdb_refused() -> frozenset[str]:
    """DuckDB functions a person reviewed and refused (file, network, settings, catalog access)."""
    lines = Path(__file__).with_name("duckdb_refused.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))
