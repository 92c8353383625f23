"""The pre-commit hook, run by pre-commit itself on temporary git repositories.

pre-commit builds the hook's environment (a venv with memory-audit installed)
once per repository and revision, the slow part. ``try-repo`` makes a new
revision on every call, so each run would build it again; instead a snapshot
of this checkout (committed work and edits alike, as ``try-repo`` would take
them) is the hook repository at one revision, and one test runs the hook on a
drifted repository and on a clean one with one ``PRE_COMMIT_HOME``: one build.
(One test rather than two sharing a fixture: pytest 9.2 breaks xdist's
``--dist loadgroup``, pytest-dev/pytest-xdist#1386, so two tests could land on
two workers and build twice.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree

REPOSITORY = Path(__file__).resolve().parents[2]
CONFIG = """\
repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: memory-audit
"""


def git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    done = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, env=env, text=True
    )
    return done.stdout


def hook_repository(folder: Path) -> tuple[Path, str]:
    """This checkout as it is now, committed into a scratch repository: (path, revision)."""
    listed = git(REPOSITORY, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = REPOSITORY / name
        if source.is_symlink() or source.is_file():  # deleted but unstaged files are listed too
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name, follow_symlinks=False)  # resources/ are links
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "snapshot")
    return folder, git(folder, "rev-parse", "HEAD").strip()


def run_hook(
    repo: Path, files: dict[str, str], hook: tuple[Path, str], home: Path
) -> subprocess.CompletedProcess[str]:
    write_tree(repo / "claude" / "memory", files)
    (repo / "README.md").write_text("# notes\n")
    (repo / ".pre-commit-config.yaml").write_text(CONFIG.format(repo=hook[0], rev=hook[1]))
    git(repo, "init", "-q")
    git(repo, "add", ".")
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=repo,
        env={**os.environ, "PRE_COMMIT_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.mark.slow
def test_pre_commit_hook_fails_on_a_drifted_tree_and_passes_on_a_clean_one(
    tmp_path: Path,
) -> None:
    hook = hook_repository(tmp_path / "hook-repository")
    home = tmp_path / "pre-commit-home"
    drifted = {"MEMORY.md": index("gone.md", "a.md"), "a.md": memory("a")}
    failed = run_hook(tmp_path / "drifted", drifted, hook, home)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "link target `gone.md` doesn't exist" in failed.stdout
    assert "Failed" in failed.stdout
    clean = {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    passed = run_hook(tmp_path / "clean", clean, hook, home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def command(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``memory-audit pre-commit`` as the hook calls it, without pre-commit around it."""
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "pre-commit", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )


def test_pre_commit_command_audits_each_tree_among_the_files_once(tmp_path: Path) -> None:
    write_tree(tmp_path / "a" / "memory", {"MEMORY.md": index("gone.md"), "x.md": memory("x")})
    write_tree(tmp_path / "docs" / "notes", {"MEMORY.md": index("b.md"), "b.md": memory("b")})
    (tmp_path / "README.md").write_text("# repo\n")
    files = ("README.md", "a/memory/MEMORY.md", "a/memory/x.md", "docs/notes/b.md")
    result = command(tmp_path, *files)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count("link target `gone.md` doesn't exist") == 1
    assert "docs/notes" in result.stdout  # the second tree, found by its MEMORY.md
    only_frontmatter = command(tmp_path, "--check", "frontmatter", *files)
    assert only_frontmatter.returncode == 0, only_frontmatter.stdout
    nothing = command(tmp_path, "README.md")
    assert (nothing.returncode, nothing.stdout) == (0, "")
