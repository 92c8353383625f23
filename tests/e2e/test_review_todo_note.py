"""A coverage gap in `memory-audit review`, in a real pseudo-terminal: a TODO note is
written only when the user confirms, through the tree guard, and the changelog has it."""

from __future__ import annotations

import sys
from pathlib import Path

from memory_audit.tree.slugs import slugify
from tests.e2e.test_review import env_for, hashes, review
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal
from tests.support.transcripts import tool_call, write_session


def store_with_a_gap(tmp_path: Path) -> tuple[Path, Path]:
    """(home, tree): five sessions edited src/billing/ of a project no memory mentions."""
    home = tmp_path / "home"
    project = tmp_path / "src/app"
    project.mkdir(parents=True)
    store = home / ".claude/projects" / slugify(project)
    edit = tool_call("Edit", {"file_path": str(project / "src/billing/invoice.py")})
    for number in range(5):
        write_session(store, number, [edit], cwd=str(project))
    tree = write_tree(
        store / "memory",
        {
            "MEMORY.md": index("deploys.md"),
            "deploys.md": memory("deploys", body="Deploys on merge."),
        },
    )
    return home, tree


def test_review_captures_a_coverage_gap_as_a_todo_note(tmp_path: Path) -> None:
    home, tree = store_with_a_gap(tmp_path)
    before = hashes(tree)
    term = review(home, tree)
    proposal = term.expect("[q]uit: ")
    assert "sessions worked in `src/billing/` in 5 of the last 5 sessions" in proposal
    assert "Apply makes one change: wrote the TODO note `project_src-billing.md`" in proposal
    assert "+++ b/project_src-billing.md" in proposal
    assert "+- [src/billing/](project_src-billing.md) — TODO: what a session" in proposal
    assert hashes(tree) == before  # shown, not written
    term.send("3")  # edit: another file name, the proposed description
    term.expect("Note file [project_src-billing.md]: ")
    term.send("billing.md")
    term.expect("Its description [TODO: what a session should know before working in ")
    term.send("")
    term.expect("Apply this change? [y]es / [n]o: ")
    term.send("y")
    term.expect("Applied:")
    term.expect("Enter to skip): ")  # the note names src/billing/: the gap is resolved
    term.send("")
    assert term.wait() == 0
    note = (tree / "billing.md").read_text()
    assert note.startswith("---\n")
    assert "name: billing\n" in note
    assert "description: 'TODO: what a session should know before working in src/billing/'" in note
    assert "type: project\n" in note
    assert "TODO: sessions keep working in `src/billing/`" in note
    assert (tree / "MEMORY.md").read_text().splitlines()[-1] == (
        "- [src/billing/](billing.md) — TODO: what a session should know before working in "
        "src/billing/"
    )
    changelog = Terminal(
        [sys.executable, "-m", "memory_audit", "changelog", str(tree)], env_for(home)
    )
    assert "- wrote the TODO note `billing.md` for `src/billing/` and its MEMORY.md line" in (
        changelog.expect("| findings |")
    )
    assert changelog.wait() == 0


def test_review_skipping_a_coverage_gap_writes_nothing(tmp_path: Path) -> None:
    home, tree = store_with_a_gap(tmp_path)
    before = hashes(tree)
    term = review(home, tree)
    term.expect("[q]uit: ")
    term.send("2")
    term.expect("[n]o: ")
    term.send("n")
    assert term.wait() == 0
    assert hashes(tree) == before
