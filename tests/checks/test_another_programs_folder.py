"""A folder no Claude Code session wrote: no MEMORY.md and no frontmatter in any file.

Claude Code writes MEMORY.md with its first memory and a frontmatter block in every topic
file. A repository's ``memory/`` with neither is another program's notes (an agent's
workspace, an app's own store, a coding assistant's context): index and frontmatter advice
is wrong there (held-out judges: ``missing-index`` and ``no-frontmatter`` false in every
such folder of round 135), while what it holds is still read for secrets.
"""

from __future__ import annotations

import json
from pathlib import Path

from memory_audit.model.stores import AgentStore
from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import memory, report, write_tree

# An agent's notes as another program writes them: a title, prose, no block.
NOTES = {
    "projects.md": "# projects.md - active projects\n\n- billing export: waiting on review\n",
    "decisions.md": "# decisions.md - decision log\n\n2026-03-02: keep SQLite for the queue\n",
    "goals.md": "# goals.md - long-term goals\n\n1. ship the dashboard\n",
}
PASSWORD = "Vq7#tLm2Rz9!"
FOREIGN = "no MEMORY.md and none of its"
INDEX_AND_BLOCKS = ("missing-index", "no-frontmatter")


def _codes(root: Path, location: ProjectLocation | None = None) -> list[str]:
    found = report(root, "index-drift", "frontmatter", "secrets", location=location)
    return sorted(f.code for f in found.findings)


def test_a_repositorys_folder_with_no_index_and_no_block_gets_no_index_or_block_advice(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    notes = {**NOTES, "tools.md": f"# tools.md\n\nsudo password: `{PASSWORD}`\n"}
    tree = write_tree(repo / "memory", notes)
    location = ProjectLocation("-repo", repo)
    result = report(tree, "index-drift", "frontmatter", "secrets", location=location)
    assert [f.code for f in result.findings] == ["possible-secret"]  # still read for secrets
    reasons = [s.reason for s in result.skipped if FOREIGN in s.reason]
    assert {s.dimension for s in result.skipped if FOREIGN in s.reason} == {
        "index-drift",
        "frontmatter",
    }
    assert "none of its 4 files has frontmatter" in reasons[0]


def test_the_same_folder_indexed_one_folder_up_gets_no_move_the_index_advice(
    tmp_path: Path,
) -> None:
    # <workspace>/AGENTS.md + MEMORY.md + memory/: the root MEMORY.md is that agent's own
    # long-term memory, read where it is; "move ../MEMORY.md into this folder" would break it
    repo = tmp_path / "workspace"
    write_tree(repo, {"AGENTS.md": "Read MEMORY.md at start.\n", "MEMORY.md": "# Memory\n"})
    tree = write_tree(repo / "memory", NOTES)
    assert _codes(tree, ProjectLocation("-workspace", repo)) == []
    # audited alone (no project located), the same
    assert _codes(tree) == []


def test_one_block_or_an_index_keeps_the_folder_claude_codes(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    location = ProjectLocation("-repo", repo)
    one_block = write_tree(repo / "a" / "memory", {**NOTES, "user.md": memory("user")})
    assert "missing-index" in _codes(one_block, location)
    indexed = write_tree(
        repo / "b" / "memory", {**NOTES, "MEMORY.md": "- [Projects](projects.md) — active\n"}
    )
    assert "no-frontmatter" in _codes(indexed, location)


def test_claude_codes_own_folder_and_an_agents_store_keep_both_findings(
    tmp_path: Path, isolated_home: Path
) -> None:
    own = write_tree(isolated_home / ".claude/projects/-work-app/memory", NOTES)
    assert set(INDEX_AND_BLOCKS) <= set(_codes(own))
    # an agent's store: Claude Code loads its MEMORY.md at each of the agent's starts
    repo = tmp_path / "repo"
    store = write_tree(repo / ".claude/agent-memory/reviewer", NOTES)
    location = ProjectLocation("-repo", repo, None, AgentStore("reviewer", "project"))
    assert "missing-index" in _codes(store, location)


def test_a_folder_claude_code_writes_or_may_have_written_keeps_both_findings(
    tmp_path: Path, isolated_home: Path
) -> None:
    repo = tmp_path / "repo"
    location = ProjectLocation("-repo", repo)
    # the folder the project's local settings move its auto memory to: Claude Code's own
    moved = write_tree(repo / "notes" / "memory", NOTES)
    write_tree(
        repo / ".claude",
        {"settings.local.json": json.dumps({"autoMemoryDirectory": str(moved.resolve())})},
    )
    assert set(INDEX_AND_BLOCKS) <= set(_codes(moved, location))
    # a copy laid out as Claude Code's store (another machine's, kept in a repository)
    copy = write_tree(repo / "backup" / "projects" / "-work-app" / "memory", NOTES)
    assert set(INDEX_AND_BLOCKS) <= set(_codes(copy, location))
    # a block in any file (a team note) or a file that could not be read: not all bare
    team = write_tree(repo / "c" / "memory", {**NOTES, "team/rules.md": memory("rules")})
    assert "missing-index" in _codes(team, location)
    big = memory("big", body="x" * (1 << 20))  # past the size read: its block is unknown
    unread = write_tree(repo / "d" / "memory", {**NOTES, "big.md": big})
    assert "missing-index" in _codes(unread, location)


def test_a_folder_whose_index_is_there_in_any_form_is_not_skipped(tmp_path: Path) -> None:
    # MEMORY.md under another case, unreadable, or a folder: the index's own findings
    repo = tmp_path / "repo"
    location = ProjectLocation("-repo", repo)
    lower = write_tree(repo / "a" / "memory", {**NOTES, "memory.md": "- [P](projects.md)\n"})
    assert "missing-index" in _codes(lower, location)
    binary = write_tree(repo / "b" / "memory", {**NOTES, "MEMORY.md": b"\xff\xfe\x00"})
    assert {"not-utf8", "no-frontmatter"} <= set(_codes(binary, location))
    folder = write_tree(repo / "c" / "memory", NOTES)
    (folder / "MEMORY.md").mkdir()
    assert "missing-index" in _codes(folder, location)


def test_the_skip_says_why_in_words_for_one_file(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    tree = write_tree(repo / "memory", {"goals.md": NOTES["goals.md"]})
    result = report(tree, "index-drift", "orphans", location=ProjectLocation("-repo", repo))
    assert result.findings == ()
    reasons = {s.dimension: s.reason for s in result.skipped}
    assert reasons["index-drift"].startswith("no MEMORY.md and its one file has frontmatter")
    assert reasons["orphans"] == "there is no MEMORY.md, so nothing is reachable"
