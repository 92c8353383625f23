"""Index lines that point at a topic file by its name, not a link (issue #25):
``- See `deploy-notes.md` — hook``, ``- `billing.md` — hook``, ``- runbook.md -- hook``.

They are pointers wherever the index is read as pointers: never inline content, never
moved by ``move-to-topic``, their hooks are hooks, and the file they name is indexed and
reached. A line that sends the reader to a document of the project (``See
`docs/INDEX.md` — hook``) is a pointer too. A name no file has, or a name in the middle
of a sentence, changes nothing. They are no duplicate entries: a named line is often a
section's "see the file" next to the file's entry, and a duplicate's fix deletes a line.
"""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.index_budget import Options as BudgetOptions
from memory_audit.checks.index_drift import Options as IndexDriftOptions
from memory_audit.fix.actions import actions, answers_for
from memory_audit.fix.tree_access import Tree
from memory_audit.secrets.rules import bundled_rules
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.location import ProjectLocation
from tests.harness import codes, findings, memory, write_tree

# inline content is looked for in an index of any size (by default, from 10,000 characters)
ANY_SIZE = {"index-budget": BudgetOptions(small_index_chars=0)}

TOPICS = ("deploy-notes.md", "billing_rules.md", "team.md", "runbook.md", "refunds.md")
NAMED_INDEX = (
    "# Index\n"  # 1
    "\n"
    "## Deploys\n"  # 3
    "- See `deploy-notes.md` — how releases go out\n"  # 4
    "- The staging box is rebuilt every night; its disk fills up in about a week.\n"  # 5
    "\n"
    "## Billing\n"  # 7
    "- `billing_rules.md` — invoices are immutable once sent\n"  # 8
    "- **`team.md`** — who owns which service\n"  # 9
    "- runbook.md -- what to do when the queue stalls\n"  # 10
    "- Credit notes are numbered per year, starting at 1.\n"  # 11
    "\n"
    "## Look-alikes\n"  # 13
    "- See `pricing-2024.md` — the old price list\n"  # 14: no such file
    "- Read `refunds.md` before changing the refund window\n"  # 15: a sentence
    "\n"
    "## Support\n"  # 17
    "Refunds go through the support queue, never by hand.\n"  # 18
    "See `refunds.md` for the limits.\n"  # 19
)


def named_tree(root: Path, text: str = NAMED_INDEX) -> Path:
    return write_tree(root, {"MEMORY.md": text, **{name: memory(name[:-3]) for name in TOPICS}})


def test_lines_naming_a_topic_file_are_pointers_not_inline_content(tree_dir: Path) -> None:
    named_tree(tree_dir)
    [inline] = [
        f
        for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
        if f.code == "inline-content"
    ]
    # Only the notes and the look-alikes: a missing file's name, a file named mid-sentence.
    assert inline.message == (
        "5 lines of inline content, not pointers, in 4 blocks: lines 5, 11, 14–15, 18"
    )
    assert inline.fix is not None
    # "## Look-alikes" holds nothing else: its heading moves with its lines
    assert inline.fix["ranges"] == [[5, 5], [11, 11], [13, 15], [18, 18]]


def test_move_to_topic_leaves_every_named_pointer_in_the_index(tree_dir: Path) -> None:
    named_tree(tree_dir)
    [inline] = [
        f
        for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
        if f.code == "inline-content"
    ]
    assert inline.fix is not None
    action = actions(Scanner(bundled_rules(), b"salt"))["move-to-topic"]
    action.build(Tree.open(tree_dir), inline.fix, answers_for(action, inline.fix)).apply()
    kept = (tree_dir / "MEMORY.md").read_text()
    for line in NAMED_INDEX.splitlines():
        if line.startswith(("- See `deploy", "- `billing", "- **`team", "- runbook", "See `")):
            assert line in kept.splitlines(), line
    moved = (tree_dir / "index-notes.md").read_text()
    assert all(text in moved for text in ("pricing-2024.md", "staging box", "Credit notes"))


