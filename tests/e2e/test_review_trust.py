"""A review you can trust, through a real pseudo-terminal: what Apply does is said and shown
before the question, resolved findings are not asked, a stop records what was done, a
failed write ends one fix and the session goes on, and the counts add up."""

from __future__ import annotations

import hashlib
import shlex
import sys
from pathlib import Path

from memory_audit.fix.changelog import changelog_path
from tests.e2e.test_review import env_for, review
from tests.harness import memory, write_tree
from tests.support.terminal import Terminal

# Over the index's 150-character hook budget, in an index past 10,000 characters (where a
# long hook costs); an entry that records its note removed, so the dead link's fix removes it.
LONG_HOOK = "removed: notes about the old flaky tests " * 250


def changelog_text(home: Path, tree: Path) -> str:
    return changelog_path(home / ".local/state/memory-audit/changelog", tree).read_text()


def test_a_finding_an_earlier_fix_resolved_is_not_asked_and_the_counts_add_up(
    tmp_path: Path,
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": f"# Index\n- [A](a.md) — about a\n- [Gone](gone.md) — {LONG_HOOK}\n",
            "a.md": memory("a"),
            "b.md": memory("b"),
            "c.md": memory("c"),  # b and c: unreachable, one orphan finding each
        },
    )
    home = tmp_path / "home"
    term = review(home, tree)
    first = term.expect("[q]uit: ")
    assert "[1/4] MEMORY.md index drift: MEMORY.md:3" in first
    term.send("a")
    term.expect("Applied:")
    for number in (2, 3):
        assert f"[{number}/4]" in term.expect("[q]uit: ")
        term.send("s")
        term.expect("[n]o: ")
        term.send("n")
    # [4/4], the long hook of the line the first fix removed, is not asked.
    summary = term.expect("findings remain.")
    assert "[4/4]" not in term.output
    assert (
        "Audit complete. 1 applied, 2 skipped, 0 deferred (1 already resolved by an earlier "
        "fix). Memory tree: 2 findings remain." in summary
    )
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0


def test_ctrl_c_after_a_fix_records_it_in_the_changelog_and_exits_130(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Gone](gone.md) — x\n- [Lost](lost.md) — y\n"
            "- [Kept](kept.md) — z\n",
            "kept.md": memory("kept"),
        },
    )
    home = tmp_path / "home"
    term = review(home, tree)
    term.expect("[q]uit: ")
    term.send("1")
    term.expect("Applied:")
    term.expect("[q]uit: ")
    term.interrupt()
    stopped = term.expect("findings remain.")
    assert "Audit complete. 1 applied, 0 skipped, 4 deferred." in stopped  # 5 findings
    assert term.wait() == 130
    assert "Why these changes?" not in term.output  # stopped means stopped
    text = changelog_text(home, tree)
    assert "- MEMORY.md: removed the index line for `gone.md`" in text
    assert "### Why\n(not given)" in text


def test_a_terminal_closed_at_the_why_question_still_records_the_fixes(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": "# Index\n- [Gone](gone.md) — x\n"})
    home = tmp_path / "home"
    term = review(home, tree)
    term.expect("[q]uit: ")
    term.send("a")
    term.expect("Enter to skip): ")
    assert term.hang_up() == 130
    text = changelog_text(home, tree)
    assert "- MEMORY.md: removed the index line for `gone.md`" in text
    assert "### Why\n(not given)" in text
    assert "| index lines | 2 | 1 |" in text


def test_a_failed_write_ends_that_fix_only_and_the_file_is_unchanged(tmp_path: Path) -> None:
    big = "Plain notes without frontmatter.\n" + ("word " * 15 + "\n") * 4000  # ~300 KB
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Big](big.md) — big notes\n- [Gone](gone.md) — x\n",
            "big.md": big,
        },
    )
    before = hashlib.sha256((tree / "big.md").read_bytes()).hexdigest()
    command = shlex.join([sys.executable, "-m", "memory_audit", "review", str(tree)])
    # Files may grow to 200 KiB: the state and the index fit, rewriting big.md does not.
    term = Terminal(["bash", "-c", f"ulimit -f 200; exec {command}"], env_for(tmp_path / "home"))
    term.expect("[q]uit: ")  # the dead link: removing it is a small write
    term.send("a")
    term.expect("Applied:")
    assert "Apply makes one change: big.md: added frontmatter" in term.expect("[q]uit: ")
    term.send("a")
    failed = term.expect("[q]uit: ")  # the session goes on to the next finding
    assert "Could not write big.md: File too large. The file is unchanged" in failed
    term.send("s")
    term.expect("[n]o: ")
    term.send("y")
    term.expect("Reason (one line) [dismissed in review]: ")
    term.send("big on purpose")
    remaining = term.expect("findings remain.")
    assert "Audit complete. 1 applied, 1 skipped, " in remaining
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert hashlib.sha256((tree / "big.md").read_bytes()).hexdigest() == before
    assert not [p.name for p in tree.iterdir() if p.name.endswith(".tmp")]
    assert "gone.md" not in (tree / "MEMORY.md").read_text()
    again = review(tmp_path / "home", tree)
    again.expect("[q]uit: ")
    again.send("q")
    again.wait()
    assert "long-file" not in again.output
    assert "big.md is 4,001 lines" not in again.output  # the dismissal was kept


def test_a_file_that_is_not_utf8_cannot_be_fixed_and_the_session_goes_on(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": b"# Index caf\xe9\n- [Gone](gone.md) - x\n- [A](a.md) - a\n"},
    )
    write_tree(tree, {"notes.md": memory("notes")})
    term = review(tmp_path / "home", tree)
    first = term.expect("[q]uit: ")
    # the index's own bytes come first, for the user's judgment
    assert "MEMORY.md:1" in first
    assert "invalid UTF-8 byte 0xe9" in first
    term.send("s")
    term.expect("[y]es / [n]o: ")  # dismiss it for good? no: only skip it now
    term.send("n")
    second = term.expect("[q]uit: ")
    assert "Could not write MEMORY.md: UnicodeDecodeError" in second  # stated, not asked
    term.send("q")
    summary = term.expect("findings remain.")
    assert "0 applied" in summary
    term_code = term.wait()
    assert term_code == 0


def test_judgment_findings_take_numbers_too(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — notes about a\n",
            "a.md": memory("a", body="See [[a-note-never-written]] for details."),
        },
    )
    term = review(tmp_path / "home", tree)
    question = term.expect("[q]uit: ")
    assert "1. [s]kip  2. [m]anual fix  3. capture as TODO [t]  4. [v]iew detail" in question
    term.send("4")
    assert ">    6 | See [[a-note-never-written]] for details." in term.expect("[q]uit: ")
    term.send("3")
    captured = term.expect("findings remain.")
    # Where it goes is said at capture, and the file is there at the end.
    assert "  Captured as a TODO in " in captured
    term.expect("TODOs captured: ")
    listed = Path(term.expect(".md").strip())
    assert term.wait() == 0
    assert f"Captured as a TODO in {listed} (written when the review ends)." in captured
    assert "a-note-never-written" in listed.read_text(encoding="utf-8")
