from pathlib import Path

import pytest

from agent.semantic.model import DEFAULT_MODEL_PATH, SemanticModelError, check_against, load_model


def test_model_matches_the_warehouse(model, warehouse):
    assert check_against(model, warehouse.schema()) == []


def test_every_join_is_many_to_one_in_the_data(model, warehouse):
    # the model promises joins cannot multiply rows; the data must agree
    for join in model.joins:
        keys = ", ".join(right for _, right in join.keys)
        total, distinct = warehouse.run(
            f"SELECT count(*), count(DISTINCT ({keys})) FROM {join.to_table}").rows[0]
        assert total == distinct, join.name


def _edited_model(tmp_path: Path, old: str, new: str) -> Path:
    text = DEFAULT_MODEL_PATH.read_text()
    assert old in text
    path = tmp_path / "model.yaml"
    path.write_text(text.replace(old, new, 1))
    return path


def test_bad_entry_is_named(tmp_path):
    path = _edited_model(tmp_path, "{name: avg_dep_delay, label: Average departure delay, table: flights",
                         "{name: avg_dep_delay, label: Average departure delay, table: flightz")
    with pytest.raises(SemanticModelError) as err:
        load_model(path)
    assert "avg_dep_delay" in err.value.user_message and "flightz" in err.value.user_message


def test_malformed_field_is_located(tmp_path):
    path = _edited_model(tmp_path, "  - name: route\n    label: route\n", "  - name: route\n    label: [route]\n")
    with pytest.raises(SemanticModelError) as err:
        load_model(path)
    assert "dimensions[" in err.value.user_message and "'route'" in err.value.user_message


def test_join_off_the_primary_key_is_refused(tmp_path):
    path = _edited_model(tmp_path, "to: planes, keys: [[tailnum, tailnum]]", "to: planes, keys: [[tailnum, model]]")
    with pytest.raises(SemanticModelError, match="primary key"):
        load_model(path)


def test_check_against_names_missing_columns(tmp_path, warehouse):
    path = _edited_model(tmp_path, "expr: avg(humid)", "expr: avg(humidity)")
    problems = check_against(load_model(path), warehouse.schema())
    assert problems == ["metric 'avg_humid': column 'humidity' is not in table 'weather'"]


def test_role_playing_join_needs_to_be_named(model):
    source, join = model.resolve("dest_name", "flights")
    assert join.name == "dest_airport"
    assert model.resolve("carrier", "planes") is None  # planes -> flights would multiply rows
    assert model.resolve("month", "weather")[1] is None  # weather has its own month
