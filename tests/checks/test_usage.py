from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, findings, memory, report, write_tree
from tests.support.transcripts import nested_memory, read_call, relevant_memories, write_session

RULE = "Integration tests must hit a real Postgres database started from compose, never mocks."
OTHER = "Invoices are rounded per line item, then summed; the total is never rounded again."


def tree_with(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path, ProjectLocation]:
    store = tmp_path / "projects" / "-p"
    root = write_tree(store / "memory", files)
    project = tmp_path / "app"
    project.mkdir()
    return root, store, ProjectLocation("-p", project, store)


def test_usage_unused_and_said_in_claude_md_is_dead_weight(tmp_path: Path) -> None:
    root, store, location = tree_with(
        tmp_path,
        {"tests.md": memory("tests", body=RULE), "billing.md": memory("billing", body=OTHER),
         "used.md": memory("used")},
    )  # fmt: skip
    assert location.project_path is not None
    (location.project_path / "CLAUDE.md").write_text(f"# Rules\n\n{RULE}\n")
    for number in range(3):
        write_session(store, number, [read_call(root / "used.md")])
    found = {f.code: f for f in findings(root, "usage", location=location)}
    assert sorted((f.code, f.path) for f in found.values()) == [
        ("dead-weight", "tests.md"),
        ("unused-memories", "MEMORY.md"),
    ]
    assert "CLAUDE.md" in found["dead-weight"].message
    assert found["unused-memories"].related == ("billing.md",)
    assert found["unused-memories"].message.startswith("1 memory not used in the last 3 sessions")


def test_usage_a_memory_attached_or_recalled_is_used(tmp_path: Path) -> None:
    root, store, location = tree_with(
        tmp_path, {"a.md": memory("a", body=RULE), "b.md": memory("b", body=RULE)}
    )
    write_session(store, 0, [nested_memory(root / "a.md")])
    write_session(store, 1, [relevant_memories(root / "b.md")])
    write_session(store, 2, [])
    assert findings(root, "usage", location=location) == []


def test_usage_another_used_memory_saying_the_same_makes_it_dead_weight(tmp_path: Path) -> None:
    root, store, location = tree_with(
        tmp_path, {"old.md": memory("old", body=RULE), "new.md": memory("new", body=RULE + " Yes.")}
    )
    for number in range(3):
        write_session(store, number, [read_call(root / "new.md")])
    [found] = findings(root, "usage", location=location)
    assert (found.code, found.path) == ("dead-weight", "old.md")
    assert "`new.md`" in found.message


def test_usage_only_the_last_sessions_count_and_too_few_is_a_skip(tmp_path: Path) -> None:
    root, store, location = tree_with(tmp_path, {"a.md": memory("a", body=OTHER)})
    write_session(store, 0, [read_call(root / "a.md")])
    write_session(store, 1, [])
    result = report(root, "usage", location=location)
    assert [s.reason for s in result.skipped] == ["needs 3 sessions, found 2"]
    write_session(store, 2, [])
    write_session(store, 3, [])
    assert codes(findings(root, "usage", location=location)) == [
        ("unused-memories", "MEMORY.md", None)
    ]


def test_usage_a_store_whose_project_moved_names_where_it_went(tmp_path: Path) -> None:
    projects = tmp_path / "home/.claude/projects"
    old_store = projects / "-work-oldparent-app"
    root = write_tree(old_store / "memory", {"a.md": memory("a")})
    new_project = tmp_path / "work/newparent/app"
    new_project.mkdir(parents=True)
    write_session(old_store, 0, [], cwd=str(tmp_path / "work/oldparent/app"))
    write_session(projects / "-work-newparent-app", 1, [], cwd=str(new_project))
    location = ProjectLocation("-work-oldparent-app", None, old_store)
    import os

    os.environ["CLAUDE_CONFIG_DIR"] = str(tmp_path / "home/.claude")
    try:
        found = [
            f for f in findings(root, "usage", location=location) if f.code == "orphaned-store"
        ]
    finally:
        del os.environ["CLAUDE_CONFIG_DIR"]
    [orphan] = found
    assert "no longer exists; sessions now run in" in orphan.message  # paths quoted, bounded
    assert "a folder of the same name" in orphan.message
    assert orphan.related == ("-work-newparent-app",)
    assert orphan.fix == {"action": "move-store", "into": ["-work-newparent-app"]}
    assert not orphan.judgment  # one place it went: review offers the move


def test_usage_two_stores_claiming_a_moved_project_is_a_judgment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    projects = tmp_path / "home/.claude/projects"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "home/.claude"))
    old_store = projects / "-work-app"
    root = write_tree(old_store / "memory", {"a.md": memory("a")})
    write_session(old_store, 0, [], cwd=str(tmp_path / "work/app"))
    for number, parent in enumerate(("src", "tmp"), 1):
        (tmp_path / parent / "app").mkdir(parents=True)
        write_session(projects / f"-{parent}-app", number, [], cwd=str(tmp_path / parent / "app"))
    location = ProjectLocation("-work-app", None, old_store)
    [orphan] = [f for f in findings(root, "usage", location=location) if f.code == "orphaned-store"]
    assert orphan.judgment  # no automatic choice: review asks which
    assert "2 stores may hold it" in orphan.message
    assert orphan.fix == {"action": "move-store", "into": ["-src-app", "-tmp-app"]}


def test_usage_a_store_whose_project_exists_is_not_orphaned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "home/.claude"))
    store = tmp_path / "home/.claude/projects/-work-app"
    root = write_tree(store / "memory", {"a.md": memory("a")})
    (tmp_path / "work/app").mkdir(parents=True)
    write_session(store, 0, [], cwd=str(tmp_path / "work/app"))
    location = ProjectLocation("-work-app", tmp_path / "work/app", store)
    assert [
        f for f in findings(root, "usage", location=location) if f.code == "orphaned-store"
    ] == []
