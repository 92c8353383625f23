"""Where a moved project went: the same repository (a commit or the remote the old
sessions printed) or the same folder name, in a newer store; real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

from memory_audit.analysis.moved_projects import moved_into, moved_project
from tests.support.git_repo import Repo
from tests.support.transcripts import write_session


def tool_result(text: str) -> str:
    """A Bash tool's output as Claude Code records it in a user record."""
    content = [{"type": "tool_result", "tool_use_id": "t", "content": text}]
    return json.dumps({"type": "user", "sessionId": "s", "message": {"content": content}})


def stores(tmp_path: Path) -> Path:
    return tmp_path / "home/.claude/projects"


def old_store(tmp_path: Path, *lines: str, name: str = "app") -> Path:
    store = stores(tmp_path) / f"-work-{name}"
    write_session(store, 0, list(lines), cwd=str(tmp_path / "work" / name))
    return store


def new_repo(tmp_path: Path, name: str, number: int = 1) -> tuple[Repo, Path]:
    repo = Repo(tmp_path / "src" / name)
    repo.commit("start", {"README.md": "the app\n"})
    store = stores(tmp_path) / f"-src-{name}"
    write_session(store, number, [], cwd=str(repo.path))
    return repo, store


def test_a_renamed_folder_is_found_by_a_commit_the_old_sessions_printed(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "src/ledger")
    first = repo.commit("start", {"README.md": "x\n"})
    old = old_store(tmp_path, tool_result(f"[main {first[:7]}] start\n 1 file changed"))
    write_session(stores(tmp_path) / "-src-ledger", 1, [], cwd=str(repo.path))
    moved = moved_project(old, stores(tmp_path))
    assert moved is not None
    assert moved.old_path == tmp_path / "work/app"
    [candidate] = moved.candidates
    assert (candidate.slug, candidate.path) == ("-src-ledger", repo.path)
    assert candidate.clues == (f"its commit {first[:10]} is named in the old sessions",)


def test_a_renamed_folder_is_found_by_its_remote(tmp_path: Path) -> None:
    old = old_store(tmp_path, tool_result("To github.com:me/Ledger.git\n   abc..def  main -> main"))
    repo, _ = new_repo(tmp_path, "books")
    repo.git("remote", "add", "origin", "https://github.com/me/ledger.git")
    moved = moved_project(old, stores(tmp_path))
    assert moved is not None
    assert [c.clues for c in moved.candidates] == [
        ("its git remote github.com/me/ledger is named in the old sessions",)
    ]


def test_a_moved_parent_keeps_the_folder_name(tmp_path: Path) -> None:
    old = old_store(tmp_path)
    new = tmp_path / "elsewhere/app"
    new.mkdir(parents=True)
    write_session(stores(tmp_path) / "-elsewhere-app", 1, [], cwd=str(new))
    moved = moved_project(old, stores(tmp_path))
    assert moved is not None
    assert [(c.slug, c.clues) for c in moved.candidates] == [
        ("-elsewhere-app", ("a folder of the same name",))
    ]


def test_no_clue_no_candidate_and_uuid_groups_are_not_commits(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "src/other")
    head = repo.commit("start", {"README.md": "x\n"})
    # A UUID whose first group is the commit's first 8 characters, and an all-digit token.
    uuid = f"{head[:8]}-1234-4abc-8def-0123456789ab"
    old = old_store(tmp_path, tool_result(f"session {uuid} 12345678 done"))
    write_session(stores(tmp_path) / "-src-other", 1, [], cwd=str(repo.path))
    moved = moved_project(old, stores(tmp_path))
    assert moved is not None
    assert moved.candidates == ()


def test_an_older_store_is_not_where_the_project_went(tmp_path: Path) -> None:
    new = tmp_path / "elsewhere/app"
    new.mkdir(parents=True)
    write_session(stores(tmp_path) / "-elsewhere-app", 0, [], cwd=str(new))
    old = stores(tmp_path) / "-work-app"
    write_session(old, 1, [], cwd=str(tmp_path / "work/app"))
    moved = moved_project(old, stores(tmp_path))
    assert moved is not None
    assert moved.candidates == ()


def test_two_stores_claiming_the_project_are_both_named(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "src/app")
    first = repo.commit("start", {"README.md": "x\n"})
    old = old_store(tmp_path, tool_result(f"commit {first}\nAuthor: t"))
    write_session(stores(tmp_path) / "-src-app", 1, [], cwd=str(repo.path))
    other = tmp_path / "tmp/app"
    other.mkdir(parents=True)
    write_session(stores(tmp_path) / "-tmp-app", 2, [], cwd=str(other))
    moved = moved_project(old, stores(tmp_path))
    assert moved is not None
    assert [(c.slug, len(c.clues)) for c in moved.candidates] == [("-src-app", 2), ("-tmp-app", 1)]


def test_a_project_that_still_exists_is_not_moved(tmp_path: Path) -> None:
    here = tmp_path / "work/app"
    here.mkdir(parents=True)
    store = stores(tmp_path) / "-work-app"
    write_session(store, 0, [], cwd=str(here))
    assert moved_project(store, stores(tmp_path)) is None


def test_moved_into_accepts_only_a_store_folder_beside(tmp_path: Path) -> None:
    projects = stores(tmp_path)
    (projects / "-a").mkdir(parents=True)
    (projects / "link").symlink_to(projects / "-a")
    assert moved_into(projects, "-a") == projects / "-a/memory"
    assert [moved_into(projects, s) for s in ("..", "-a/memory", "link", "-none", "")] == [None] * 5


def test_what_the_old_sessions_name_is_read_again_when_a_transcript_changes(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "src/ledger")
    first = repo.commit("start", {"README.md": "x\n"})
    old = old_store(tmp_path, tool_result("nothing about git yet"))
    write_session(stores(tmp_path) / "-src-ledger", 2, [], cwd=str(repo.path))
    assert moved_project(old, stores(tmp_path)).candidates == ()  # type: ignore[union-attr]
    write_session(old, 1, [tool_result(f"[main {first[:8]}] start\n 1 file changed")],
                  cwd=str(tmp_path / "work/app"))  # fmt: skip
    moved = moved_project(old, stores(tmp_path))
    assert moved is not None
    assert [c.slug for c in moved.candidates] == ["-src-ledger"]
