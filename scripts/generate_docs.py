"""Regenerate the README's sections that the code owns (``make docs``; ``--check`` only compares).

Each section lies between ``<!-- generated: NAME (make docs) -->`` and ``<!-- end: NAME -->``:

- ``dimensions``: one row per dimension of the registry, in report order: its id, its title,
  its severity and what it finds (the first paragraph of its module docstring);
- ``check-options``: one row per option a user can set (its ``Options`` dataclass, internal
  fields left out): its default from the code, and what it does from its comment in
  ``config/config.example.yaml``.

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


def dimensions() -> str:
    rows = ["| id | title | severity | what it finds |", "|---|---|---|---|"]
    for d in DIMENSIONS:
        rows.append(f"| `{d.id}` | {d.title} | {d.severity.value} | {summary(d.id, d.title)} |")
    return "\n".join(rows) + "\n"


OPTION_LINE = re.compile(r"^    (?P<name>[a-z_]+):[^#]*(?:#\s?(?P<comment>.*))?$")
MORE_COMMENT = re.compile(r"^ {6,}#\s?(?P<comment>.*)$")


def example_comments() -> dict[tuple[str, str], str]:
    """(dimension, option) -> the comment config/config.example.yaml gives it."""
    text = (ROOT / "config" / "config.example.yaml").read_text(encoding="utf-8")
    found: dict[tuple[str, str], str] = {}
    dimension = key = ""
    for line in text.split("\nchecks:\n", 1)[1].splitlines():
        if re.match(r"^  [a-z-]+:$", line):
            dimension, key = line.strip()[:-1], ""
        elif match := OPTION_LINE.match(line):
            key = match["name"]
            found[dimension, key] = (match["comment"] or "").strip()
        elif (more := MORE_COMMENT.match(line)) and key:
            found[dimension, key] = f"{found[dimension, key]} {more['comment'].strip()}".strip()
    return found


def check_options() -> str:
    """Every option of every dimension: its default (from the code) and what it does (the
    example configuration's comment, which tests hold to the code's options)."""
    comments = example_comments()
    rows = ["| option | default | what it does |", "|---|---|---|"]
    for d in DIMENSIONS:
        defaults = OPTION_TYPES[d.id]()
        for field in dataclasses.fields(defaults):
            if field.metadata.get("internal"):
                continue
            what = comments.get((d.id, field.name), "").replace("|", "\\|")
            value = default_text(getattr(defaults, field.name))
            rows.append(f"| `checks.{d.id}.{field.name}` | `{value}` | {what} |")
    return "\n".join(rows) + "\n"


GENERATORS: dict[str, Callable[[], str]] = {
    "dimensions": dimensions,
    "check-options": check_options,
}


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
