"""matplotlib is imported without its property-table docstrings (a sixth of its import's CPU); only
documentation changes: `set()` keeps its signature, accepts every property and refuses unknown ones."""

from __future__ import annotations

import subprocess
import sys

import pytest

from agent.charts.library import PROPERTIES_NOT_LISTED, Figure
from tests.support.timeouts import PROCESS_TIMEOUT_S


@pytest.mark.subprocess
def test_a_fresh_import_builds_no_property_tables():
    # In a fresh interpreter: the cheap docstring must be in place before any Artist class is made.
    code = ("import agent.charts.render\nfrom matplotlib.lines import Line2D\nfrom matplotlib.axes import Axes\n"
            "print(Line2D.set.__doc__.endswith(%r), Axes.set.__doc__.endswith(%r))"
            % (PROPERTIES_NOT_LISTED, PROPERTIES_NOT_LISTED))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "True"]


def test_set_keeps_its_signature_and_behaviour():
    from matplotlib.lines import Line2D

    assert {"color", "linewidth", "marker"} <= set(Line2D.set.__signature__.parameters)  # type: ignore[attr-defined]
    line = Figure().add_subplot().plot([1, 2], [3, 4])[0]
    line.set(color="red", linewidth=2.5)
    assert (line.get_color(), line.get_linewidth()) == ("red", 2.5)
    with pytest.raises(AttributeError, match="unexpected keyword argument 'colour'"):
        line.set(colour="red")
