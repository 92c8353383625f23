"""The session hook's process loads only what it uses: every Claude Code session waits on it."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import platformdirs

from memory_audit.checks import DIMENSIONS
from memory_audit.install.claude import hook_command
from memory_audit.model.run import Run, TreeReport
from memory_audit.store.reports import ReportStore
from memory_audit.store.state import State
from memory_audit.tree.discovery import slugify
from tests.harness import NOW, index, memory, report, write_tree

HEAVY = ("pathlib", "typing", "argparse", "dataclasses", "platformdirs", "sqlite3", "yaml")
# What `python -m` (runpy) and the json package would import: ~20 ms at every session start.
STARTUP = ("runpy", "importlib", "contextlib", "json", "re", "enum", "functools", "collections")


def imported_by_hook(cwd: Path) -> tuple[str, set[str]]:
    """The hook's output and every module its process imported, run as installed."""
    python, *args = shlex.split(hook_command())
    done = subprocess.run(
        [python, "-X", "importtime", *args],
        input=json.dumps({"cwd": str(cwd)}),
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    return done.stdout, {line.rsplit("|", 1)[1].strip() for line in lines}


def project_with_a_report(
    home: Path, tmp_path: Path, *indexed: str
) -> tuple[Path, Path, TreeReport]:
    """A project whose memory tree's MEMORY.md lists ``indexed`` (missing files) beside the
    one note it holds, and the report the service wrote of it."""
    project = tmp_path / "app"
    project.mkdir()
    tree = write_tree(
        home / ".claude/projects" / slugify(project) / "memory",
        {"MEMORY.md": index(*indexed, "kept.md"), "kept.md": memory("kept")},
    )
    audited = report(tree)
    store = ReportStore(Path(platformdirs.user_data_dir("memory-audit")) / "reports", keep=3)
    store.write(Run((audited,), NOW, dimensions=DIMENSIONS), {})
    return project, tree, audited


def test_the_hook_answers_without_pathlib_typing_argparse_or_the_cli(
    isolated_home: Path, tmp_path: Path
) -> None:
    project, _, _ = project_with_a_report(isolated_home, tmp_path, "gone.md")
    stdout, modules = imported_by_hook(project)
    assert "1 finding(s) pending" in stdout
    assert "memory_audit.commands.hook" in modules
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY + STARTUP) == []
    assert "memory_audit.cli" not in modules


def test_dismissals_are_read_without_sqlite3_while_the_state_s_copy_is_current(
    isolated_home: Path, tmp_path: Path
) -> None:
    project, tree, audited = project_with_a_report(isolated_home, tmp_path, "gone.md", "lost.md")
    state = State(Path(platformdirs.user_state_dir("memory-audit")))
    state.dismiss(audited.findings[0].fingerprint, str(tree), "ok", NOW)
    state.close()
    stdout, modules = imported_by_hook(project)
    assert "memory-audit: 1 finding(s) pending" in stdout  # the other one is dismissed
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY + STARTUP) == []
