"""`memory-audit history` is scoped like `audit`: inside a project, that project's tree
(`--all` for every tree), and each day's header counts the changes of its own tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memory_audit.tree.slugs import slugify
from tests.e2e.test_restore import journal_of
from tests.harness import index, memory, write_tree


def _history(cwd: Path, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", "history", *args],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _two_projects(home: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """Two projects with journaled trees: `app` with 2 changes, `site` with 5."""
    app = tmp_path / "src/app"
    (app / "lib").mkdir(parents=True)
    trees = []
    for project, changes in ((app, 2), (tmp_path / "src/site", 5)):
        tree = home / ".claude/projects" / slugify(str(project)) / "memory"
        write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a")})
        edits: list[dict[str, str | None]] = [
            {"a.md": memory("a", body=f"Edit {n}.")} for n in range(changes - 1)
        ]
        journal_of(tree, *edits).close()  # a baseline of 2 files, then the edits
        trees.append(tree)
    return app, trees[0], trees[1]


def test_history_inside_a_project_shows_only_its_tree(isolated_home: Path, tmp_path: Path) -> None:
    app, app_tree, site_tree = _two_projects(isolated_home, tmp_path)
    shown = _history(app / "lib")
    assert shown.startswith(f"This project's memory: {app_tree}; --all for every tree.\n")
    assert f"Memory tree: {app_tree}" in shown
    assert f"Memory tree: {site_tree}" not in shown
    assert _history(app, "--format", "json").count('"root"') == 3  # baseline 2 + 1 edit
    baseline = [line for line in shown.splitlines() if " baseline " in line]
    assert len(baseline) == 2
    assert all(line.endswith("  first seen by the journal") for line in baseline), baseline
    assert "by first seen" not in shown


def test_history_all_shows_every_tree_with_its_own_count_per_day(
    isolated_home: Path, tmp_path: Path
) -> None:
    app, app_tree, site_tree = _two_projects(isolated_home, tmp_path)
    for shown in (_history(app, "--all"), _history(tmp_path)):  # --all, or outside a project
        assert f"Memory tree: {app_tree}" in shown
        assert f"Memory tree: {site_tree}" in shown
        headers = [line for line in shown.splitlines() if line.endswith("change(s)")]
        assert [h.split(": ", 1)[1] for h in headers] == ["6 change(s)", "3 change(s)"]
