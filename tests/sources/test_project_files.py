from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.sources import project_files
from memory_audit.sources.project_files import files_named
from tests.harness import write_tree


def test_files_are_found_by_name_outside_the_tree_and_the_passed_over_folders(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "memory/notes.md": "in the tree",
            "clients/a/memory/notes.md": "x",
            "node_modules/pkg/notes.md": "x",
            ".git/notes.md": "x",
            "docs/other.md": "x",
        },
    )
    (tmp_path / "linked").symlink_to(tmp_path / "clients")
    found = files_named(tmp_path, {"notes.md", "absent.md"}, outside=tmp_path / "memory")
    assert found == {"notes.md": ["clients/a/memory/notes.md"], "absent.md": []}


def test_a_project_past_the_bound_gives_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {f"f{i}.md": "x" for i in range(5)})
    monkeypatch.setattr(project_files, "MAX_ENTRIES", 4)
    assert files_named(tmp_path, {"f1.md"}) is None
