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


def test_entry_its_index_line_tags_as_history_is_a_suggestion(tree_dir: Path) -> None:
    # The owner keeps replaced notes in the index on purpose, each line tagged as history
    # or naming its successor: no session is misled, and removing the line only saves it.
    tagged = [
        "- [Window fix](window_fix.md) — [已废弃] old theory, see the drain fix",
        "- [Slot reset](slot_reset.md) — [历史] gone with the reopen path",
        "- [Deploy v1](deploy_v1.md) — (deprecated) how we deployed before the switch",
        "- [Cache v1 (old)](cache_v1.md) — how the cache warmed",
        "- [Queue v1](queue_v1.md) — old retries, replaced by the drain fix",
        "- [Setup](setup_v1.md) — **Legacy:** the first installer",
        "- [Schritte](schritte.md) — [veraltete] Schritte zum Ausrollen",
        "- [Инструкция](instr.md) — [устаревшая] инструкция",
        "- [旧流程](old_flow.md) — 已被取代，见新流程",
    ]
    # Words of the note's subject, not tags: these entries still mislead.
    untagged = [
        "- [API notes](api_v1.md) — replaces the deprecated v1 API",
        "- [Auth move](auth_v1.md) — how we migrate off the legacy auth server",
        "- [Restore](restore_v1.md) — restoring archived projects",
        "- [Links](links_v1.md) — see [Deprecated APIs](apis.md) first",
        "- [Deploy](legacy-deploy.md) — a legacy-free deploy path",
        "- [同步](sync_v1.md) — 聊天历史同步的部署步骤",
        "- [兼容](compat_v1.md) — 兼容旧版客户端的部署",
    ]
    lines = tagged + untagged
    files = {
        link.split("](", 1)[1].split(")", 1)[0]: memory("old", superseded_by="drain_fix.md")
        for link in lines
    }
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n" + "".join(f"{line}\n" for line in lines),
            "drain_fix.md": memory("drain fix"),
            "apis.md": memory("apis"),
            **files,
        },
    )
    found = {f.line: f for f in findings(tree_dir, "superseded")}
    levels = [found[n].level for n in range(2, 2 + len(lines))]
    assert levels == ["suggestion"] * len(tagged) + ["problem"] * len(untagged)
    # The successor is not indexed, yet a tagged line is removed, not pointed at it: the
    # tag would then say the current note is history.
    assert found[2].fix is not None
    assert found[2].fix["action"] == "remove-index-line"
    assert found[2 + len(tagged)].fix == {
        "action": "update-index-path",
        "line": 2 + len(tagged),
        "old": "api_v1.md",
        "new": "drain_fix.md",
    }
