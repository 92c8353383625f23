"""Regenerate the README's sections that the code owns (``make docs``; ``--check`` only compares).

Each section lies between ``<!-- generated: NAME (make docs) -->`` and ``<!-- end: NAME -->``:

- ``dimensions``: one row per dimension of the registry, in report order: its id, its title,
  its severity, what it finds (the first paragraph of its module docstring) and the options
  it takes with their defaults (its ``Options`` dataclass, internal fields left out).

``tests/test_docs.py`` fails when the README differs from what this script writes.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory_audit.checks import DIMENSIONS, OPTION_TYPES, check_module

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SECTION = re.compile(
    r"(<!-- generated: (?P<name>[\w-]+) \(make docs\) -->\n)(?P<body>.*?)(<!-- end: (?P=name) -->)",
    re.S,
)


def summary(dimension: str, title: str) -> str:
    """The docstring's first paragraph, without the title it starts with, as Markdown."""
    first = (check_module(dimension).__doc__ or "").strip().split("\n\n", 1)[0]
    text = " ".join(first.split()).removeprefix(f"{title}:").strip()
    return text.replace("``", "`").replace("|", "\\|")


def default_text(value: Any) -> str:
    if isinstance(value, tuple | list):
        return json.dumps(list(value), ensure_ascii=False)
    return json.dumps(value)  # true, false, null, numbers, "strings"


def options(dimension: str) -> str:
    """``name: default`` for each option a user can set (the defaults of a fresh instance)."""
    defaults = OPTION_TYPES[dimension]()
    shown = [
        f"`{f.name}: {default_text(getattr(defaults, f.name))}`"
        for f in dataclasses.fields(defaults)
        if not f.metadata.get("internal")
    ]
    return "<br>".join(shown) or "–"


def dimensions() -> str:
    rows = [
        "| id | title | severity | what it finds | options (`checks.<id>`, default) |",
        "|---|---|---|---|---|",
    ]
    for d in DIMENSIONS:
        rows.append(
            f"| `{d.id}` | {d.title} | {d.severity.value} | {summary(d.id, d.title)} | "
            f"{options(d.id)} |"
        )
    return "\n".join(rows) + "\n"


GENERATORS: dict[str, Callable[[], str]] = {"dimensions": dimensions}


def regenerate(text: str) -> str:
    def fill(match: re.Match[str]) -> str:
        body = GENERATORS[match["name"]]()
        return match.group(1) + body + match.group(4)

    return SECTION.sub(fill, text)


def main(argv: list[str]) -> int:
    current = README.read_text(encoding="utf-8")
    wanted = regenerate(current)
    if "--check" in argv:
        if wanted != current:
            print("README.md is out of date with the code: run `make docs`", file=sys.stderr)
            return 1
        return 0
    if wanted != current:
        README.write_text(wanted, encoding="utf-8")
        print("README.md regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
