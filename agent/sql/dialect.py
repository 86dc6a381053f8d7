"""The dialect pasted SQL is read in when nobody says: Presto, as the seeds specify, whatever the
warehouse speaks (its own dialect is `Warehouse.dialect`). One name, so no surface spells it."""

DEFAULT_DIALECT = "presto"
