"""Two library packages run their `__init__` only when asked for a name (agent/lazy_init.py): the graph
is built without the LangGraph Platform client or LangSmith's REST models, and code that asks for
those still gets the real objects. Module presence is checked, never a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.timeouts import PROCESS_TIMEOUT_S

REPO = Path(__file__).resolve().parents[2]
# What the two `__init__`s import and the graph does not need.
UNUSED = ("langgraph_sdk.client", "langsmith.types.run", "httpx", "websockets", "rich")


def fresh(code: str) -> dict:
    """Run `code` (it sets `out`) in a new interpreter; its `out` as JSON."""
    script = f"import json, sys\n{code}\nprint(json.dumps(out))"
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.subprocess
def test_the_graph_is_built_without_either_package_s_init():
    out = fresh(
        "from agent.supervisor.graph import build_graph\nbuild_graph()\n"
        "import langgraph.graph, langchain_core.tracers\n"
        f"out = sorted(m for m in {list(UNUSED)!r} if m in sys.modules)\n"
    )
    assert out == []


@pytest.mark.subprocess
def test_asking_either_package_for_a_name_runs_its_init():
    out = fresh(
        "import agent, langgraph.graph\n"
        "import langgraph_sdk, langsmith.types\n"
        "loaded_before = 'langgraph_sdk.client' in sys.modules or 'langsmith.types.run' in sys.modules\n"
        "from langgraph_sdk import get_client\n"
        "from langgraph_sdk.client import get_client as real\n"
        "from langsmith.types import Run\n"
        "from langsmith.types.run import Run as real_run\n"
        "out = {'before': loaded_before, 'same': get_client is real and Run is real_run,\n"
        "       'version': langgraph_sdk.__version__,\n"
        "       'loader': 'get_client' in langgraph_sdk.__spec__.loader.get_source('langgraph_sdk')\n"
        "       and langsmith.types.__spec__.loader.is_package('langsmith.types')}\n"
    )
    assert out["before"] is False
    assert out["same"] is True and out["version"] and out["loader"] is True  # the real loader's interface


def test_a_name_the_package_lacks_is_an_attribute_error():
    import langgraph_sdk

    with pytest.raises(AttributeError, match="no_such_name"):
        langgraph_sdk.no_such_name  # noqa: B018 - the access is the test
    from langgraph_sdk import Auth  # the `__init__` ran once and its names are there

    assert Auth.__module__.startswith("langgraph_sdk")
