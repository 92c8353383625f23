"""The session hook's process loads only what it uses: every Claude Code session waits on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import platformdirs

from memory_audit.checks import DIMENSIONS
from memory_audit.daemon.store import ReportStore
from memory_audit.model.run import Run
from memory_audit.tree.discovery import slugify
from tests.harness import NOW, index, report, write_tree

HEAVY = ("pathlib", "typing", "argparse", "dataclasses", "platformdirs", "sqlite3", "yaml")


def imported_by_hook(cwd: Path) -> tuple[str, set[str]]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memory_audit", "hook", "session-start"],
        input=json.dumps({"cwd": str(cwd)}),
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    return done.stdout, {line.rsplit("|", 1)[1].strip() for line in lines}


def test_the_hook_answers_without_pathlib_typing_argparse_or_the_cli(
    isolated_home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    tree = write_tree(
        isolated_home / ".claude/projects" / slugify(project) / "memory",
        {"MEMORY.md": index("gone.md")},
    )
    store = ReportStore(Path(platformdirs.user_data_dir("memory-audit")) / "reports", keep=3)
    store.write(Run((report(tree),), NOW, dimensions=DIMENSIONS), {})
    stdout, modules = imported_by_hook(project)
    assert "1 finding(s) pending" in stdout
    assert "memory_audit.commands.hook" in modules
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY) == []
    assert "memory_audit.cli" not in modules
