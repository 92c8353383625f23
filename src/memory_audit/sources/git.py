"""Asking git which commits exist: one ``git cat-file --batch-check`` per repository.

Read-only by construction: ``cat-file`` never writes, optional locks are
off, hooks and fsmonitor are disabled, and git's own ``safe.directory``
refusal is respected (such a repository counts as not located).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

TIMEOUT_SECONDS = 30
SAFE_OPTIONS = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null")


class GitUnavailable(Exception):
    """git is not installed, or the folder is not a repository git will read."""


def _git(repo: Path, *args: str, stdin: str | None = None) -> str:
    git = shutil.which("git")
    if git is None:
        raise GitUnavailable("git not found")
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        result = subprocess.run(
            [git, *SAFE_OPTIONS, "-C", str(repo), *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitUnavailable(f"git failed: {type(exc).__name__}") from None
    if result.returncode != 0:
        raise GitUnavailable(
            result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "git failed"
        )
    return result.stdout


def repository_root(folder: Path) -> Path:
    return Path(_git(folder, "rev-parse", "--show-toplevel").strip())


def remote_urls(repo: Path) -> list[str]:
    """The fetch URLs of ``repo``'s remotes (none is an empty list)."""
    try:
        output = _git(repo, "config", "--get-regexp", r"^remote\..*\.url$")
    except GitUnavailable:
        return []  # git exits 1 when no key matches
    return [line.split(" ", 1)[1] for line in output.splitlines() if " " in line]


def existing_commits(repo: Path, hashes: Iterable[str]) -> set[str]:
    """The subset of ``hashes`` (abbreviated or full) that name a commit in ``repo``."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    output = _git(
        repo, "cat-file", "--batch-check", stdin="".join(f"{h}^{{commit}}\n" for h in wanted)
    )
    found = set()
    for asked, answer in zip(wanted, output.splitlines(), strict=False):
        if answer.split(" ", 2)[1:2] == ["commit"]:
            found.add(asked)
    return found
