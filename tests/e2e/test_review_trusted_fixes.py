"""Fixes you can trust (issue 26), through `memory-audit review` in a real pty: what the
summary says was done was done, dismissals stay in their tree, the small prompts."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.e2e.test_review import env_for, review
from tests.harness import memory, write_tree

X_LINE = "- [X](x.md) — the x notes\n"


def audit_json(home: Path, tree: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", str(tree), "--format", "json"],
        env=env_for(home),
        capture_output=True,
        text=True,
        check=False,
    )
    report: dict[str, object] = json.loads(done.stdout)["reports"][0]
    return report


def codes_of(report: dict[str, object]) -> list[str]:
    return [str(f["code"]) for f in report["findings"]]  # type: ignore[attr-defined]


def test_a_file_indexed_three_times_is_fixed_as_the_summary_says(tmp_path: Path) -> None:
    """A dead link above, then one file on three identical index lines: the dead link's
    fix shifts the lines, the first duplicate's fix takes its sibling's fingerprint away;
    the second duplicate is still asked, and the summary counts what really happened."""
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Gone](gone.md) — removed\n" + X_LINE * 3,
            "x.md": memory("x", body="The x service restarts at midnight."),
        },
    )
    home = tmp_path / "home"
    term = review(home, tree)
    assert "gone.md" in term.expect("[q]uit: ")
    term.send("1")
    assert "also indexed on line" in term.expect("[q]uit: ")
    term.send("1")
    second = term.expect("[q]uit: ")
    assert "also indexed on line" in second
    term.send("1")
    summary = term.expect("findings remain.")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    # The fourth, a suggestion about the dead line's short hook, went with that line.
    assert "Audit complete. 3 applied, 0 skipped, 0 deferred (1 already resolved" in summary
    assert (tree / "MEMORY.md").read_text(encoding="utf-8") == "# Index\n" + X_LINE
    assert "duplicate-index-entry" not in codes_of(audit_json(home, tree))


def test_a_dismissal_in_one_tree_never_hides_the_same_finding_in_another(
    tmp_path: Path,
) -> None:
    """`near-budget` has no key of its own: two projects over the warning line had one
    fingerprint, and dismissing it in one (in review) dismissed it in both."""
    index = "# Index\n" + "".join(f"- [N{n}](n{n}.md) — note {n}\n" for n in range(160))
    files: dict[str, str] = {"MEMORY.md": index}
    files.update({f"n{n}.md": memory(f"n{n}") for n in range(160)})
    first = write_tree(tmp_path / "one" / "memory", files)
    second = write_tree(tmp_path / "two" / "memory", files)
    home = tmp_path / "home"
    ones = {str(f["code"]): str(f["fingerprint"]) for f in audit_json(home, first)["findings"]}  # type: ignore[attr-defined]
    twos = {str(f["code"]): str(f["fingerprint"]) for f in audit_json(home, second)["findings"]}  # type: ignore[attr-defined]
    assert ones["near-budget"] != twos["near-budget"]
    term = review(home, first)
    while "the load limit is" not in term.expect("[q]uit: "):
        term.send("s")
        term.expect("[n]o: ")
        term.send("n")
    term.send("s")
    term.expect("[n]o: ")
    term.send("y")
    term.expect("Reason (one line)")
    term.send("this one is fine")
    term.expect("findings remain.")
    assert term.wait() == 0
    assert "near-budget" not in codes_of(audit_json(home, first))
    assert "near-budget" in codes_of(audit_json(home, second))


GOVERNED = {
    "MEMORY.md": "# Index\n- [A](a.md) — how invoices are dated\n"
    "- [B](b.md) — how refunds are issued\n",
    "a.md": memory("a", scope="billing", relevance="billing work", body="Invoices use UTC."),
    "b.md": memory("b", scope="billing", body="Refunds are issued within five days."),
}


def test_apply_of_a_missing_field_asks_for_its_value_never_writes_it_empty(
    tmp_path: Path,
) -> None:
    """ "missing `relevance`" wrote `relevance: ''`, which the next audit reported as empty."""
    tree = write_tree(tmp_path / "memory", GOVERNED)
    before = (tree / "b.md").read_bytes()
    home = tmp_path / "home"
    term = review(home, tree)
    shown = term.expect("[q]uit: ")
    assert "missing required field `relevance`" in shown
    assert "Apply asks for the value (`relevance` is required; never written empty)." in shown
    term.send("1")
    term.expect("Value: ")
    term.send("")
    assert "Not applied: `relevance` needs a value" in term.expect("[q]uit: ")
    term.send("s")
    term.expect("[n]o: ")
    term.send("n")
    assert "0 applied, 1 skipped" in term.expect("findings remain.")
    assert term.wait() == 0
    assert (tree / "b.md").read_bytes() == before
    term = review(home, tree)
    term.expect("[q]uit: ")
    term.send("1")
    term.expect("Value: ")
    term.send("refunds and billing work")
    assert "+relevance: refunds and billing work" in term.expect(
        "Apply this change? [y]es / [n]o: "
    )
    term.send("y")
    assert "Applied: b.md: set relevance to `refunds and billing work`" in term.expect(
        "findings remain."
    )
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert "relevance: refunds and billing work\n" in (tree / "b.md").read_text()
    assert codes_of(audit_json(home, tree)) == []


def test_demoting_in_a_governed_tree_asks_for_the_new_relevance(tmp_path: Path) -> None:
    """Dropping `relevance: always` where the field is required left "missing required
    field relevance", and nothing warned."""
    tree = write_tree(
        tmp_path / "memory",
        {
            **GOVERNED,
            "b.md": memory(
                "b",
                scope="billing",
                relevance="always",
                body="Status:\n- [x] ingest\n- [x] rate\n- [x] render\n- [ ] send\n- [x] hooks",
            ),
        },
    )
    home = tmp_path / "home"
    term = review(home, tree)
    shown = term.expect("[q]uit: ")
    assert "`relevance: always` loads it into every session" in shown
    assert "1. [d]emote" in shown
    term.send("1")
    term.expect("New relevance (empty: remove the field): ")
    term.send("")  # the governed profile requires the field: the preview says so
    assert (
        "Not applied: the governed profile requires `relevance`; removing it is a new finding"
        in term.expect("[q]uit: ")
    )
    term.send("1")
    term.expect("New relevance (empty: remove the field): ")
    term.send("always")
    assert "Not applied: `always` is what this fix removes" in term.expect("[q]uit: ")
    term.send("1")
    term.expect("New relevance (empty: remove the field): ")
    term.send("the refunds phase")
    term.expect("Apply this change? [y]es / [n]o: ")
    term.send("y")
    term.expect("Applied: ")
    term.expect("findings remain.")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert "relevance: the refunds phase\n" in (tree / "b.md").read_text()
    assert "missing-field" not in codes_of(audit_json(home, tree))


