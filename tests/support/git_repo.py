"""Real git repositories for tests: commits with fixed dates, so evidence can be asserted."""

from __future__ import annotations

import subprocess
from pathlib import Path


class Repo:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.day = 0

    def git(self, *args: str, stdin: bytes | None = None) -> str:
        stamp = f"2026-05-{self.day + 1:02d}T12:00:00Z" if hasattr(self, "day") else ""
        env = {
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@x",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@x",
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_DATE": stamp,
            "HOME": str(self.path),
            "PATH": "/usr/bin:/bin",
        }
        result = subprocess.run(
            ["git", "-C", str(self.path), *args],
            input=stdin,
            capture_output=True,
            check=True,
            env=env,
        )
        return result.stdout.decode().strip()

    def write(self, files: dict[str, str]) -> None:
        for rel, text in files.items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)

    def commit(self, message: str, files: dict[str, str] | None = None) -> str:
        """Commit ``files`` (and every change staged with ``git``) on the next day."""
        self.day += 1
        if files:
            self.write(files)
        self.git("add", "-A")
        self.git("commit", "-qm", message, "--allow-empty")
        return self.git("rev-parse", "HEAD")

    def remove(self, message: str, *paths: str) -> str:
        self.git("rm", "-rq", *paths)
        return self.commit(message)

    def move(self, message: str, old: str, new: str) -> str:
        (self.path / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", old, new)
        return self.commit(message)
