"""One pathological line (1 MB) in a memory file and in MEMORY.md: the audit finishes.

Each line once took minutes (quadratic backtracking in the link pattern). The whole
CLI runs in a subprocess with a generous limit: a hang fails the test, speed is
measured in bench/ (docs/benchmarks.md), not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.harness import memory, write_tree

SIZE = 1_000_000  # under the 1 MiB file cap, so the line is read, not skipped
LINES = {
    "link-brackets": "](" + "[" * SIZE,
    "wikilink-openers": "[[" * (SIZE // 2),
    "backticks": "x" + "`" * SIZE,  # "x" first: a line of backticks alone opens a fence
    "nested-brackets": "[" * (SIZE // 2) + "]" * (SIZE // 2),
    "image-openers": "![" * (SIZE // 2),
    "no-newline": "word/" + "x" * SIZE,
    "slash-then-word": "/`" + "a" * SIZE,
    "link-openers": "[a](" * (SIZE // 4),
}


def audit_json(tree: Path) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", "--format", "json", str(tree)],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
        timeout=60,
    )
    assert result.returncode in (0, 1), result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def codes_of(data: dict[str, Any]) -> set[tuple[str, str, int | None]]:
    [tree] = data["reports"]
    return {(f["code"], f["path"], f["line"]) for f in tree["findings"]}


@pytest.mark.parametrize("name", sorted(LINES))
def test_pathological_line_in_a_memory_file_finishes(tmp_path: Path, name: str) -> None:
    body = f"{LINES[name]}\n\nafter it: [gone](gone.md)"
    tree = write_tree(
        tmp_path / "tree",
        {"MEMORY.md": "- [A](a.md) — a\n", "a.md": memory("a", body=body)},
    )
    found = codes_of(audit_json(tree))
    assert ("broken-link", "a.md", 8) in found  # the file was still read past the line


@pytest.mark.parametrize("name", sorted(LINES))
def test_pathological_line_in_the_index_finishes(tmp_path: Path, name: str) -> None:
    text = f"- [A](a.md) — a\n{LINES[name]}\n- [Gone](gone.md) — g\n"
    tree = write_tree(tmp_path / "tree", {"MEMORY.md": text, "a.md": memory("a")})
    found = codes_of(audit_json(tree))
    assert ("broken-index-link", "MEMORY.md", 3) in found


def test_dense_brackets_are_reported_as_not_read(tmp_path: Path) -> None:
    body = LINES["link-brackets"]
    tree = write_tree(
        tmp_path / "tree",
        {"MEMORY.md": f"- [A](a.md) — a\n{body}\n", "a.md": memory("a", body=body)},
    )
    found = codes_of(audit_json(tree))
    assert ("links-not-read", "a.md", 6) in found
    assert ("index-not-read", "MEMORY.md", 2) in found
    assert ("orphan-candidate", "a.md", None) not in found  # line 1 was still read
