from __future__ import annotations

import os
from pathlib import Path

from tests.harness import NOW, codes, findings, memory, write_tree


def audit(tree_dir: Path, **fields: str) -> list[tuple[str, str, int | None]]:
    write_tree(tree_dir, {"a.md": memory("a", **fields)})
    return codes(findings(tree_dir, "expiry"))


def test_expiry_passed_date_is_due_future_and_durable_are_not(tree_dir: Path) -> None:
    assert audit(tree_dir, review_by="2026-03-01") == [("review-due", "a.md", 5)]
    [finding] = findings(tree_dir, "expiry")
    assert "passed 274 days ago" in finding.message
    assert audit(tree_dir, review_by="2027-01-01") == []
    assert audit(tree_dir, review_by="Durable") == []
    assert audit(tree_dir, review_by='"durable — house rule"') == []


def test_expiry_date_as_string_with_a_note(tree_dir: Path) -> None:
    assert audit(tree_dir, review_by='"2026-06-30 — after the migration"') == [
        ("review-due", "a.md", 5)
    ]


def test_expiry_event_is_user_judgment(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": memory("a", review_by="after migration complete")})
    [finding] = findings(tree_dir, "expiry")
    assert (finding.code, finding.judgment) == ("review-event", True)


def test_expiry_relative_period_counts_from_last_challenged(tree_dir: Path) -> None:
    assert (
        audit(tree_dir, review_by='"After 3 months — reassess"', last_challenged="2026-10-01") == []
    )
    assert audit(
        tree_dir, review_by='"After 3 months — reassess"', last_challenged="2026-06-01"
    ) == [("review-due", "a.md", 5), ("challenge-overdue", "a.md", 6)]


def test_expiry_relative_period_falls_back_to_the_file_time(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": memory("a", review_by="after 2 weeks")})
    old = NOW.timestamp() - 30 * 86400
    os.utime(tree_dir / "a.md", (old, old))
    assert codes(findings(tree_dir, "expiry")) == [("review-due", "a.md", 5)]


def test_expiry_bad_review_by_values(tree_dir: Path) -> None:
    for value in ("2026-13-45", "yesterday", "42", "[2026-01-01]", "{when: soon}"):
        assert audit(tree_dir, review_by=value) == [("invalid-review-by", "a.md", 5)], value


def test_expiry_last_challenged_old_future_and_invalid(tree_dir: Path) -> None:
    assert audit(tree_dir, last_challenged="2026-11-01") == []
    assert audit(tree_dir, last_challenged="2026-01-15") == [("challenge-overdue", "a.md", 5)]
    assert audit(tree_dir, last_challenged="2027-05-01") == [("invalid-last-challenged", "a.md", 5)]
    assert audit(tree_dir, last_challenged="last week") == [("invalid-last-challenged", "a.md", 5)]


def test_expiry_fields_under_metadata_are_read_too(tree_dir: Path) -> None:
    text = "---\nname: a\ndescription: d\nmetadata:\n  type: feedback\n  review_by: 2026-02-01\n---\nbody\n"
    write_tree(tree_dir, {"a.md": text})
    assert codes(findings(tree_dir, "expiry")) == [("review-due", "a.md", 6)]
