from __future__ import annotations

from pathlib import Path

from tests.harness import codes, findings, index, memory, write_tree


def test_orphans_file_with_no_entry_and_no_incoming_link(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a"), "lonely.md": memory("lonely")}
    )
    [finding] = findings(tree_dir, "orphans")
    assert (finding.code, finding.path, finding.judgment) == ("orphan-candidate", "lonely.md", True)


def test_orphans_reachable_through_a_relation_or_link_is_not_an_orphan(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory(
                "a",
                body="see [[by-wikilink]] and [x](by_link.md)",
                relations="[{type: supports, target: by_relation.md}]",
            ),
            "by_relation.md": memory("r"),
            "by_wikilink.md": memory("by-wikilink"),
            "by_link.md": memory("l"),
            "old.md": memory("old", superseded_by="by_successor.md"),
            "by_successor.md": memory("s"),
        },
    )
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "old.md", None)]


def test_orphans_self_link_does_not_count(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "", "a.md": memory("a", body="see [[a]]")})
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "a.md", None)]


def test_orphans_sessions_and_team_files_are_never_orphans(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "",
            "sessions/2026-01-01-a.md": memory("a", type="session-recap"),
            "team/shared.md": memory("t"),
        },
    )
    assert findings(tree_dir, "orphans") == []


def test_orphans_moved_file_the_index_still_means_is_not_an_orphan(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("style.md"), "ref/style.md": memory("style")})
    assert findings(tree_dir, "orphans") == []
