"""review touches only what it audited: regular files inside the tree, never through a
symlink, never over a change it did not show."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from memory_audit.fix.edits import StaleTarget
from tests.e2e.test_review import env_for
from tests.fix.test_actions import build
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal

SECRET_TEXT = "root:$6$outside-the-tree-do-not-show:19000:0:99999:7:::"


def view_every_finding(tree: Path, home: Path, count: int) -> str:
    term = Terminal([sys.executable, "-m", "memory_audit", "review", str(tree)], env_for(home))
    for _ in range(count):
        term.expect("uit: ")
        term.send("v")
    term.expect("uit: ")
    term.send("q")
    term.expect("findings remain.")
    term.wait()
    return term.output


def test_view_detail_refuses_a_symlink_out_of_the_tree(tmp_path: Path) -> None:
    outside = tmp_path / "shadow"
    outside.write_text(SECRET_TEXT + "\n")
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("notes.md")})
    (tree / "notes.md").symlink_to(outside)
    shown = view_every_finding(tree, tmp_path / "home", 3)
    assert "outside-the-tree-do-not-show" not in shown
    assert "(not shown: notes.md" in shown


def test_view_detail_refuses_a_fifo_without_hanging(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("pipe.md")})
    os.mkfifo(tree / "pipe.md")
    shown = view_every_finding(tree, tmp_path / "home", 3)
    assert "(not shown: pipe.md is not a regular file" in shown


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_view_detail_refuses_dev_zero(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("zero.md")})
    os.mknod(tree / "zero.md", stat.S_IFCHR | 0o666, os.makedev(1, 5))
    shown = view_every_finding(tree, tmp_path / "home", 3)
    assert "(not shown: zero.md is not a regular file" in shown


def test_a_file_swapped_for_a_symlink_before_apply_is_not_written_through(
    tree_dir: Path, tmp_path: Path
) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\n- [Gone](gone.md) — x\n- [A](a.md) — a\n"})
    edit = build(tree_dir, {"action": "remove-index-line", "line": 2, "target": "gone.md"})
    outside = tmp_path / "outside.md"
    outside.write_text("# Index\n- [Gone](gone.md) — x\n- [A](a.md) — a\n")
    (tree_dir / "MEMORY.md").unlink()
    (tree_dir / "MEMORY.md").symlink_to(outside)
    with pytest.raises(StaleTarget, match="symlink"):
        edit.apply()
    assert outside.read_text() == "# Index\n- [Gone](gone.md) — x\n- [A](a.md) — a\n"
    assert (tree_dir / "MEMORY.md").is_symlink()


def test_memory_md_edited_after_the_diff_was_shown_is_not_overwritten(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\n- [Gone](gone.md) — x\n"})
    edit = build(tree_dir, {"action": "remove-index-line", "line": 2, "target": "gone.md"})
    theirs = "# Index\n- [Gone](gone.md) — x\n- [New](new.md) — written meanwhile\n"
    (tree_dir / "MEMORY.md").write_text(theirs)
    with pytest.raises(StaleTarget, match="changed since it was shown"):
        edit.apply()
    assert (tree_dir / "MEMORY.md").read_text() == theirs


def test_a_new_topic_through_a_symlinked_folder_is_refused(tree_dir: Path, tmp_path: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\nRule one.\nRule two.\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tree_dir / "linked").symlink_to(elsewhere)
    fix = {"action": "move-to-topic", "first": 2, "last": 3}
    with pytest.raises(StaleTarget, match="symlink"):
        build(tree_dir, fix, ["linked/rules.md", "the rules"]).apply()
    assert list(elsewhere.iterdir()) == []


def test_a_crafted_report_cannot_steer_a_fix_out_of_the_tree(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": "# Index\n- [Gone](gone.md) — removed\n", "a.md": memory("a")},
    )
    victim = tmp_path / "victim.md"
    victim.write_text("# Index\n- [Gone](gone.md) — removed\n")
    forged = {
        "dimension": "index-drift",
        "code": "broken-index-link",
        "path": "../victim.md",
        "line": 2,
        "message": "link target `gone.md` doesn't exist",
        "suggestion": None,
        "judgment": False,
        "related": [],
        "fix": {
            "action": "remove-index-line",
            "line": 2,
            "target": "gone.md",
            "path": "../victim.md",
        },
        "fingerprint": "0" * 20,
    }
    report_file = tmp_path / "report.json"
    report_file.write_text(
        json.dumps(
            {
                "schema": "memory-audit/run@1",
                "tool": {"name": "memory-audit", "version": "0"},
                "generated_at": "2999-01-01T00:00:00+00:00",
                "reports": [
                    {
                        "root": str(tree),
                        "project": None,
                        "project_path": None,
                        "profile": "claude-code",
                        "files_scanned": {"memory": 1, "session_recaps": 0, "index": True},
                        "health": {
                            "files": 1,
                            "total_lines": 1,
                            "index_lines": 2,
                            "index_bytes": 30,
                            "largest": [],
                            "review_due": 0,
                            "unindexed": 0,
                        },
                        "findings": [forged],
                        "counts": {"index-drift": 1},
                        "not_shown": {},
                        "skipped": [],
                        "errors": [],
                    }
                ],
            }
        )
    )
    term = Terminal(
        [
            sys.executable,
            "-m",
            "memory_audit",
            "review",
            str(tree),
            "--from-report",
            str(report_file),
        ],
        env_for(tmp_path / "home"),
    )
    shown = term.expect("left out.")
    term.wait()
    assert "1 finding(s) of the report do not match the tree as it is now" in shown
    assert victim.read_text() == "# Index\n- [Gone](gone.md) — removed\n"