def test_q_at_a_yes_no_question_quits_and_the_numbers_accepted_are_the_numbers_shown(
    tmp_path: Path,
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Gone](gone.md) — removed long ago\n- [A](a.md) — a\n",
            "a.md": memory("a", body="Invoices are issued in UTC."),
        },
    )
    term = review(tmp_path / "home", tree)
    term.expect("[q]uit: ")
    term.send("3")  # Edit: another path instead of removing the line
    term.expect("New path [gone.md]: ")
    term.send("a.md")
    term.expect("Apply this change? [y]es / [n]o: ")
    term.send("1")  # never shown here, so not accepted
    assert "Please answer one of: y, n" in term.expect("[y]es / [n]o: ")
    term.send("q")
    summary = term.expect("findings remain.")
    assert term.wait() == 0
    assert "0 applied, 0 skipped, 2 deferred" in summary
    assert "gone.md" in (tree / "MEMORY.md").read_text()


def test_a_change_that_would_make_a_new_finding_says_so_before_the_question(
    tmp_path: Path,
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [Invoices](a.md) — when invoices are dated and sent\n",
            "a.md": memory(
                "a", description=None, body="Invoices are dated in UTC and sent on day one."
            ),
        },
    )
    before = (tree / "a.md").read_bytes()
    term = review(tmp_path / "home", tree)
    assert "missing required field `description`" in term.expect("[q]uit: ")
    term.send("1")
    term.expect("Value: ")
    term.send("Invoice dating rules, and")
    shown = term.expect("Apply this change? [y]es / [n]o: ")
    assert "+description: Invoice dating rules, and" in shown
    assert "Careful: this change would make 1 new finding(s):" in shown
    assert "a.md:" in shown
    assert "stops mid-sentence" in shown
    term.send("n")
    term.expect("[q]uit: ")
    term.send("1")
    term.expect("Value: ")
    term.send("When invoices are dated and sent.")
    shown = term.expect("Apply this change? [y]es / [n]o: ")
    assert "Careful" not in shown
    term.send("n")
    term.expect("[q]uit: ")
    term.send("q")
    term.expect("findings remain.")
    assert term.wait() == 0
    assert (tree / "a.md").read_bytes() == before
    # The preview's copy (in the private state folder, not /tmp) is gone with the review.
    state = tmp_path / "home/.local/state/memory-audit"
    assert state.is_dir()
    assert not list(state.glob("memory-audit-preview-*"))
    assert not list(Path(tempfile.gettempdir()).glob("memory-audit-preview-*"))
