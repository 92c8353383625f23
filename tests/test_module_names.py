"""A module binds each of its top-level names once.

A constant defined twice in one module (values.py is four thousand lines) is silently the
later one wherever a function reads it: the first definition, its comment and its pattern
stand in the file and do nothing. Three such twins once hid there, one of them a guard that
read as stricter than the one in force.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "memory_audit"


def _bound_twice(source: str) -> list[str]:
    names: Counter[str] = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += 1
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] += 1
    return sorted(name for name, count in names.items() if count > 1)


def test_the_check_finds_a_name_bound_twice() -> None:
    source = 'WORD = "a"\ndef f() -> str:\n    return WORD\nWORD = "b"\nOTHER = 1\n'
    assert _bound_twice(source) == ["WORD"]


def test_no_module_binds_a_top_level_name_twice() -> None:
    twice = {
        str(path.relative_to(PACKAGE)): names
        for path in sorted(PACKAGE.rglob("*.py"))
        if (names := _bound_twice(path.read_text(encoding="utf-8")))
    }
    assert twice == {}
