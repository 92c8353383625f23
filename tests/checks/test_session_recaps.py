from __future__ import annotations

from pathlib import Path

from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, findings, memory, write_tree


def test_session_recaps_well_formed_recap_is_clean(tree_dir: Path) -> None:
    write_tree(tree_dir, {"sessions/2026-10-02-rate-limits.md": memory("r", type="session-recap")})
    assert findings(tree_dir, "session-recaps") == []


def test_session_recaps_misshaped_name_gets_a_rename_from_its_date(tree_dir: Path) -> None:
    write_tree(tree_dir, {"sessions/2026_10_02 Rate Limits.md": memory("r", type="session-recap")})
    [finding] = findings(tree_dir, "session-recaps")
    assert finding.code == "recap-filename"
    assert finding.fix == {
        "action": "rename-file",
        "path": "sessions/2026_10_02 Rate Limits.md",
        "to": "sessions/2026-10-02-rate-limits.md",
    }


def test_session_recaps_name_without_any_date_has_no_concrete_rename(tree_dir: Path) -> None:
    write_tree(tree_dir, {"sessions/notes.md": memory("r", type="session-recap")})
    [finding] = findings(tree_dir, "session-recaps")
    assert finding.fix is None
    assert "YYYY-MM-DD" in (finding.suggestion or "")


def test_session_recaps_wrong_type_missing_and_broken_frontmatter(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "sessions/2026-01-01-a.md": memory("a", type="project"),
            "sessions/2026-01-02-b.md": "no frontmatter\n",
            "sessions/2026-01-03-c.md": "---\ntype: session-recap\n- stray item\n---\n",
        },
    )
    found = codes(findings(tree_dir, "session-recaps"))
    assert ("recap-type", "sessions/2026-01-01-a.md", 4) in found
    assert ("missing-frontmatter", "sessions/2026-01-02-b.md", 1) in found
    assert next(c for c in found if c[1].endswith("c.md"))[0] == "unparseable-frontmatter"
    assert len(found) == 3


def test_session_recaps_impossible_date_in_a_well_shaped_name_is_flagged(tree_dir: Path) -> None:
    write_tree(tree_dir, {"sessions/2026-13-45-x.md": memory("r", type="session-recap")})
    [finding] = findings(tree_dir, "session-recaps")
    assert finding.code == "recap-filename"
    assert "not a real date" in finding.message


def test_a_recap_known_by_its_name_alone_without_frontmatter_is_a_suggestion(
    tree_dir: Path,
) -> None:
    # `session_summaries.md`: the owner's own log, read by their own routine; under
    # sessions/ the layout itself says it is a recap, and the block is a problem.
    write_tree(
        tree_dir,
        {
            "session_summaries.md": "## 2026-04-06\n- shipped the sync fix\n",
            "sessions/2026-01-02-b.md": "no frontmatter\n",
        },
    )
    found = findings(tree_dir, "session-recaps")
    assert sorted((f.code, f.path, f.level) for f in found) == [
        ("missing-frontmatter", "session_summaries.md", "suggestion"),
        ("missing-frontmatter", "sessions/2026-01-02-b.md", "problem"),
    ]


def test_session_recaps_another_tool_s_log_is_one_suggestion_each_way(tree_dir: Path) -> None:
    # a repository's own multi-agent log: `<timestamp>--<agent>.md`, blocks with sessionId,
    # agent, startedAt and no type. All of sessions/ so: its writer's convention.
    block = "---\nsessionId: s{n}\nagent: codex\nstartedAt: 2026-05-0{n}T10:00:00Z\n---\nDone.\n"
    write_tree(
        tree_dir,
        {f"sessions/2026050{n}T100000000Z--codex.md": block.format(n=n) for n in range(1, 5)},
    )
    found = findings(tree_dir, "session-recaps")
    assert [(f.code, f.level, f.fix) for f in found] == [
        ("recap-filename", "suggestion", None),
        ("recap-type", "suggestion", None),
    ]
    assert found[0].message.startswith(
        "all 4 recaps in `sessions/` are named another way, not `YYYY-MM-DD-<slug>.md`"
    )
    assert len(found[1].related) == 3


def test_session_recaps_one_misnamed_among_well_named_is_its_own_finding(tree_dir: Path) -> None:
    files = {f"sessions/2026-01-0{n}-a.md": memory("a", type="session-recap") for n in range(1, 4)}
    write_tree(tree_dir, {**files, "sessions/Jan 4 notes.md": memory("b", type="project")})
    assert [(f.code, f.level) for f in findings(tree_dir, "session-recaps")] == [
        ("recap-filename", "problem"),
        ("recap-type", "problem"),
    ]


def test_session_recaps_schema_in_a_repository_s_copy_is_a_suggestion(tmp_path: Path) -> None:
    # The recap schema is the seed's convention, not Claude Code's: in repositories' copies
    # of memory no recap-filename or recap-type finding proved right (a template's fixed
    # `latest-session.md`, date-only names). In a folder Claude Code writes it stays a problem.
    files = {f"sessions/2026-01-0{n}-a.md": memory("a", type="session-recap") for n in range(1, 4)}
    files["sessions/latest-session.md"] = memory("b", type="project")
    copy = write_tree(tmp_path / "repo" / "memory", files)
    location = ProjectLocation("-repo", tmp_path / "repo", None)
    assert [(f.code, f.level) for f in findings(copy, "session-recaps", location=location)] == [
        ("recap-filename", "suggestion"),
        ("recap-type", "suggestion"),
    ]
    alone = write_tree(tmp_path / "alone" / "memory", files)
    assert [(f.code, f.level) for f in findings(alone, "session-recaps")] == [
        ("recap-filename", "problem"),
        ("recap-type", "problem"),
    ]


def test_session_recaps_claude_s_blocks_with_a_wrong_type_stay_one_fix_each(
    tree_dir: Path,
) -> None:
    # name and description: Claude's schema with a lapse in `type`, not another tool's
    write_tree(
        tree_dir,
        {f"sessions/2026-01-0{n}-a.md": memory(f"a{n}", type="project") for n in range(1, 4)},
    )
    found = findings(tree_dir, "session-recaps")
    assert [(f.code, f.level) for f in found] == [("recap-type", "problem")] * 3
    assert all(f.fix is not None for f in found)
