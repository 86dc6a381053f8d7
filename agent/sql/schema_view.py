"""What the SQL layer's repairs need to know of a warehouse's tables, as a protocol: the warehouse's
`Schema` is one, and the SQL layer, beneath the warehouse, never imports it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class ColumnView(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def type(self) -> str: ...


class SchemaView(Protocol):
    @property
    def tables(self) -> Mapping[str, Sequence[ColumnView]]: ...

    def columns_of(self, table: str) -> Sequence[ColumnView]: ...

    def all_column_names(self) -> set[str]: ...
