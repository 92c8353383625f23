"""Deciding once for a named set (issue 26): "apply to all N" for one code in one tree,
through `review` in a real pty."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_review import review
from tests.e2e.test_review_trusted_fixes import audit_json, codes_of
from tests.harness import memory, write_tree


def recaps(tmp_path: Path, count: int) -> Path:
    """``count`` session recaps typed `project`: one `recap-type` finding each, one file each."""
    files = {"MEMORY.md": "# Index\n"}
    for n in range(count):
        files[f"sessions/2026-10-{n % 28 + 1:02d}-talk-{n:03d}.md"] = memory(
            f"talk-{n:03d}", body=f"We agreed on point {n} of the plan."
        )
    return write_tree(tmp_path / "memory", files)


def test_apply_to_all_dead_links_lists_asks_once_and_applies_each(tmp_path: Path) -> None:
    """191 dead links were 191 prompts; here three, decided once."""
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — about a\n"
            + "".join(
                f"- [Gone {n}](gone{n}.md) — removed with the old service\n" for n in range(3)
            ),
            "a.md": memory("a", body="Invoices are issued in UTC."),
        },
    )
    home = tmp_path / "home"
    term = review(home, tree)
    shown = term.expect("[q]uit: ")
    assert "5. apply to all 3 [all]" in shown
    term.send("5")
    listing = term.expect("Apply all 3? [y]es / [n]o: ")
    for n in range(3):
        assert f"MEMORY.md: removed the index line for `gone{n}.md`" in listing
        assert f"-- [Gone {n}](gone{n}.md) — removed with the old service" in listing
    assert (tree / "MEMORY.md").read_text().count("gone") == 3  # nothing written yet
    term.send("y")
    done = term.expect("findings remain.")
    for n in range(3):
        assert "/3 MEMORY.md:" in done
        assert f"applied: MEMORY.md: removed the index line for `gone{n}.md`" in done
    assert "3 applied, 0 skipped, 0 deferred." in done
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert (tree / "MEMORY.md").read_text() == "# Index\n- [A](a.md) — about a\n"
    assert "broken-index-link" not in codes_of(audit_json(home, tree))


def test_a_target_changed_between_the_listing_and_the_yes_is_skipped(tmp_path: Path) -> None:
    tree = recaps(tmp_path, 3)
    changed = sorted((tree / "sessions").iterdir())[1]
    term = review(tmp_path / "home", tree)
    assert "apply to all 3" in term.expect("[q]uit: ")
    term.send("all")
    term.expect("Apply all 3? [y]es / [n]o: ")
    someone_else = changed.read_text().replace("point 1 ", "point one ")
    changed.write_text(someone_else)
    term.send("y")
    done = term.expect("findings remain.")
    assert f"skipped: sessions/{changed.name} changed on disk since the listing" in done
    assert "2 applied, 0 skipped, 1 deferred." in done
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert changed.read_text() == someone_else
    others = [p for p in (tree / "sessions").iterdir() if p != changed]
    assert all("type: session-recap" in p.read_text() for p in others)


def test_ctrl_c_in_the_middle_records_what_was_applied_and_leaves_the_rest(
    tmp_path: Path,
) -> None:
    # enough targets that the interrupt lands while they are written, on a fast machine
    # too (at 120 a quiet run could write them all before the signal arrived)
    count = 400
    tree = recaps(tmp_path, count)
    home = tmp_path / "home"
    term = review(home, tree)
    term.expect("[q]uit: ")
    term.send("all")
    while "Apply all" not in (page := term.expect(": ")):
        if "Enter for more" in page:
            term.send("s")  # stop the listing: the question comes
    term.send("y")
    term.expect(f"1/{count} ")
    term.interrupt()
    assert term.wait() == 130
    written = [p for p in (tree / "sessions").iterdir() if "session-recap" in p.read_text()]
    assert 1 <= len(written) < count
    untouched = [p for p in (tree / "sessions").iterdir() if p not in written]
    assert all("type: project" in p.read_text() for p in untouched)
    # What was applied is recorded: one changelog line per file written, and no other.
    [log] = (home / ".local/state/memory-audit/changelog").glob("*.md")
    text = log.read_text()
    assert all(p.name in text for p in written)
    assert not any(p.name in text for p in untouched)
