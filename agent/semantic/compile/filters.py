"""A condition on one dimension ('origin = JFK', 'rating > 4'): what an intent filters its rows by, and what a
defined metric counts its rows by ('ratings that are 5')."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, model_validator

__all__ = ["Filter", "FilterOp", "Value"]

FilterOp = Literal["=", "!=", ">", ">=", "<", "<=", "in", "between", "is_null", "not_null",
                   "starts_with", "ends_with", "contains"]
Value = bool | str | int | float

_ARITY = {"in": None, "between": 2, "is_null": 0, "not_null": 0}


class Filter(BaseModel):
    field: str  # a dimension name
    op: FilterOp = "="
    values: list[Value] = []
    said: str | None = None  # the words typed for a value that is not spelt so ('Cubs' for Chicago Cubs)

    @model_validator(mode="after")
    def _values_fit_op(self) -> "Filter":
        wanted = _ARITY.get(self.op, 1)
        if wanted is None:
            if not self.values:
                raise ValueError(f"filter on {self.field}: 'in' needs at least one value")
        elif len(self.values) != wanted:
            raise ValueError(f"filter on {self.field}: '{self.op}' takes {wanted} value(s), got {len(self.values)}")
        return self
