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
