"""Reading dbt Semantic Layer YAML: what is read, and what is reported (file, line, what was skipped)."""

from __future__ import annotations

import textwrap

import pytest

from agent.semantic.spec.dbt_load import read_project
from agent.semantic.spec.where import FilterSyntaxError, parse_filter

DEMO = "agent/semantic/demo_model"


def test_the_demo_model_is_plain_dbt_and_reads_cleanly():
    project = read_project(DEMO)
    assert project.diagnostics == []
    assert {m.name for m in project.semantic_models} >= {"flights", "planes", "weather", "airlines"}
    on_time = project.metric_by_name["on_time_share"]
    assert on_time.type == "ratio" and on_time.numerator.filters[0].refs[0].name == "arr_delay"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_unsupported_parts_are_reported_with_file_and_line(tmp_path):
    _write(tmp_path, "models/sm.yml", """\
        semantic_models:
          - name: accounts
            model: ref('accounts')
            entities:
              - {name: account, type: primary, expr: id}
            dimensions:
              - name: valid_from
                type: time
                type_params:
                  time_granularity: day
                  validity_params: {is_start: true}
              - {name: tier, type: categorical}
            measures:
              - {name: balance, agg: sum, non_additive_dimension: {name: valid_from}}
              - {name: logins, agg: sum, expr: login_count}
              - {name: weird, agg: mode}
        """)
    _write(tmp_path, "models/metrics.yml", """\
        metrics:
          - name: conv
            type: conversion
            type_params: {entity: account}
          - name: logins
            type: simple
            type_params: {measure: logins}
            filter: "{% if true %}{{ Dimension('account__tier') }} = 'gold'{% endif %}"
          - name: gold_logins
            type: simple
            type_params: {measure: logins}
            filter: "{{ Metric('logins', group_by=['account']) }} > 3"
          - name: good
            type: simple
            type_params: {measure: logins}
            filter: "{{ Dimension('account__tier') }} = 'gold'"
          - name: orphan
            type: ratio
            type_params: {numerator: good, denominator: missing_metric}
        """)
    _write(tmp_path, "target/ignored.yml", "semantic_models: [{name: nope}]\n")
    project = read_project(tmp_path)
    found = {(d.file, d.line): d.message for d in project.diagnostics}
    assert "validity_params" in found[("models/sm.yml", 7)]
    assert "non_additive_dimension" in found[("models/sm.yml", 14)]
    assert "agg 'mode'" in found[("models/sm.yml", 16)]
    assert "conversion" in found[("models/metrics.yml", 2)]
    assert "Jinja statements" in found[("models/metrics.yml", 5)]
    assert "Metric(...)" in found[("models/metrics.yml", 9)]
    assert "missing_metric" in found[("models/metrics.yml", 17)]
    assert [m.name for m in project.metrics] == ["good"]
    model = project.model_by_name["accounts"]
    assert [d.name for d in model.dimensions] == ["tier"] and [m.name for m in model.measures] == ["logins"]


def test_relations_from_ref_source_and_node_relation(tmp_path):
    _write(tmp_path, "a.yaml", """\
        semantic_models:
          - {name: a, model: "ref('pkg', 'orders_v2')"}
          - {name: b, model: "source('raw', 'events')"}
          - {name: c, node_relation: {schema_name: analytics, alias: users}}
          - {name: d}
        """)
    project = read_project(tmp_path)
    assert [m.relation for m in project.semantic_models] == ["orders_v2", "events", "analytics.users"]
    assert "no model: ref" in project.diagnostics[0].message and project.diagnostics[0].line == 5


@pytest.mark.parametrize("text, kind, name, path, grain", [
    ("{{ Dimension('flight__origin') }} = 'JFK'", "dimension", "origin", ("flight",), None),
    ("{{ TimeDimension('order__ordered_at', 'month') }} >= '2024-01-01'", "time_dimension", "ordered_at", ("order",), "month"),
    ("{{Dimension('order__ordered_at').grain('week')}} IS NOT NULL", "time_dimension", "ordered_at", ("order",), "week"),
    ("{{ Entity('customer') }} IN (1, 2)", "entity", "customer", (), None),
    ('{{ Dimension("a__b__c") }} <> 1', "dimension", "c", ("a", "b"), None),
])
def test_filter_grammar(text, kind, name, path, grain):
    parsed = parse_filter(text)
    (ref,) = parsed.refs
    assert (ref.kind, ref.name, ref.entity_path, ref.grain) == (kind, name, path, grain)
    assert "__ref_0" in parsed.condition.sql()


@pytest.mark.parametrize("text, message", [
    ("{{ Dimension('a__b') }} = 1 AND {{ config.x }}", "config"),
    ("{{ Dimension('a__b' }} = 1", "expected"),
    ("{{ Dimension('a__b').lower() }} = 'x'", ".lower"),
    ("{{ TimeDimension('a__b', 'fortnight') }} = 1", "fortnight"),
    ("{{ Dimension('a__b') }} = = 1", "does not parse"),
    ("{{ Dimension('a__b') = 1", "unbalanced"),
])
def test_filter_grammar_refuses_what_it_cannot_read(text, message):
    with pytest.raises(FilterSyntaxError, match=message):
        parse_filter(text)
