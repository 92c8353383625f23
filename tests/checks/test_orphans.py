from __future__ import annotations

from pathlib import Path

from tests.harness import codes, findings, index, memory, report, write_tree


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
    # by_successor.md is reached only from old.md, which nothing reachable leads to
    assert codes(findings(tree_dir, "orphans")) == [
        ("orphan-candidate", "by_successor.md", None),
        ("orphan-candidate", "old.md", None),
    ]


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


def test_orphans_hub_and_second_level_index_reach_their_notes(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Memory\n\n## Retros\n- [Retros](retros/index.md) — every retro\n",
            "retros/index.md": memory("retros", body="- [Sprint 1](sprint_1.md)\n- [[sprint-2]]"),
            "retros/sprint_1.md": memory("sprint-1", body="Next: [[Sprint 3 retro]]"),
            "retros/sprint_2.md": memory("sprint-2"),
            "retros/sprint_3.md": memory("s3", body="# Sprint 3 retro\n\nShipped."),
            "retros/unlinked.md": memory("unlinked"),
        },
    )
    assert codes(findings(tree_dir, "orphans", "index-drift")) == [
        ("orphan-candidate", "retros/unlinked.md", None)
    ]


def test_orphans_related_fields_reach_by_name_with_type_prefix_and_case(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a", related="[Deploy_Notes]", relates_to="feedback_style.md"),
            "project_deploy_notes.md": memory("deploy notes v2"),
            "feedback_style.md": memory("style"),
        },
    )
    assert findings(tree_dir, "orphans") == []


def test_orphans_a_file_linked_only_from_an_orphan_is_one_finding_each(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "island.md": memory("island", body="see [[reef]]"),
            "reef.md": memory("reef"),
        },
    )
    found = sorted(findings(tree_dir, "orphans", "index-drift"), key=lambda f: f.path)
    assert codes(found) == [
        ("orphan-candidate", "island.md", None),
        ("orphan-candidate", "reef.md", None),
    ]
    assert found[1].related == ("island.md",)
    assert found[0].fix is not None
    assert found[0].fix["text"] == "- [island](island.md) — About island"


def test_orphans_link_inside_code_does_not_reach(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a", body="write links as `[x](b.md)`\n\n    [[b]]\n"),
            "b.md": memory("b"),
        },
    )
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "b.md", None)]


def test_orphans_hub_named_in_a_code_span_reaches_its_notes(tree_dir: Path) -> None:
    write_tree(
        tree_dir / "notes-memory",
        {
            "MEMORY.md": index("blog.md"),
            "blog.md": memory("blog", body="Post-mortems: read `notes-memory/retros/index.md`."),
            "retros/index.md": memory("retros", body="- [First](retro_first.md)"),
            "retros/retro_first.md": memory("first"),
            "retros/retro_stray.md": memory("stray", body="`retro_first.md` says it all"),
        },
    )
    assert codes(findings(tree_dir / "notes-memory", "orphans", "relations")) == [
        ("orphan-candidate", "retros/retro_stray.md", None)
    ]


def test_orphans_index_naming_a_file_in_a_code_span_reaches_it(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Notes\n- **`market_rules.md`** — 50 tactical rules\n",
            "market_rules.md": memory("rules"),
            "unnamed.md": memory("unnamed"),
        },
    )
    assert codes(findings(tree_dir, "orphans", "index-drift")) == [
        ("orphan-candidate", "unnamed.md", None)
    ]


def test_orphans_are_not_judged_when_the_index_sits_one_folder_up(
    tmp_path: Path, isolated_home: Path
) -> None:
    # In Claude Code's own projects folder the index one level up is never read: a problem.
    project = isolated_home / ".claude/projects/-work-p"
    write_tree(project, {"MEMORY.md": "- [A](memory/a.md) — notes\n"})
    tree = write_tree(project / "memory", {"a.md": memory("a"), "b.md": memory("b")})
    result = report(tree, "orphans", "index-drift")
    [missing] = result.findings
    assert (missing.code, missing.level) == ("missing-index", "problem")
    assert "the one in the folder above is not this folder's index" in missing.message
    assert missing.suggestion == "move ../MEMORY.md into this folder, its links made relative to it"
    assert [s.reason for s in result.skipped] == [
        "the index is the MEMORY.md one folder up; what it reaches is not judged"
    ]


def test_a_repositorys_copy_indexed_one_folder_up_is_a_suggestion(tmp_path: Path) -> None:
    # A repository keeping its memory copy as MEMORY.md + memory/*.md: its own layout.
    write_tree(tmp_path, {"MEMORY.md": "- [A](memory/a.md) — notes\n"})
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a")})
    [missing] = report(tree, "orphans", "index-drift").findings
    assert (missing.code, missing.level) == ("missing-index", "suggestion")
    assert missing.suggestion == (
        "if Claude Code loads this folder, move ../MEMORY.md into this folder,"
        " its links made relative to it"
    )


def test_with_no_index_at_all_the_missing_index_is_the_one_finding(tree_dir: Path) -> None:
    # One cause, one finding: not an orphan per memory beside "MEMORY.md is missing".
    write_tree(tree_dir, {"a.md": memory("a"), "b_notes.md": memory("b", description=None)})
    result = report(tree_dir, "orphans", "index-drift")
    [missing] = result.findings
    assert missing.code == "missing-index"
    assert "there is no MEMORY.md, so nothing is reachable (`missing-index`)" in [
        s.reason for s in result.skipped
    ]
    # Its fix writes the index those orphans' fixes would have added line by line.
    assert missing.fix == {
        "action": "create-index",
        "path": "MEMORY.md",
        "text": "# Memory index\n\n- [a](a.md) — About a\n- [b](b_notes.md)\n",
    }


def test_memories_in_an_archive_folder_are_kept_out_of_the_index_on_purpose(
    tree_dir: Path,
) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "retired/2026-05-27-prune/old_rule.md": memory("old-rule"),
            "archive/old_plan.md": memory("old-plan"),
            "notes/loose.md": memory("loose"),
        },
    )
    result = report(tree_dir, "orphans")
    assert codes(list(result.findings)) == [("orphan-candidate", "notes/loose.md", None)]
    assert "2 memories in archive folders, kept out of the index: not judged" in [
        s.reason for s in result.skipped
    ]