def test_a_named_pointer_has_a_hook_that_can_be_too_long(tree_dir: Path) -> None:
    # A hook that names another file is still a hook.
    # long enough for the index to pass 10,000 characters, where a long hook costs
    long = "and then the whole story of how releases went out last spring, " * 160 + "`team.md`"
    named_tree(tree_dir, f"# Index\n- See `deploy-notes.md` — {long}\n- `team.md` — owners\n")
    assert codes(findings(tree_dir, "index-budget")) == [("long-hook", "MEMORY.md", 2)]


def test_named_pointers_past_the_cut_off_are_invisible_entries(tree_dir: Path) -> None:
    notes = "".join(f"- Staging fact number {i} about the nightly rebuild.\n" for i in range(205))
    pointers = "- See `refunds.md` — the refund limits\n- runbook.md -- the queue\n"
    named_tree(tree_dir, f"# Index\n{notes}{pointers}See `refunds.md` for the window.\n")
    found = {f.code: f for f in findings(tree_dir, "index-budget")}
    invisible = found["invisible-entry"]
    assert (invisible.line, invisible.related) == (207, ("refunds.md", "runbook.md"))
    assert invisible.message == (  # a file named on two lines is named once
        "3 index entries are past the cut-off (from line 207 on); no session sees them:"
        " `refunds.md`, `runbook.md`"
    )
    assert "3 entries from line 201 on are never seen" in found["over-budget"].message


def test_a_file_named_by_a_pointer_line_is_reached_one_named_mid_sentence_is_not(
    tree_dir: Path,
) -> None:
    text = (
        "# Index\n- runbook.md -- what to do when the queue stalls\n"
        "- Rotate the keys as refunds.md says, every quarter\n"
    )
    write_tree(
        tree_dir,
        {"MEMORY.md": text, "runbook.md": memory("runbook"), "refunds.md": memory("refunds")},
    )
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "refunds.md", None)]


def test_named_pointers_index_their_file_and_are_never_duplicate_entries(
    tree_dir: Path,
) -> None:
    # With a flat index every memory needs its own line: a named one is that line. Named
    # twice (an entry, and a section's "see the file") is no duplicate to delete.
    text = (
        "# Index\n- [Support](support.md) — the queue\n- `refunds.md` — refund limits\n\n"
        "## Escalations\nSee `refunds.md` for the limits.\n"
    )
    hub = memory("support", body="Limits: [refunds](refunds.md).")
    write_tree(tree_dir, {"MEMORY.md": text, "support.md": hub, "refunds.md": memory("refunds")})
    options = {"index-drift": IndexDriftOptions(flat_index=True)}
    assert findings(tree_dir, "index-drift", options=options) == []


def test_a_line_led_by_a_project_documents_path_is_a_pointer_too(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "project", {"docs/INDEX.md": "# Documents\n"})
    text = (
        "# Index\n- See `docs/INDEX.md` — every document of the project\n"
        "- See `docs/ROADMAP.md` — the plan for next year\n"  # no such document
        "- `docs/INDEX.md` is rebuilt by `make docs` on every release\n"  # says, not sends
        "- `refunds.md` — refund limits\n"
    )
    tree = write_tree(project / "memory", {"MEMORY.md": text, "refunds.md": memory("refunds")})
    location = ProjectLocation("-project", project, None)
    [inline] = findings(tree, "index-budget", location=location, options=ANY_SIZE)
    assert (inline.code, inline.line, inline.fix) == (
        "inline-content",
        3,
        {"action": "move-to-topic", "first": 3, "last": 4},
    )


def test_a_line_listing_several_files_by_name_has_no_hook_to_shorten(tree_dir: Path) -> None:
    names = ", ".join(f"`{name}`" for name in TOPICS)
    text = f"# Index\n> See: {names}, and the notes on the nightly rebuild of the staging box\n"
    named_tree(tree_dir, text)
    assert findings(tree_dir, "index-budget") == []


def test_a_heading_linking_two_files_is_no_line_to_split(tree_dir: Path) -> None:
    text = "# Index\n\n## [Auth](auth.md) and [Sessions](sessions.md)\nLogins and cookies.\n"
    write_tree(tree_dir, {"MEMORY.md": text, "auth.md": memory("auth"), "sessions.md": memory("s")})
    found = findings(tree_dir, "index-budget", "orphans", options=ANY_SIZE)
    assert "several-links" not in [f.code for f in found]
    assert "orphan-candidate" not in [f.code for f in found]
