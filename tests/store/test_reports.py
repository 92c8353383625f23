from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory_audit.checks import DIMENSIONS
from memory_audit.engine import not_audited
from memory_audit.model.changes import Changes
from memory_audit.model.run import Run
from memory_audit.store.reports import ReportStore
from memory_audit.tree.location import ProjectLocation
from tests.harness import NOW, index, memory, report, write_tree


def sample_run(tmp_path: Path) -> Run:
    one = write_tree(tmp_path / "projects/-a/memory", {"MEMORY.md": index("gone.md")})
    two = write_tree(
        tmp_path / "projects/-b/memory", {"MEMORY.md": index("x.md"), "x.md": memory("x")}
    )
    return Run((report(one, "index-drift"), report(two, "index-drift")), NOW, dimensions=DIMENSIONS)


def test_store_writes_a_complete_private_run_folder_and_latest(tmp_path: Path) -> None:
    store = ReportStore(tmp_path / "reports", keep=3)
    run = sample_run(tmp_path)
    folder = store.write(run, {str(run.reports[0].root): Changes(new=run.reports[0].findings)})
    assert folder.name == "2026-11-30T100000"  # NOW in UTC
    assert sorted(p.name for p in folder.iterdir()) == [
        "-a-memory.md",
        "-b-memory.md",
        "summary.json",
        "summary.md",
    ]
    assert json.loads((folder / "summary.json").read_text())["schema"] == "memory-audit/run@1"
    assert "| 1 | 1 | 0 |" in (folder / "summary.md").read_text()
    assert "## Since the last run: 1 new, 0 resolved" in "".join(
        p.read_text() for p in folder.glob("*.md")
    )
    assert (tmp_path / "reports/latest").resolve() == folder
    assert folder.stat().st_mode & 0o777 == 0o700
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in folder.iterdir())


def test_store_trees_with_the_same_name_get_their_own_files_and_links(tmp_path: Path) -> None:
    one = write_tree(tmp_path / "work/app/memory", {"MEMORY.md": index("gone.md")})
    two = write_tree(tmp_path / "home/app/memory", {"MEMORY.md": index("x.md")})
    run = Run((report(one, "index-drift"), report(two, "index-drift")), NOW, dimensions=DIMENSIONS)
    folder = ReportStore(tmp_path / "reports", keep=3).write(run, {})
    summary = (folder / "summary.md").read_text()
    assert f"| {one} | 1 | 0 | 0 | 2 | 53 | [app-memory.md](app-memory.md) |" in summary
    assert f"| {two} | 1 | 0 | 0 | 2 | 44 | [app-memory-2.md](app-memory-2.md) |" in summary
    assert "`gone.md` doesn't exist" in (folder / "app-memory.md").read_text()
    assert "`x.md` doesn't exist" in (folder / "app-memory-2.md").read_text()


def test_store_keeps_only_the_newest_runs(tmp_path: Path) -> None:
    store = ReportStore(tmp_path / "reports", keep=2)
    run = sample_run(tmp_path)
    folders = [store.write(run, {}) for _ in range(12)]  # all in the same second
    assert store.runs() == folders[-2:]
    assert [f.name for f in store.runs()] == ["2026-11-30T100000-11", "2026-11-30T100000-12"]
    assert store.latest() == folders[-1]


WRITER = """
import sys
from pathlib import Path
sys.path.insert(0, {repo!r})
from memory_audit.checks import DIMENSIONS
from memory_audit.store.reports import ReportStore
from memory_audit.model.run import Run
from tests.harness import NOW, index, report, write_tree
trees = [write_tree(Path({base!r}) / f"p{{i}}/memory", {{"MEMORY.md": index(*[f"g{{j}}.md" for j in range(300)])}})
         for i in range(20)]
run = Run(tuple(report(t, "index-drift") for t in trees), NOW, dimensions=DIMENSIONS)
store = ReportStore(Path({reports!r}), keep=1000)
print("writing", flush=True)
while True:
    store.write(run, {{}})
    print("wrote", flush=True)
"""


@pytest.mark.slow
def test_kill_9_while_writing_never_leaves_a_visible_partial_report(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    code = WRITER.format(
        repo=str(Path(__file__).parents[2]), base=str(tmp_path / "trees"), reports=str(reports)
    )
    for delay in (0.3, 0.7, 1.1):
        writer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "writing"
        # One complete run first, however busy the machine; then a kill mid-write.
        assert writer.stdout.readline().strip() == "wrote"
        time.sleep(delay)
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
    store = ReportStore(reports, keep=1000)
    runs = store.runs()
    assert runs
    for folder in runs:
        data = json.loads((folder / "summary.json").read_text())
        assert len(data["reports"]) == 20
        assert len(list(folder.glob("*.md"))) == 21
    assert (reports / "latest").resolve() in runs
    store.clean_partial()
    assert not list(reports.glob(".tmp-*"))


def test_store_summary_names_a_tree_that_was_not_audited(tmp_path: Path) -> None:
    run = sample_run(tmp_path)
    failed = not_audited(
        tmp_path / "projects/-c/memory",
        ProjectLocation(slug="-c"),
        ".",
        "the audit of this tree failed (IndexError at index_file.py:126); not audited",
    )
    run = Run((*run.reports, failed), NOW, dimensions=DIMENSIONS)
    folder = ReportStore(tmp_path / "reports", keep=3).write(run, {})
    summary = (folder / "summary.md").read_text()
    assert "| -c | not audited: the audit of this tree failed" in summary  # never 0
    assert (
        "Not read or not audited:\n- `-c` `.`: the audit of this tree failed "
        "(IndexError at index_file.py:126); not audited\n" in summary
    )
