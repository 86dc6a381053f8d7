"""Two packages our libraries import for one small submodule, whose `__init__` imports everything else.

- `langgraph.runtime` imports `langgraph_sdk.auth.types` (one Protocol, for a type hint), and
  `langgraph_sdk/__init__.py` imports the LangGraph Platform client: httpx, websockets, rich, click.
- `langsmith.run_trees` (through `langchain_core.tracers`) imports `langsmith.types.run_select_field`
  (one enum), and `langsmith/types/__init__.py` imports the ~150 generated pydantic models of
  LangSmith's REST API.

Neither is used here (no remote graph; LangSmith's client, when tracing is on, imports what it
needs), yet the two `__init__`s cost about 0.35 CPU-s of every start of the command line, the bot
and each CPU worker. So these packages are created with their `__path__` (their submodules import
as usual) and run their `__init__` only when something asks the package for a name it does not have
yet (`langgraph_sdk.get_client`, `from langsmith.types import Run`): what such code sees is the same.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any

LAZY_INIT = ("langgraph_sdk", "langsmith.types")


class _InitOnFirstName(importlib.abc.Loader):
    """Loads a package without running its `__init__`; a module `__getattr__` runs it on the first
    name the package lacks (PEP 562), once, then answers from what it defined."""

    def __init__(self, real: importlib.abc.Loader) -> None:
        self.real = real

    def __getattr__(self, name: str) -> Any:
        # The rest of the real loader's interface (get_source for inspect and tracebacks, get_filename,
        # is_package, get_resource_reader): what the import system and tools ask a package's loader.
        return getattr(self.real, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        lock = threading.RLock()  # re-entrant: the `__init__` imports its own submodules
        state = {"run": False}

        def __getattr__(name: str) -> Any:
            with lock:
                if not state["run"]:
                    state["run"] = True  # a name asked for while it runs: as for any half-imported module
                    del module.__dict__["__getattr__"]
                    self.real.exec_module(module)
                if name in module.__dict__:
                    return module.__dict__[name]
                own = module.__dict__.get("__getattr__")  # the package's own, if its `__init__` has one
                if own is not None:
                    return own(name)
                raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")

        module.__dict__["__getattr__"] = __getattr__


class _LazyInitFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in LAZY_INIT:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and spec.submodule_search_locations is not None:
                    spec.loader = _InitOnFirstName(spec.loader)
                return spec
        return None


def install() -> None:
    """Before the first import of either package; a second call changes nothing."""
    if not any(isinstance(finder, _LazyInitFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _LazyInitFinder())
