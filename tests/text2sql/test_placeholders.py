"""Placeholders as text: found, masked for validation, filled with the person's answer."""

from agent.text2sql.placeholders import (
    fill_placeholders,
    mask_placeholders,
    placeholder_names,
    quote_placeholders,
)


def test_names_in_order_of_first_appearance():
    sql = "SELECT * FROM flights WHERE dest = '[DEST]' AND carrier IN ([CARRIER], '[DEST]')"
    assert placeholder_names(sql) == ["DEST", "CARRIER"]


def test_lower_case_brackets_and_list_indexes_are_not_placeholders():
    assert placeholder_names("SELECT xs[1], ys[i] FROM t WHERE a = '[not_one]'") == []


def test_bare_placeholders_become_string_literals():
    assert quote_placeholders("WHERE a = [A] AND b = '[B]'") == "WHERE a = '[A]' AND b = '[B]'"


def test_masking_turns_every_placeholder_into_null():
    assert mask_placeholders("WHERE a = '[A]' AND b = [B] AND c LIKE '%[C]%'") == (
        "WHERE a = NULL AND b = NULL AND c LIKE '%NULL%'"
    )


def test_fill_quotes_text_escapes_quotes_and_keeps_numbers_bare():
    sql = "WHERE name = '[NAME]' AND month = [MONTH] AND dest = '[DEST]'"
    assert fill_placeholders(sql, {"NAME": "O'Hare", "MONTH": "7"}) == (
        "WHERE name = 'O''Hare' AND month = 7 AND dest = '[DEST]'"
    )
