from __future__ import annotations

from pathlib import Path

from tests.harness import codes, findings, index, memory, write_tree


def test_superseded_entry_still_in_index_points_at_unindexed_successor(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("v1.md"),
            "v1.md": memory("v1", superseded_by="v2.md"),
            "v2.md": memory("v2"),
        },
    )
    [finding] = findings(tree_dir, "superseded")
    assert (finding.code, finding.path, finding.line) == ("superseded-in-index", "MEMORY.md", 2)
    assert finding.fix == {"action": "update-index-path", "line": 2, "old": "v1.md", "new": "v2.md"}


def test_superseded_entry_with_indexed_successor_suggests_removing_the_line(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("v1.md", "v2.md"),
            "v1.md": memory("v1", superseded_by="v2.md"),
            "v2.md": memory("v2"),
        },
    )
    [finding] = findings(tree_dir, "superseded")
    # v2.md does not say it supersedes v1.md: once out of the index, nothing would lead to
    # v1.md (an orphan), so the fix declares it in the same change.
    assert finding.fix == {
        "action": "remove-index-line",
        "line": 2,
        "target": "v1.md",
        "relate": {"path": "v2.md", "type": "supersedes", "target": "v1.md"},
    }


def test_superseded_entry_whose_successor_declares_it_only_loses_its_line(
    tree_dir: Path,
) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("v1.md", "v2.md"),
            "v1.md": memory("v1", superseded_by="v2.md"),
            "v2.md": memory("v2", relations="[{type: supersedes, target: v1.md}]"),
        },
    )
    [finding] = findings(tree_dir, "superseded")
    assert finding.fix == {"action": "remove-index-line", "line": 2, "target": "v1.md"}


def test_superseded_index_without_superseded_files_is_clean(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("v2.md"),
            "v1.md": memory("v1", superseded_by="v2.md"),
            "v2.md": memory("v2"),
        },
    )
    assert codes(findings(tree_dir, "superseded")) == []


def test_entry_its_index_line_marks_as_history_is_a_suggestion(tree_dir: Path) -> None:
    # The owner keeps replaced notes in the index on purpose, each line tagged as history
    # and naming its successor: no session is misled, and removing the line only saves it.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n"
            "- [Window fix](window_fix.md) — [已废弃] old theory, replaced by [[drain_fix]]\n"
            "- [Drain fix](drain_fix.md) — the real cause and its repair\n"
            "- [Slot reset](slot_reset.md) — [历史] gone with the reopen path\n"
            "- [Deploy v1](deploy_v1.md) — (deprecated) how we deployed before the switch\n"
            "- ~~[Cache v1](cache_v1.md)~~ — see the drain fix\n"
            "- [Queue v1](queue_v1.md) — how the old queue retried\n",
            "window_fix.md": memory("window fix", superseded_by="drain_fix.md"),
            "drain_fix.md": memory("drain fix"),
            "slot_reset.md": memory("slot reset", superseded_by="drain_fix.md"),
            "deploy_v1.md": memory("deploy v1", superseded_by="drain_fix.md"),
            "cache_v1.md": memory("cache v1", superseded_by="drain_fix.md"),
            "queue_v1.md": memory("queue v1", superseded_by="drain_fix.md"),
        },
    )
    levels = {f.line: f.level for f in findings(tree_dir, "superseded")}
    # A struck-out link is no pointer; an unmarked line still misleads: the one problem.
    assert levels == {2: "suggestion", 4: "suggestion", 5: "suggestion", 7: "problem"}
