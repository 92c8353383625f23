"""The project is the project: a memory folder's own, dotfiles or config repository is not."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memory_audit.tree import discovery as discover
from memory_audit.tree.location import is_config_repository
from tests.harness import index, memory, write_tree


def git_repo(path: Path, remote: str | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    if remote is not None:
        subprocess.run(["git", "-C", str(path), "remote", "add", "origin", remote], check=True)
    return path


def tree_at(folder: Path) -> Path:
    return write_tree(folder, {"MEMORY.md": index("a.md"), "a.md": memory("a")})


def test_location_memory_folder_that_is_its_own_repository_is_not_the_project(
    isolated_home: Path, tmp_path: Path
) -> None:
    tree = tree_at(git_repo(tmp_path / "memory-store"))
    assert discover.locate(tree).project_path is None


def test_location_dotfiles_repository_by_remote_is_not_the_project(
    isolated_home: Path, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "sync", remote="git@github.com:someone/dotfiles.git")
    tree = tree_at(repo / "claude" / "memory")
    assert discover.locate(tree).project_path is None


def test_location_synced_claude_home_layout_is_not_the_project(
    isolated_home: Path, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "backup")
    write_tree(repo, {"settings.json": "{}", "CLAUDE.md": "# Global rules\n", "hooks/x.sh": ""})
    tree = tree_at(repo / "memory")
    assert discover.locate(tree).project_path is None


def test_location_project_with_its_own_claude_folder_is_the_project(
    isolated_home: Path, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "shop-app", remote="https://example.org/team/shop-app.git")
    write_tree(repo, {"CLAUDE.md": "rules", ".claude/settings.json": "{}", "src/main.py": ""})
    tree = tree_at(repo / ".claude" / "memory")
    assert discover.locate(tree).project_path == repo


def test_location_project_keeping_memory_in_a_plain_claude_folder_is_the_project(
    isolated_home: Path, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "stock-tools")
    write_tree(repo, {"claude/CLAUDE.md": "x", "claude/skills/a.md": "", "tools/run.py": ""})
    tree = tree_at(repo / "claude" / "memory")
    assert discover.locate(tree).project_path == repo


def test_is_config_repository_by_name() -> None:
    repo = Path("/x/repo")
    tree = repo / "memory"
    assert is_config_repository(repo, tree, ["https://github.com/a/claude-config.git"])
    assert is_config_repository(Path("/x/my-claude-stuff"), Path("/x/my-claude-stuff/claude/m"))
    assert not is_config_repository(repo, tree, ["https://github.com/a/claude-code-indexer"])
