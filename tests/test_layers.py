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
    "resource_files": 0,
    "config": 1,
    "sources": 2,
    "tree": 3,
    "analysis": 4,
    "secrets": 5,
    "checks": 6,
    "engine": 7,
    "report": 7,
    "journal": 7,
    "fix": 8,
    "cross_tree": 8,
    "daemon": 8,
    "install": 8,
    "commands": 9,
    "cli": 10,
    "__main__": 11,
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
