"""The seed's actions for a memory that no longer earns its place (10a), through `review` in
a real pty: demote, trim, archive, delete, each one confirmed decision, journaled and
restorable; and the way to recompress (10b), which is Claude's job."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.e2e.test_review import env_for, review
from tests.e2e.test_review_trusted_fixes import audit_json, codes_of
from tests.harness import memory, write_tree
from tests.support.terminal import Terminal

FINISHED = (
    "Status of the ledger migration:\n- [x] ingest\n- [x] rate\n- [x] render\n"
    "- [ ] send\n- [x] webhooks"
)
MENU = "[q]uit: "


def dead_weight_tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Billing](billing.md) — how invoices are dated\n"
            "- [Ledger](ledger.md) — the ledger migration plan\n",
            "billing.md": memory(
                "billing", body="Invoices are dated in UTC. History: [ledger](ledger.md)."
            ),
            "ledger.md": memory("ledger", description="The ledger migration plan", body=FINISHED),
        },
    )


def finish(term: Terminal) -> str:
    summary = term.expect("findings remain.")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    return summary


def walk_to(term: Terminal, text: str) -> str:
    """Skip (without dismissing) every question until the one that says ``text``."""
    while text not in (shown := term.expect(MENU)):
        term.send("s")
        term.expect("[n]o: ")
        term.send("n")
    return shown


def test_archive_moves_the_file_and_every_link_follows(tmp_path: Path) -> None:
    tree = dead_weight_tree(tmp_path)
    home = tmp_path / "home"
    term = review(home, tree)
    shown = walk_to(term, "mostly finished work")
    assert "1. [t]rim  2. [a]rchive  3. delete [x]  4. [s]kip  5. [v]iew detail" in shown
    term.send("2")
    diff = term.expect("Apply this change? [y]es / [n]o: ")
    assert "archived `ledger.md` to `archive/ledger.md`, 2 file(s) relinked" in diff
    assert "+- [Ledger](archive/ledger.md) — the ledger migration plan" in diff
    term.send("y")
    finish(term)
    assert not (tree / "ledger.md").exists()
    assert "Status of the ledger migration" in (tree / "archive/ledger.md").read_text()
    assert "[ledger](archive/ledger.md)" in (tree / "billing.md").read_text()
    after = codes_of(audit_json(home, tree))
    assert "broken-index-link" not in after
    assert "broken-link" not in after


def test_delete_says_how_to_restore_and_restore_brings_it_back(tmp_path: Path) -> None:
    tree = dead_weight_tree(tmp_path)
    original = (tree / "ledger.md").read_bytes()
    home = tmp_path / "home"
    term = review(home, tree)
    walk_to(term, "mostly finished work")
    term.send("x")
    shown = term.expect("Apply this change? [y]es / [n]o: ")
    assert f"`memory-audit restore {tree / 'ledger.md'}` brings it back" in shown
    assert "--- a/ledger.md" in shown
    assert "+++ /dev/null" in shown
    term.send("y")
    finish(term)
    assert not (tree / "ledger.md").exists()
    assert "ledger" not in (tree / "MEMORY.md").read_text().lower()
    # The journal kept it, though no service ran: restore brings it back.

    restore = Terminal(
        [sys.executable, "-m", "memory_audit", "restore", str(tree / "ledger.md")], env_for(home)
    )
    assert "the file was deleted" in restore.expect("Restore this version?")
    restore.send("y")
    restore.expect("Add these lines back to MEMORY.md?")
    restore.send("y")
    restore.expect("Why restore?")
    restore.send("")
    assert restore.wait() == 0
    assert (tree / "ledger.md").read_bytes() == original


def test_trim_removes_the_picked_lines_after_showing_the_diff(tmp_path: Path) -> None:
    tree = dead_weight_tree(tmp_path)
    home = tmp_path / "home"
    term = review(home, tree)
    walk_to(term, "mostly finished work")
    term.send("t")
    view = term.expect("Lines to remove (like 7-12, 15; Enter: none): ")
    assert "    7 | - [x] ingest" in view
    term.send("1-2")  # the frontmatter is not the body
    assert "is outside the body" in term.expect(MENU)
    term.send("t")
    term.expect("Enter: none): ")
    term.send("7-9, 11")
    diff = term.expect("Apply this change? [y]es / [n]o: ")
    assert "-- [x] ingest" in diff
    assert "-- [x] webhooks" in diff
    assert "- [ ] send" in diff
    assert (tree / "ledger.md").read_text().count("[x]") == 4  # nothing written yet
    term.send("y")
    finish(term)
    text = (tree / "ledger.md").read_text()
    assert "[x]" not in text
    assert "- [ ] send" in text
    assert "finished-work" not in codes_of(audit_json(home, tree))


def test_demote_is_offered_for_an_always_loaded_memory(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Ledger](ledger.md) — the ledger migration plan\n",
            "ledger.md": memory(
                "ledger", description="The ledger migration plan", relevance="always", body=FINISHED
            ),
        },
    )
    home = tmp_path / "home"
    term = review(home, tree)
    shown = walk_to(term, "loads it into every session")
    assert "1. [d]emote  2. [t]rim  3. [a]rchive  4. delete [x]" in shown
    term.send("1")
    term.expect("New relevance (empty: remove the field): ")
    term.send("")  # `relevance` is what makes this tree governed: it stays, with a value
    assert "removing it is a new finding" in walk_to(term, "loads it into every session")
    term.send("d")
    term.expect("New relevance (empty: remove the field): ")
    term.send("the ledger wrap-up")
    diff = term.expect("Apply this change? [y]es / [n]o: ")
    assert "-relevance: always" in diff
    assert "+relevance: the ledger wrap-up" in diff
    term.send("y")
    finish(term)
    assert "relevance: the ledger wrap-up\n" in (tree / "ledger.md").read_text()


def test_a_narrative_body_names_the_way_to_recompress(tmp_path: Path) -> None:
    story = (
        "This session we found that the retry gate was flaky. It turned out that the "
        "webhook handler, which we had rewritten last week while the queue was being "
        "migrated, kept retrying because the idempotency key was dropped when we found "
        "the old header missing, and then it turned out the tests never covered it. "
    ) * 2
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Retry](retry.md) — why webhook retries loop\n",
            "retry.md": memory("retry", description="Why webhook retries loop", body=story),
        },
    )
    term = review(tmp_path / "home", tree)
    shown = walk_to(term, "Recompress")
    assert "run /memory-audit and ask it to recompress retry.md" in shown
    term.send("q")
    term.expect("findings remain.")
    assert term.wait() == 0
