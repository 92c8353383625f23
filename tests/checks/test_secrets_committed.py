"""A value in a memory file the repository tracks is in its history too: redacting the file
leaves it there, so the advice is to change the value first. A tree no repository tracks
keeps the plain advice."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.model.finding import Finding
from memory_audit.tree.discovery import locate
from tests.harness import findings, index, memory, write_tree
from tests.support.git_repo import Repo

TOKEN = "ADMIN_SECRET=9f4c2a7e1b8d3f60a5c9e2b7d4f1a8c3e6b0d9f2a7c4e1b8d5f3a0c6e9b2d7f4"


def _audit(tree: Path, tmp_path: Path) -> list[Finding]:
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    return findings(tree, "secrets", options=options, location=locate(tree))


def test_a_value_in_a_committed_memory_file_is_to_be_changed_first(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    repo.commit(
        "memory",
        {
            "memory/MEMORY.md": index("a.md", "b.md"),
            "memory/a.md": memory("a", body=f"Admin routes:\n{TOKEN}\n"),
            "memory/b.md": memory("b", body=f"Again:\n{TOKEN}\n"),
        },
    )
    [found] = _audit(repo.path / "memory", tmp_path)
    assert found.level != "suggestion"
    assert found.suggestion == (
        "change it first (rotate the key, change the password): a.md is committed, and the"
        " repository's history keeps the value; then redact all 2 places in one fix; or mark"
        " it as a false positive"
    )


def test_an_uncommitted_file_or_a_tree_outside_a_repository_keeps_the_plain_advice(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "shop")
    repo.commit("memory", {"memory/MEMORY.md": index("a.md")})
    files = {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"Admin routes:\n{TOKEN}\n")}
    tree = write_tree(repo.path / "memory", files)  # written, never added
    [untracked] = _audit(tree, tmp_path)
    [outside] = _audit(write_tree(tmp_path / "loose" / "memory", files), tmp_path)
    for found in (untracked, outside):
        assert found.suggestion == "review and redact, or mark as false positive"
