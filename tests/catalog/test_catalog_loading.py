"""The shipped catalog is valid, agrees with the real warehouse, and a broken file says what is wrong."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import sqlglot
import yaml
from sqlglot import exp

from agent.catalog import Catalog, CatalogError, default_catalog
from agent.errors import AssistantError
from agent.warehouse import Column, Schema

DEMO_TABLES = {"flights", "airlines", "airports", "planes", "weather"}


def write_yaml(tmp_path: Path, data) -> Path:
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def load_error(tmp_path: Path, data) -> str:
    with pytest.raises(CatalogError) as caught:
        Catalog.load(write_yaml(tmp_path, data))
    assert isinstance(caught.value, AssistantError)
    return caught.value.user_message


# -- the shipped catalog -----------------------------------------------------------------


def test_documents_every_demo_table_and_column(catalog):
    assert set(catalog.table_names) == DEMO_TABLES
    for name in DEMO_TABLES:
        table = catalog.table(name)
        assert table.description.strip()
        assert all(column.description.strip() for column in table.columns.values())


@pytest.mark.parametrize(
    "table, column, unit, words",
    [
        ("flights", "dep_delay", "minutes", ["minutes"]),
        ("flights", "arr_delay", "minutes", ["minutes"]),
        ("flights", "air_time", "minutes", ["minutes"]),
        ("flights", "distance", "miles", ["miles"]),
        ("flights", "dep_time", "HHMM local time", ["HHMM", "local"]),
        ("weather", "temp", "°F", ["Fahrenheit"]),
        ("weather", "precip", "inches", ["inches"]),
        ("airports", "alt", "feet", ["feet"]),
    ],
)
def test_columns_state_their_units(catalog, table, column, unit, words):
    doc = catalog.table(table).columns[column]
    assert doc.unit == unit
    for word in words:
        assert word in doc.description


def test_glossary_and_docs_cover_the_product(catalog):
    terms = {t.term for t in catalog.glossary}
    assert {"cancelled flight", "delay", "on-time", "origin airport", "carrier", "tailnum", "route"} <= terms
    assert catalog.glossary_term("cancelled flight").sql == "dep_time IS NULL"
    assert "Newark" in catalog.glossary_term("origin airport").definition
    assert {"fixsql", "explainsql", "confirmation", "available-data", "read-a-chart", "contact"} <= {
        d.id for d in catalog.docs
    }
    assert len(catalog.data.examples) >= 10


def test_default_catalog_is_loaded_once():
    assert default_catalog() is default_catalog()


def test_agrees_with_the_real_warehouse(catalog, warehouse):
    assert catalog.check_against(warehouse.schema()) == []


def test_check_against_names_each_difference(catalog, warehouse):
    real = warehouse.schema()
    changed = Schema(tables={name: list(columns) for name, columns in real.tables.items()})
    changed.tables["flights"] = [c for c in changed.tables["flights"] if c.name != "air_time"]
    changed.tables["flights"].append(Column("co2_kg", "DOUBLE"))
    changed.tables["planes"] = [
        Column(c.name, "VARCHAR") if c.name == "seats" else c for c in changed.tables["planes"]
    ]
    changed.tables["passengers"] = [Column("id", "BIGINT")]
    del changed.tables["weather"]

    problems = {(p.kind, p.table, p.column) for p in catalog.check_against(changed)}

    assert problems == {
        ("missing_column", "flights", "air_time"),
        ("undocumented_column", "flights", "co2_kg"),
        ("type_mismatch", "planes", "seats"),
        ("undocumented_table", "passengers", None),
        ("missing_table", "weather", None),
    }
    messages = [str(p) for p in catalog.check_against(changed)]
    assert any("flights.co2_kg" in m and "does not describe" in m for m in messages)


def test_example_queries_run_and_list_their_tables(catalog, warehouse):
    for example in catalog.data.examples:
        result = warehouse.run(example.sql)
        assert result.row_count > 0, example.question
        read = {t.name for t in sqlglot.parse_one(example.sql, read="duckdb").find_all(exp.Table)}
        assert read == set(example.tables), example.question


def test_documented_joins_are_valid_sql(catalog, warehouse):
    for name in catalog.table_names:
        for join in catalog.table(name).joins:
            warehouse.dry_run(f"SELECT count(*) FROM {name} JOIN {join.table} ON {join.on}")


def test_glossary_conditions_run(catalog, warehouse):
    for term in catalog.glossary:
        if term.sql:
            table = term.tables[0]
            result = warehouse.run(f"SELECT count(*) FROM {table} WHERE {term.sql}")
            assert result.rows[0][0] > 0, term.term


def test_documented_values_exist_in_the_data(catalog, warehouse):
    for name in catalog.table_names:
        for column, doc in catalog.table(name).columns.items():
            if doc.values:
                real = {str(v) for v in warehouse.distinct_values(name, column)}
                assert set(doc.values) <= real, f"{name}.{column}: {set(doc.values) - real}"


def test_value_patterns_fit_the_data(catalog, warehouse):
    import re

    for name in catalog.table_names:
        for column, doc in catalog.table(name).columns.items():
            if doc.pattern:
                values = warehouse.distinct_values(name, column, limit=10_000)
                fitting = sum(1 for v in values if re.fullmatch(doc.pattern, str(v)))
                assert fitting / len(values) > 0.95, f"{name}.{column}"


# -- broken files ------------------------------------------------------------------------


def test_missing_column_description_names_the_column(tmp_path, raw_catalog):
    del raw_catalog["tables"]["flights"]["columns"]["dep_time"]["description"]
    message = load_error(tmp_path, raw_catalog)
    assert "tables.flights.columns.dep_time.description" in message
    assert "required" in message.lower()


def test_misspelt_key_is_reported_not_ignored(tmp_path, raw_catalog):
    column = raw_catalog["tables"]["planes"]["columns"]["seats"]
    column["descripton"] = column.pop("description")
    message = load_error(tmp_path, raw_catalog)
    assert "tables.planes.columns.seats.descripton" in message


def test_glossary_reference_to_unknown_column_names_the_term(tmp_path, raw_catalog):
    raw_catalog["glossary"]["cancelled flight"]["columns"] = ["flights.dep_tme"]
    message = load_error(tmp_path, raw_catalog)
    assert "glossary.cancelled flight" in message and "flights.dep_tme" in message


def test_glossary_column_must_be_qualified(tmp_path, raw_catalog):
    raw_catalog["glossary"]["route"]["columns"] = ["origin"]
    message = load_error(tmp_path, raw_catalog)
    assert "glossary.route.columns" in message and "table.column" in message


def test_example_errors_name_the_example_by_its_question(tmp_path, raw_catalog):
    first = raw_catalog["examples"][0]
    del first["sql"]
    message = load_error(tmp_path, raw_catalog)
    assert f"examples[0] ({first['question']!r}).sql" in message


def test_example_with_unknown_table_is_refused(tmp_path, raw_catalog):
    raw_catalog["examples"][1]["tables"] = ["flights", "carriers"]
    message = load_error(tmp_path, raw_catalog)
    assert "unknown table 'carriers'" in message
    assert raw_catalog["examples"][1]["question"] in message


def test_join_to_undocumented_column_is_refused(tmp_path, raw_catalog):
    raw_catalog["tables"]["planes"]["joins"][0]["on"] = "planes.tail = flights.tailnum"
    message = load_error(tmp_path, raw_catalog)
    assert "tables.planes.joins" in message and "planes.tail" in message


def test_bad_value_pattern_is_refused(tmp_path, raw_catalog):
    raw_catalog["tables"]["planes"]["columns"]["tailnum"]["pattern"] = "N[0-9"
    message = load_error(tmp_path, raw_catalog)
    assert "tables.planes.columns.tailnum.pattern" in message and "regular expression" in message


def test_several_problems_are_all_listed(tmp_path, raw_catalog):
    del raw_catalog["tables"]["airlines"]["description"]
    raw_catalog["docs"]["fixsql"]["title"] = ""
    message = load_error(tmp_path, raw_catalog)
    assert "2 problem(s)" in message
    assert "tables.airlines.description" in message and "docs.fixsql.title" in message


def test_yaml_syntax_error_gives_the_line(tmp_path):
    path = tmp_path / "catalog.yaml"
    path.write_text("name: x\ntables:\n  flights: [unclosed\n", encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        Catalog.load(path)
    assert "not valid YAML at line" in caught.value.user_message


def test_file_that_is_not_a_mapping(tmp_path):
    message = load_error(tmp_path, ["just", "a", "list"])
    assert "should hold a mapping" in message


def test_missing_file(tmp_path):
    with pytest.raises(CatalogError) as caught:
        Catalog.load(tmp_path / "nope.yaml")
    assert "could not be read" in caught.value.user_message


def test_a_valid_copy_loads_from_a_file(tmp_path, raw_catalog):
    loaded = Catalog.load(write_yaml(tmp_path, copy.deepcopy(raw_catalog)))
    assert loaded.table_names == default_catalog().table_names
