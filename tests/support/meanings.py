"""Column meanings for a query on the demo warehouse, read the way the run tool reads them."""

from __future__ import annotations

from functools import lru_cache

from agent.catalog import default_catalog
from agent.chatbi.meaning import ColumnMeaning, describe_columns
from agent.semantic.model.layer import load_layer
from agent.semantic.model.values import ValueIndex


@lru_cache(maxsize=1)
def _labels(warehouse) -> dict[str, dict[str, str]]:
    return ValueIndex.from_warehouse(warehouse, load_layer()).labels


def meanings_for(warehouse, sql: str, columns: list[str]) -> dict[str, ColumnMeaning]:
    return describe_columns(
        sql, columns, semantic=load_layer(), catalog=default_catalog(), labels=_labels(warehouse)
    )
