"""A declarative chart description: data, never code. Validated before it is drawn."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class ChartSpec(BaseModel):
    kind: Literal["line", "bar", "none"]
    x: str | None = None
    y: list[str] = Field(default_factory=list)
    series: str | None = None
    title: str = ""
    note: str | None = None  # e.g. "Showing the top 20 of 105 destinations."
    x_label: str = ""  # the axis titles people read: "carrier", "average delay (minutes)"
    y_label: str = ""
    names: dict[str, str] = Field(default_factory=dict)  # category or series code -> readable name
    order: Literal["value", "data"] = "value"  # bars by value, or as the rows were ordered (as asked)
