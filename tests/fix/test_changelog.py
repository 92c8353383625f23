"""One changelog per tree, named from its full path; `changelog` is scoped like `audit`."""

from __future__ import annotations

from pathlib import Path

from memory_audit.fix import changelog
from memory_audit.tree.discovery import slugify
from tests.e2e.test_cli import cli
from tests.harness import index, memory, write_tree


def test_two_trees_both_called_memory_keep_separate_changelogs(tmp_path: Path) -> None:
    first = changelog.changelog_path(tmp_path, tmp_path / "a" / "memory")
    second = changelog.changelog_path(tmp_path, tmp_path / "b" / "memory")
    assert first != second
    assert first.parent == second.parent == tmp_path
    assert first.name.endswith(".md")
    assert "-a-memory-" in first.name
    assert changelog.changelog_path(tmp_path, tmp_path / "a" / "memory") == first  # stable


def test_changelog_inside_a_project_shows_that_project_only(
    tmp_path: Path, isolated_home: Path
) -> None:
    projects = {}
    for name in ("app", "site"):
        folder = tmp_path / name
        folder.mkdir()
        root = isolated_home / ".claude/projects" / slugify(folder) / "memory"
        write_tree(root, {"MEMORY.md": index("a.md"), "a.md": memory("a")})
        log = changelog.changelog_path(isolated_home / ".local/state/memory-audit/changelog", root)
        changelog.append(log, name, f"## entry for {name}\n")
        projects[name] = folder
    inside = cli("changelog", cwd=projects["app"]).stdout
    assert "entry for app" in inside
    assert "entry for site" not in inside
    every = cli("changelog", "--all", cwd=projects["app"]).stdout
    assert "entry for app" in every
    assert "entry for site" in every
    outside = cli("changelog", cwd=tmp_path).stdout
    assert outside.startswith("Not inside a project with memory: every tree (2)")
