"""The dbt Semantic Layer (MetricFlow) spec as this assistant reads it: its YAML, its types, its filter grammar."""
