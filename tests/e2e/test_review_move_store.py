"""A project folder renamed between two sessions: the audit finds the orphaned store and
`memory-audit review`, in a real pseudo-terminal, moves it step by step (issue 16)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.e2e.test_review import env_for, hashes
from tests.harness import memory, write_tree
from tests.support.git_repo import Repo
from tests.support.terminal import Terminal
from tests.support.transcripts import write_session

OLD_INDEX = (
    "# Index\n- [Billing](billing.md) — invoice rules\n- [Tests](tests.md) — how we test\n"
    "- [Shared](shared.md) — encoding\n"
)
NEW_INDEX = "# Index\n- [Tests](tests.md) — unit tests\n- [Shared](shared.md) — encoding\n"
BILLING = memory("billing", body="Invoices are rounded per line item, then summed.")
OLD_TESTS = memory("tests", body="Integration tests hit a real Postgres from compose.")
NEW_TESTS = memory("tests", body="Unit tests run in under a second each.")
SHARED = memory("shared", body="Every API answer is UTF-8 encoded JSON.")
MOVE = "1. [a]pply (move step by step)  2. [s]kip  3. [v]iew detail  [q]uit: "


def tool_result(text: str) -> str:
    content = [{"type": "tool_result", "tool_use_id": "t", "content": text}]
    return json.dumps({"type": "user", "sessionId": "s", "message": {"content": content}})


def renamed_project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """~/work/ledger renamed to ~/src/books between two sessions: (home, old tree, new tree)."""
    home = tmp_path / "home"
    projects = home / ".claude/projects"
    repo = Repo(tmp_path / "src/books")
    first = repo.commit("start", {"README.md": "books\n"})
    old_store = projects / "-work-ledger"
    write_session(
        old_store, 0, [tool_result(f"[main {first[:7]}] start\n 1 file changed")],
        cwd=str(tmp_path / "work/ledger"),
    )  # fmt: skip
    write_session(projects / "-src-books", 1, [], cwd=str(repo.path))
    old = write_tree(
        old_store / "memory",
        {"MEMORY.md": OLD_INDEX, "billing.md": BILLING, "tests.md": OLD_TESTS, "shared.md": SHARED},
    )
    new = write_tree(
        projects / "-src-books/memory",
        {"MEMORY.md": NEW_INDEX, "tests.md": NEW_TESTS, "shared.md": SHARED},
    )
    return home, old, new


def review(home: Path, tree: Path) -> Terminal:
    return Terminal([sys.executable, "-m", "memory_audit", "review", str(tree)], env_for(home))


def changelogs(home: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(home.rglob("changelog/*.md"))}


def test_review_moves_a_renamed_projects_store_keeping_the_old_one_in_trash(
    tmp_path: Path,
) -> None:
    home, old, new = renamed_project(tmp_path)
    old_files = hashes(old)
    term = review(home, old)
    shown = term.expect(MOVE)
    assert "[1/2] Dead weight by usage: MEMORY.md" in shown  # asked first: the rest moves with it
    # a long path is cut in its middle (at 80 characters): its tail names the folder
    assert "/work/ledger` no longer exists; sessions now run in `" in shown
    assert "/src/books` (store `-src-books`" in shown
    assert "its commit" in shown  # the clue: the same repository
    term.send("1")
    step = term.expect("Copy them? [y]es / [n]o: ")
    assert "billing.md\n" in step
    assert "tests.md as tests-moved.md (a different tests.md is there)" in step
    assert "Already there, the same: shared.md" in step
    term.send("y")
    step = term.expect("Merge them? [y]es / [n]o: ")
    assert "+- [Billing](billing.md) — invoice rules" in step
    assert "+- [Tests](tests-moved.md) — how we test" in step
    term.send("y")
    step = term.expect("Move it? [y]es / [n]o: ")
    assert f"to {old.parent}/.trash/memory" in step
    term.send("y")
    summary = term.expect("Enter to skip): ")
    assert "Moved. The old store is in" in summary
    assert "1 applied, 0 skipped, 0 deferred (1 already resolved by an earlier fix)" in summary
    assert f"review it there with memory-audit review {new}" in summary
    term.send("the ledger folder was renamed books")
    assert term.wait() == 0

    assert (new / "billing.md").read_text() == BILLING
    assert (new / "tests.md").read_text() == NEW_TESTS  # never overwritten
    assert (new / "tests-moved.md").read_text() == OLD_TESTS
    assert (new / "MEMORY.md").read_text() == NEW_INDEX + (
        "- [Billing](billing.md) — invoice rules\n- [Tests](tests-moved.md) — how we test\n"
    )
    assert not old.exists()
    assert hashes(old.parent / ".trash/memory") == old_files  # the old store, whole
    logs = changelogs(home)
    assert len(logs) == 2  # the old tree's and the new tree's
    for text in logs.values():
        assert "copied `billing.md`, `tests.md` as `tests-moved.md`" in text
        assert "MEMORY.md: merged 2 entries" in text
        assert f"is now {old.parent}/.trash/memory" in text
        assert "the ledger folder was renamed books" in text

    # The audit no longer reports the old store, and nothing of .trash in the new one.
    audit = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", "--all", "--format", "json"],
        env=env_for(home), capture_output=True, text=True, check=False,
    )  # fmt: skip
    roots = [r["root"] for r in json.loads(audit.stdout)["reports"]]
    assert roots == [str(new)]


def test_a_no_at_the_first_step_leaves_everything_as_it_was(tmp_path: Path) -> None:
    home, old, new = renamed_project(tmp_path)
    before = (hashes(old), hashes(new))
    term = review(home, old)
    term.expect(MOVE)
    term.send("a")
    term.expect("Copy them? [y]es / [n]o: ")
    term.send("n")
    assert "Stopped here: nothing more is changed; the old store is kept." in term.expect(
        "[q]uit: "  # the tree's next finding
    )
    term.send("q")
    assert "0 applied, 1 skipped, 1 deferred." in term.expect("findings remain.")
    assert term.wait() == 0
    assert (hashes(old), hashes(new)) == before
    assert changelogs(home) == {}


def test_a_no_at_the_trash_step_keeps_the_old_store_and_records_the_rest(
    tmp_path: Path,
) -> None:
    home, old, new = renamed_project(tmp_path)
    old_files = hashes(old)
    term = review(home, old)
    term.expect(MOVE)
    term.send("a")
    for question in ("Copy them?", "Merge them?"):
        term.expect(f"{question} [y]es / [n]o: ")
        term.send("y")
    term.expect("Move it? [y]es / [n]o: ")
    term.send("n")
    term.expect("[q]uit: ")
    term.send("q")
    summary = term.expect("Enter to skip): ")
    assert "1 applied, 0 skipped, 1 deferred." in summary
    assert "Memory tree: 2 findings remain." in summary  # still orphaned: asked again later
    term.send("")
    assert term.wait() == 0
    assert hashes(old) == old_files
    assert not (old.parent / ".trash").exists()
    assert (new / "billing.md").read_text() == BILLING
    [log] = [t for name, t in changelogs(home).items() if "work-ledger" in name]
    assert "copied `billing.md`" in log
    assert ".trash" not in log


def test_two_stores_claiming_the_project_the_user_picks_one(tmp_path: Path) -> None:
    home, old, new = renamed_project(tmp_path)
    other = tmp_path / "tmp/ledger"  # same folder name as the old one: a second claimant
    other.mkdir(parents=True)
    write_session(home / ".claude/projects/-tmp-ledger", 2, [], cwd=str(other))
    other_files = hashes(home / ".claude/projects/-tmp-ledger")
    term = review(home, old)
    shown = term.expect("[s]kip / [v]iew detail / [q]uit: ")
    assert "2 stores may hold it" in shown
    assert "1. -src-books" in shown
    assert "2. -tmp-ledger" in shown
    term.send("1")
    for question in ("Copy them?", "Merge them?", "Move it?"):
        term.expect(f"{question} [y]es / [n]o: ")
        term.send("y")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert (new / "billing.md").read_text() == BILLING
    assert hashes(home / ".claude/projects/-tmp-ledger") == other_files  # not chosen: untouched
    assert (old.parent / ".trash/memory/billing.md").read_text() == BILLING


def test_ctrl_c_between_steps_keeps_and_records_the_steps_done(tmp_path: Path) -> None:
    home, old, new = renamed_project(tmp_path)
    old_files = hashes(old)
    term = review(home, old)
    term.expect(MOVE)
    term.send("a")
    term.expect("Copy them? [y]es / [n]o: ")
    term.send("y")
    term.expect("Merge them? [y]es / [n]o: ")
    term.interrupt()
    summary = term.expect("findings remain.")
    assert "0 applied, 0 skipped, 2 deferred." in summary  # the move is not done
    assert term.wait() == 130
    assert (new / "billing.md").read_text() == BILLING  # step 1 stays
    assert (new / "MEMORY.md").read_text() == NEW_INDEX  # step 2 never happened
    assert hashes(old) == old_files
    [log] = [t for name, t in changelogs(home).items() if "work-ledger" in name]
    assert "copied `billing.md`, `tests.md` as `tests-moved.md`" in log
    assert "(not given)" in log
