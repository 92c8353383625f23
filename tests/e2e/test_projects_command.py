"""`memory-audit projects`: the trees found, as a table a person reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.e2e.test_cli import cli
from tests.harness import index, memory, write_tree
from tests.support.transcripts import write_session


def cells(line: str) -> list[tuple[int, str]]:
    """(column, text) of each cell: cells are separated by two spaces or more."""
    return [(m.start(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", line)]


def test_projects_table_lists_each_tree_aligned(isolated_home: Path) -> None:
    projects = isolated_home / ".claude/projects"
    write_tree(projects / "-x-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    write_tree(projects / "-x-long-service-name/memory", {"MEMORY.md": index()})
    header, *rows = cli("projects").stdout.splitlines()
    columns = [column for column, _ in cells(header)]
    assert [text for _, text in cells(header)] == [
        "PROJECT",
        "FILES",
        "INDEX LINES",
        "INDEX BYTES",
        "PROJECT PATH",
    ]
    size = f"{len(index('a.md').encode()):,}"
    assert sorted(cells(row) for row in rows) == [
        list(zip(columns, ["-x-app", "1", "2", size, "project root not located"], strict=True)),
        list(
            zip(
                columns,
                ["-x-long-service-name", "0", "1", "8", "project root not located"],
                strict=True,
            )
        ),
    ]


def test_projects_without_any_tree_says_so(isolated_home: Path) -> None:
    result = cli("projects")
    assert (result.returncode, result.stdout) == (0, "No memory trees found.\n")


def test_projects_says_where_a_moved_projects_store_went(
    isolated_home: Path, tmp_path: Path
) -> None:
    projects = isolated_home / ".claude/projects"
    write_tree(projects / "-work-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    write_session(projects / "-work-app", 0, [], cwd=str(tmp_path / "work/app"))  # gone
    moved = tmp_path / "src/app"
    moved.mkdir(parents=True)
    write_session(projects / "-src-app", 1, [], cwd=str(moved))
    [row] = cli("projects").stdout.splitlines()[1:]
    assert row.endswith(f"gone: {tmp_path}/work/app (moved to: -src-app; memory-audit review)")
    [tree] = json.loads(cli("projects", "--format", "json").stdout)
    assert tree["moved"] == {
        "old_path": f"{tmp_path}/work/app",
        "into": [{"store": "-src-app", "path": str(moved)}],
    }
