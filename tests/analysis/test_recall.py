"""The recall scan: MEMORY.md, then memories newest first, capped at 200 (DESIGN §2)."""

from __future__ import annotations

import os
from pathlib import Path

from memory_audit.analysis.recall import recall_scan
from memory_audit.report.wording import health_line
from tests.harness import findings, index, load, memory, report, write_tree

BASE = 1_760_000_000  # a fixed file time


def tree_of(root: Path, count: int, *, same_time: bool = False) -> Path:
    files = {f"m{i:04d}.md": memory(f"m{i:04d}") for i in range(count)}
    write_tree(root, {"MEMORY.md": index(), **files})
    for i in range(count):
        stamp = BASE if same_time else BASE + i  # m0000 oldest
        os.utime(root / f"m{i:04d}.md", (stamp, stamp))
    return root


def test_recall_past_the_200_newest_are_named_exactly(tree_dir: Path) -> None:
    tree_of(tree_dir, 260)
    [finding] = [f for f in findings(tree_dir, "index-budget") if f.code == "past-recall-cap"]
    assert finding.related == tuple(f"m{i:04d}.md" for i in range(59, -1, -1))
    assert finding.message.startswith("recall sees 200 of 260 memories")
    assert "`m0059.md`" in finding.message
    assert "and 40 more" in finding.message
    assert "recall sees 200 of 260" in _health_line(tree_dir)


def test_recall_equal_times_break_ties_by_path(tree_dir: Path) -> None:
    tree_of(tree_dir, 5000, same_time=True)
    scan = recall_scan(load(tree_dir))
    assert scan.order == tuple(f"m{i:04d}.md" for i in range(5000))
    assert scan.past_cap[0] == "m0200.md"


def test_recall_modified_stamp_stands_in_and_non_dates_are_explained(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index(),
            "old.md": memory("old", modified="2020-01-01"),
            "new.md": memory("new", modified="2031-05-01T10:00:00Z"),
            "file.md": memory("file"),
            "odd.md": memory("odd", modified="last tuesday"),
            "num.md": memory("num", modified=12),
        },
    )
    for name in ("old.md", "new.md", "file.md", "odd.md", "num.md"):
        os.utime(tree_dir / name, (BASE, BASE))
    scan = recall_scan(load(tree_dir))
    assert scan.order == ("new.md", "file.md", "num.md", "odd.md", "old.md")
    assert scan.not_dates == (("num.md", "12"), ("odd.md", "last tuesday"))
    [note] = findings(tree_dir, "index-budget")
    assert (note.code, note.severity) == ("modified-not-a-date", "note")
    assert "`odd.md` (`last tuesday`)" in note.message


def test_recall_under_the_cap_is_quiet(tree_dir: Path) -> None:
    tree_of(tree_dir, 20)
    assert findings(tree_dir, "index-budget") == []
    assert "recall sees" not in _health_line(tree_dir)


def _health_line(root: Path) -> str:
    return health_line(report(root, "index-budget"))


def test_recall_a_cut_among_files_of_one_time_names_none_of_them(tree_dir: Path) -> None:
    # a checkout: every file has one time, so which 23 Claude Code leaves out is not known
    tree_of(tree_dir, 223, same_time=True)
    assert recall_scan(load(tree_dir)).tied_at_cap == 223
    [finding] = [f for f in findings(tree_dir, "index-budget") if f.code == "past-recall-cap"]
    assert finding.message == (
        "recall sees 200 of 223 memories: Claude Code lists the 200 newest, so 23 are never"
        " candidates; which ones is not known here: 223 of them share one modification time"
        " across the cut (a checkout or a copy gives files one time)"
    )
    assert finding.related == ()


def test_recall_a_tie_away_from_the_cut_still_names_the_oldest(tree_dir: Path) -> None:
    tree_of(tree_dir, 230)
    for name in ("m0000.md", "m0001.md"):  # the two oldest share a time, well past the cut
        os.utime(tree_dir / name, (BASE, BASE))
    assert recall_scan(load(tree_dir)).tied_at_cap == 0
    [finding] = [f for f in findings(tree_dir, "index-budget") if f.code == "past-recall-cap"]
    assert len(finding.related) == 30
