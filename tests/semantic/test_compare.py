from agent.semantic.compare import rows_match


def test_names_and_extra_columns_do_not_matter():
    assert rows_match(["a", "n"], [("x", 1), ("y", 2)], ["label", "extra", "count"],
                      [("y", "?", 2), ("x", "?", 1)], ordered=False)


def test_order_counts_only_when_asked():
    gold = [("x", 1), ("y", 2)]
    got = [("y", 2), ("x", 1)]
    assert rows_match(["a", "n"], gold, ["a", "n"], got, ordered=False)
    assert not rows_match(["a", "n"], gold, ["a", "n"], got, ordered=True)


def test_rows_must_pair_up_not_just_columns():
    # each column matches as a multiset, but the pairs differ
    assert not rows_match(["a", "n"], [("x", 1), ("y", 2)], ["a", "n"], [("x", 2), ("y", 1)], ordered=False)


def test_numbers_within_relative_tolerance():
    assert rows_match(["v"], [(10.0,)], ["v"], [(10.0000000001,)], ordered=True)
    assert rows_match(["v"], [(3,)], ["v"], [(3.0,)], ordered=True)
    assert not rows_match(["v"], [(10.0,)], ["v"], [(10.001,)], ordered=True)


def test_row_counts_and_nulls():
    assert not rows_match(["v"], [(1,)], ["v"], [(1,), (1,)], ordered=False)
    assert rows_match(["v"], [(None,)], ["v"], [(None,)], ordered=True)
    assert not rows_match(["v"], [(None,)], ["v"], [(0,)], ordered=True)
