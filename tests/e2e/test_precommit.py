"""The pre-commit hook, run by pre-commit itself on temporary git repositories.

pre-commit builds the hook's environment (a venv with memory-audit installed)
once per repository and revision. ``try-repo`` makes a new revision on every
call, so both tests would pay for that build; instead one session-wide
snapshot of this checkout (committed work and edits alike, as ``try-repo``
would take them) is the hook repository, at one revision, with one shared
``PRE_COMMIT_HOME``. Both tests sit in one xdist group so they share it too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree

# Both hook tests on one xdist worker: they share its session's hook environment.
IN_ONE_HOOK_ENVIRONMENT = pytest.mark.xdist_group("pre-commit")

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


@pytest.fixture(scope="session")
def hook_repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This checkout as it is now, committed into a scratch repository: (path, revision)."""
    snapshot = tmp_path_factory.mktemp("hook-repository")
    listed = git(REPOSITORY, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = REPOSITORY / name
        if source.is_file():  # a file deleted but not yet staged is listed too
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    git(snapshot, "init", "-q")
    git(snapshot, "add", ".")
    git(snapshot, "commit", "-q", "-m", "snapshot")
    return snapshot, git(snapshot, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def run_hook(
    tmp_path: Path, files: dict[str, str], hook: tuple[Path, str], home: Path
) -> subprocess.CompletedProcess[str]:
    repo = tmp_path / "notes"
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
@IN_ONE_HOOK_ENVIRONMENT
def test_pre_commit_hook_fails_on_a_drifted_tree(
    tmp_path: Path, hook_repository: tuple[Path, str], pre_commit_home: Path
) -> None:
    files = {"MEMORY.md": index("gone.md", "a.md"), "a.md": memory("a")}
    result = run_hook(tmp_path, files, hook_repository, pre_commit_home)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "link target `gone.md` doesn't exist" in result.stdout
    assert "Failed" in result.stdout


@pytest.mark.slow
@IN_ONE_HOOK_ENVIRONMENT
def test_pre_commit_hook_passes_on_a_clean_tree(
    tmp_path: Path, hook_repository: tuple[Path, str], pre_commit_home: Path
) -> None:
    files = {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    result = run_hook(tmp_path, files, hook_repository, pre_commit_home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


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
