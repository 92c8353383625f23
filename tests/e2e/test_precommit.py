"""The pre-commit hook, run by pre-commit itself (`try-repo`) on a temporary git repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")  # shared: the hook's env is built once


def git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def try_repo(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(REPOSITORY),
            "memory-audit",
            "--all-files",
            *args,
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def make_repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "notes"
    write_tree(repo / "claude" / "memory", files)
    (repo / "README.md").write_text("# notes\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    return repo


def test_pre_commit_hook_fails_on_a_drifted_tree(tmp_path: Path, pre_commit_home: Path) -> None:
    repo = make_repo(tmp_path, {"MEMORY.md": index("gone.md", "a.md"), "a.md": memory("a")})
    result = try_repo(repo, pre_commit_home)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "link target `gone.md` doesn't exist" in result.stdout
    assert "Failed" in result.stdout


def test_pre_commit_hook_passes_on_a_clean_tree(tmp_path: Path, pre_commit_home: Path) -> None:
    repo = make_repo(tmp_path, {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    result = try_repo(repo, pre_commit_home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout
