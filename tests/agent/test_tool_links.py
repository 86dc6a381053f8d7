"""Tools read earlier results through the tool-call maps; a bad link can never loop."""

from agent.tools.results import MAX_LINK_HOPS, latest_output, linked_output


def ledger_of(calls):
    names, inputs, outputs = {}, {}, {}
    for call_id, name, args, output in calls:
        names[call_id], inputs[call_id] = name, args
        if output is not None:
            outputs[call_id] = output
    return {"tool_call_name_mapping": names, "tool_call_input_mapping": inputs, "tool_call_output_mapping": outputs}


def test_follows_links_back_to_the_wanted_tool():
    ledger = ledger_of([
        ("d1", "data_discovery", {}, {"selected_tables": ["flights"]}),
        ("g1", "generate_sql", {"related_table_source_tool_call_id": "d1"}, {"sql": "SELECT 1"}),
        ("x1", "execute_sql_and_analyze_result", {"related_sql_source_tool_call_id": "g1"}, None),
    ])
    assert linked_output(ledger, "x1", ("generate_sql",)) == ("g1", {"sql": "SELECT 1"})
    assert linked_output(ledger, "x1", ("data_discovery",))[0] == "d1"


def test_a_cycle_or_a_long_chain_ends_without_an_answer():
    cycle = ledger_of([
        ("a", "fix_sql", {"related_sql_source_tool_call_id": "b"}, None),
        ("b", "fix_sql", {"related_sql_source_tool_call_id": "a"}, None),
    ])
    assert linked_output(cycle, "a", ("generate_sql",)) is None
    chain = ledger_of(
        [(f"c{i}", "fix_sql", {"related_sql_source_tool_call_id": f"c{i + 1}"}, None) for i in range(MAX_LINK_HOPS + 5)]
        + [(f"c{MAX_LINK_HOPS + 5}", "generate_sql", {}, {"sql": "SELECT 1"})]
    )
    assert linked_output(chain, "c0", ("generate_sql",)) is None


def test_latest_output_skips_errors():
    ledger = ledger_of([
        ("g1", "generate_sql", {}, {"sql": "SELECT 1"}),
        ("g2", "generate_sql", {}, {"error": "no"}),
    ])
    assert latest_output(ledger, ("generate_sql",), with_key="sql")[0] == "g1"
