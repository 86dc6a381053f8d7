"""The semantic Text-to-SQL path: a YAML model of metrics and dimensions, a StructuredIntent
chosen from its names, and a deterministic compiler from intent to DuckDB SQL."""
