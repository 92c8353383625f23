"""The architecture as a test: imports only run downward through the layers.

Each top-level part of the package has a rank; a module may import its own
part or a part of lower rank, never one above it or beside it. Checks never
import each other (only the registry imports them all). The layers are
described in CONTRIBUTING.md.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "memory_audit"

RANKS = {
    "__init__": 0,
    "model": 0,
    "errors": 0,
    "atomic": 0,
    "regular_files": 0,
    "resource_files": 0,
    "kernel_ties": 0,
    "config": 1,
    "sources": 2,
    "tree": 3,
    "analysis": 4,
    "secrets": 5,
    "checks": 6,
    "engine": 7,
    "report": 7,
    "journal": 7,
    "store": 8,
    "notify": 8,
    "fix": 9,
    "cross_tree": 9,
    "daemon": 9,
    "install": 9,
    "commands": 10,
    "cli": 11,
    "__main__": 12,
}


def part(module: str) -> str:
    """``memory_audit.tree.walk`` -> ``tree``; the package itself -> ``__init__``."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 and pieces[1] in RANKS else "__init__"


def imports() -> Iterator[tuple[str, str, int]]:
    """(importing module, imported module, line) for every import inside the package."""
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                raise AssertionError(f"{module}:{node.lineno}: relative import")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memory_audit"):
                for alias in node.names:
                    yield module, f"{node.module}.{alias.name}", node.lineno
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("memory_audit"):
                        yield module, alias.name, node.lineno


def test_every_part_of_the_package_has_a_rank() -> None:
    parts = {p.stem for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert parts == set(RANKS)


def test_imports_run_downward_only() -> None:
    upward = [
        f"{source}:{line} imports {target}"
        for source, target, line in imports()
        if part(source) != part(target)
        and part(target) != "__init__"
        and RANKS[part(target)] >= RANKS[part(source)]
    ]
    assert upward == []


def test_no_check_imports_another_check() -> None:
    sideways = [
        f"{source}:{line} imports {target}"
        for source, target, line in imports()
        if source.startswith("memory_audit.checks.") and target.startswith("memory_audit.checks")
    ]
    assert sideways == []


def test_renderers_take_the_model_not_the_engine() -> None:
    reaching = [
        f"{source}:{line} imports {target}"
        for source, target, line in imports()
        if part(source) == "report" and part(target) in ("engine", "checks")
    ]
    assert reaching == []


def test_only_the_service_commands_import_the_service() -> None:
    """What the service keeps (runs, dismissals, reports) is in ``store/``: a command that
    reads it does not import the background service."""
    reaching = [
        f"{source}:{line} imports {target}"
        for source, target, line in imports()
        if source.startswith("memory_audit.commands.")
        and source not in ("memory_audit.commands.daemon", "memory_audit.commands.service")
        and part(target) == "daemon"
    ]
    assert reaching == []


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Lines of imports under ``if TYPE_CHECKING:``: annotations only, never run."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            lines |= {
                n.lineno for child in node.body for n in ast.walk(child) if hasattr(n, "lineno")
            }
    return lines


def module_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports when it runs, at its top or inside a
    function alike (a lazy import still makes a cycle)."""
    modules = {
        ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        for p in PACKAGE.rglob("*.py")
    }
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        source = source.removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = _type_checking_only(tree)
        for node in ast.walk(tree):
            if node.lineno in typing_only if hasattr(node, "lineno") else False:
                continue
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memory_audit"):
                for alias in node.names:
                    whole = f"{node.module}.{alias.name}"
                    graph[source].add(whole if whole in modules else str(node.module))
            elif isinstance(node, ast.Import):
                graph[source] |= {a.name for a in node.names if a.name in modules}
        graph[source].discard(source)
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another, directly or not."""
    reach = {module: reachable(graph, module) for module in graph}
    found: list[list[str]] = []
    for module in sorted(graph):
        if module in reach[module] and not any(module in group for group in found):
            found.append(sorted(m for m in reach[module] if module in reach.get(m, set())))
    return found


def test_no_import_cycles_even_inside_functions() -> None:
    assert cycles(module_graph()) == []


def test_the_cycle_finder_sees_an_import_inside_a_function() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
