"""`memory-audit review` driven through a real pseudo-terminal."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from tests.harness import memory, write_tree
from tests.support.terminal import Terminal

INDEX = "# Index\n- [A](a.md) — about a\n- [Gone](gone.md) — removed long ago\n- [Style](style.md) — rules\n"


def env_for(home: Path) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("XDG_")},
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "TERM": "dumb",
        "EDITOR": "true",
    }


def review(home: Path, tree: Path, *extra: str) -> Terminal:
    return Terminal(
        [sys.executable, "-m", "memory_audit", "review", str(tree), *extra], env_for(home)
    )


def make_tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": INDEX,
            "a.md": memory("a", body="Invoices are issued in UTC."),
            "ref/style.md": memory("style", body="Answers stay short and show the diff."),
            "orphan.md": memory("orphan", body="The staging database is reset nightly."),
        },
    )


def hashes(tree: Path) -> dict[str, str]:
    return {
        str(p.relative_to(tree)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(tree.rglob("*"))
        if p.is_file()
    }


def test_review_apply_one_skip_one_quit_midway(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    before = hashes(tree)
    term = review(tmp_path / "home", tree)
    proposal = term.expect("[q]uit: ")
    assert "link target `gone.md` doesn't exist" in proposal
    # The one change Apply makes, and its diff, before the question; nothing written yet.
    assert "Apply makes one change: MEMORY.md: removed the index line for `gone.md`" in proposal
    assert "-- [Gone](gone.md) — removed long ago" in proposal
    assert "1. [a]pply  2. [s]kip  3. [e]dit  4. [v]iew detail  [q]uit: " in proposal
    assert hashes(tree) == before
    term.send("1")
    term.expect("Applied:")
    assert "index path `style.md` is stale" in term.expect("[q]uit: ")
    term.send("2")
    term.expect("Remember this dismissal (not reported again)? [y]es / [n]o: ")
    term.send("n")
    assert "orphan.md" in term.expect("[q]uit: ")
    term.send("q")
    summary = term.expect("findings remain.")
    term.expect("Enter to skip): ")
    term.send("the old flaky-test note was deleted months ago")
    assert term.wait() == 0
    assert "Audit complete. 1 applied, 1 skipped, " in summary
    assert (tree / "MEMORY.md").read_bytes() == (
        "# Index\n- [A](a.md) — about a\n- [Style](style.md) — rules\n"
    ).encode()
    after = hashes(tree)
    assert {k: v for k, v in after.items() if k != "MEMORY.md"} == {
        k: v for k, v in before.items() if k != "MEMORY.md"
    }


def test_review_rechecks_when_memory_md_changed_since_the_audit(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    term = review(tmp_path / "home", tree)
    assert "MEMORY.md:3" in term.expect("[q]uit: ")
    changed = "# Index\n<!-- reorganised in another session -->\n" + INDEX.split("\n", 1)[1]
    (tree / "MEMORY.md").write_text(changed)  # another session edits the index meanwhile
    term.send("a")
    recheck = term.expect("[q]uit: ")
    assert "MEMORY.md changed since the audit; checking this finding again." in recheck
    assert "MEMORY.md:4" in recheck  # the same finding, at its new line
    term.send("a")
    term.expect("Applied:")
    term.expect("[q]uit: ")
    term.send("q")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert (tree / "MEMORY.md").read_text() == changed.replace(
        "- [Gone](gone.md) — removed long ago\n", ""
    )


def test_review_ctrl_c_leaves_every_file_untouched(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    before = hashes(tree)
    term = review(tmp_path / "home", tree)
    term.expect("[q]uit: ")
    term.interrupt()
    stopped = term.expect("findings remain.")
    assert "Nothing half-written" in stopped
    assert "Audit complete. 0 applied, 0 skipped, 4 deferred." in stopped  # orphan.md once
    assert term.wait() == 130
    assert hashes(tree) == before


def test_review_edit_then_view_then_dismiss(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    home = tmp_path / "home"
    term = review(home, tree)
    term.expect("[q]uit: ")
    term.send("v")
    assert ">    3 | - [Gone](gone.md) — removed long ago" in term.expect("[q]uit: ")
    term.send("s")
    term.expect("[n]o: ")
    term.send("y")
    term.expect("Reason (one line) [dismissed in review]: ")
    term.send("kept on purpose")
    term.expect("[q]uit: ")  # the stale path: edit the proposed path
    term.send("3")
    term.expect("New path [ref/style.md]: ")
    term.send("ref/style.md")
    term.expect("Apply this change? [y]es / [n]o: ")
    term.send("y")
    term.expect("Applied:")
    term.expect("[q]uit: ")
    term.send("q")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert "- [Style](ref/style.md) — rules" in (tree / "MEMORY.md").read_text()
    second = review(home, tree)
    assert "link target `gone.md`" not in second.expect("[q]uit: ")  # dismissal remembered
    second.send("q")
    assert second.wait() == 0


def test_review_records_the_session_in_the_changelog(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    home = tmp_path / "home"
    term = review(home, tree)
    term.expect("[q]uit: ")
    term.send("a")
    term.expect("[q]uit: ")
    term.send("q")
    term.expect("Enter to skip): ")
    term.send("cleaning up after the migration")
    assert term.wait() == 0
    show = Terminal([sys.executable, "-m", "memory_audit", "changelog", str(tree)], env_for(home))
    text = show.expect("| findings |")
    assert show.wait() == 0
    assert "### Why\ncleaning up after the migration" in text
    assert "- MEMORY.md: removed the index line for `gone.md`" in text
    assert "| index lines | 4 | 3 |" in text


def test_review_manual_fix_opens_the_editor_at_the_line(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — notes about a\n",
            "a.md": memory("a", body="See [[a-note-never-written]] for details."),
        },
    )
    record = tmp_path / "editor-args"
    editor = tmp_path / "editor.sh"
    editor.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\n')
    editor.chmod(0o755)
    env = {**env_for(tmp_path / "home"), "EDITOR": str(editor)}
    term = Terminal([sys.executable, "-m", "memory_audit", "review", str(tree)], env)
    shown = term.expect("[q]uit: ")
    assert "a.md:6" in shown
    assert "(user judgment required)" in shown
    term.send("m")
    assert "0 applied, 0 skipped, 1 deferred" in term.expect("findings remain.")
    assert term.wait() == 0
    assert record.read_text().splitlines() == ["+6", str(tree / "a.md")]


def test_review_edit_of_a_masked_name_acts_on_the_real_file(tmp_path: Path) -> None:
    """A file named by a token is shown masked; Edit's default (the masked line) still
    links the real file once applied, and the token is never on screen."""
    token = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "- [A](a.md) — notes\n",
            "a.md": memory("a", body="Invoices are issued in UTC."),
            f"{token}.md": memory("named", body="The staging database is reset nightly."),
        },
    )
    term = review(tmp_path / "home", tree)
    shown = term.expect("[q]uit: ")
    assert "Orphan files: ghp_...aE7u.md" in shown
    term.send("e")
    term.expect("Index line [")
    term.send("")  # the shown default
    term.expect("Apply this change?")
    term.send("y")
    term.expect("[q]uit: ")
    term.send("q")
    term.expect("Why these changes?")
    term.send("")
    assert term.wait() == 0
    assert f"]({token}.md)" in (tree / "MEMORY.md").read_text()
    assert token not in term.output


def cut_index_tree(root: Path) -> Path:
    """180 memories under 45 headings: 226 index lines, 21 entries past line 200."""
    files: dict[str, str] = {}
    lines = ["# Index"]
    for area in range(45):
        lines.append(f"## Area {area}")
        for part in range(4):
            n = area * 4 + part
            lines.append(f"- [Note {n}](n{n}.md) — when working on area {area} part {part}")
            files[f"n{n}.md"] = memory(f"n{n}", body=f"Area {area} keeps rule {n * 7919 % 10007}.")
    return write_tree(root, {**files, "MEMORY.md": "\n".join(lines) + "\n"})


def test_review_moves_every_entry_past_the_cut_in_one_decision(tmp_path: Path) -> None:
    tree = cut_index_tree(tmp_path / "memory")
    # the cut falls in "## Area 39" (line 197): the section moves whole, heading and all
    hidden = (tree / "MEMORY.md").read_text().splitlines()[196:]
    term = review(tmp_path / "home", tree)
    assert "so 21 entries from line 201 on are never seen" in term.expect("[q]uit: ")
    term.send("s")
    term.expect("[y]es / [n]o: ")
    term.send("n")
    proposal = term.expect("[q]uit: ")
    assert "21 index entries are past the cut-off (from line 201 on)" in proposal
    assert "Apply makes one change: MEMORY.md: moved lines 197–226 into `more-memories.md`" in (
        proposal
    )
    term.send("1")
    term.expect("Applied:")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    index = (tree / "MEMORY.md").read_text().splitlines()
    assert len(index) == 197
    assert index[-2] == "- [Note 155](n155.md) — when working on area 38 part 3"
    assert index[-1].startswith("- [More memories](more-memories.md) — ")
    moved = (tree / "more-memories.md").read_text()
    assert moved.endswith("\n".join(hidden) + "\n")  # every pointer kept, none deleted
