"""No module imports itself back, through any chain: a cycle makes import order matter, hides which
layer owns a type, and is what function-local imports were papering over.

Every import counts, function-local and TYPE_CHECKING ones too: a cycle a type checker sees is
still a cycle in the design. import-linter's contracts check packages; this checks modules.
"""

from __future__ import annotations

from pathlib import Path

import grimp

PACKAGES = ("agent", "bot", "checkpoint_redis")
ROOT = Path(__file__).resolve().parents[1]


def module_cycles(graph: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """One shortest cycle per direct import that closes one, each cycle reported once."""
    seen: set[frozenset[str]] = set()
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is None:
                continue
            cycle = (importer, *back)
            if frozenset(cycle) not in seen:
                seen.add(frozenset(cycle))
                cycles.append(cycle)
    return cycles


def test_the_house_has_no_import_cycles() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)  # a stale cache once hid a cycle here
    cycles = module_cycles(graph)
    assert not cycles, "import cycles (move the shared piece down a layer):\n" + "\n".join(
        " -> ".join(cycle) for cycle in cycles
    )


def test_every_folder_of_modules_is_a_package() -> None:
    """grimp (and so import-linter) sees a folder without `__init__.py` as no package at all: a cycle
    through it is hidden from the contracts, as one through agent/budget was."""
    folders = {path.parent for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    missing = sorted(str(folder.relative_to(ROOT)) for folder in folders if not (folder / "__init__.py").exists())
    assert not missing, f"folders of modules without __init__.py: {missing}"


def test_a_cycle_is_found() -> None:
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.base", "pkg.engine", "pkg.duck"):
        graph.add_module(module)
    graph.add_import(importer="pkg.base", imported="pkg.engine")
    graph.add_import(importer="pkg.engine", imported="pkg.duck")
    graph.add_import(importer="pkg.duck", imported="pkg.base")
    assert module_cycles(graph) == [("pkg.base", "pkg.engine", "pkg.duck", "pkg.base")]
