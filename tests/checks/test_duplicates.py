from __future__ import annotations

from pathlib import Path

from memory_audit.checks.duplicates import Options
from tests.harness import findings, index, memory, write_tree

RULE = "Integration tests must hit a real Postgres database started from the compose file, never mocks."
NEAR = "Integration tests must always hit a real Postgres database started from the compose file, never mocks."
OTHER = "Deploys go through the pipeline on merge; production needs a manual approval step."


def test_duplicates_same_type_near_identical_paragraphs(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md", "c.md"),
            "a.md": memory("a", type="feedback", body=RULE),
            "b.md": memory("b", type="feedback", body=NEAR),
            "c.md": memory("c", type="feedback", body=OTHER),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert (finding.code, finding.path, finding.related, finding.judgment) == (
        "possible-duplicate",
        "b.md",
        ("a.md",),
        True,
    )
    assert "overlaps 92% with `a.md` (both type `feedback`)" in finding.message
    assert "`a.md`" in (finding.suggestion or "")


def test_duplicates_different_types_are_not_compared_in_claude_code_profile(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", type="feedback", body=RULE),
            "b.md": memory("b", type="reference", body=NEAR),
        },
    )
    assert findings(tree_dir, "duplicates") == []


def test_duplicates_governed_profile_needs_a_shared_scope_tag(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", scope="[testing, db]", relevance="always", body=RULE),
            "b.md": memory("b", scope="[db]", relevance="always", body=NEAR),
            "c.md": memory("c", scope="[ui]", relevance="always", body=NEAR),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert finding.path == "b.md"
    assert "shared scope db" in finding.message


def test_duplicates_threshold_is_configurable_and_short_paragraphs_skipped(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", body=RULE),
            "b.md": memory("b", body=RULE + " Also run migrations first."),
            "c.md": memory("c", body="Use pytest."),
            "d.md": memory("d", body="Use pytest."),
        },
    )
    assert findings(tree_dir, "duplicates") == []
    loose = findings(tree_dir, "duplicates", options={"duplicates": Options(threshold=0.6)})
    assert [(f.path, f.related) for f in loose] == [("b.md", ("a.md",))]


def test_duplicates_superseded_pairs_are_resolved(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {"a.md": memory("a", body=RULE, superseded_by="b.md"), "b.md": memory("b", body=NEAR)},
    )
    assert findings(tree_dir, "duplicates") == []


def test_duplicates_pair_sharing_several_scope_tags_is_reported_once(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", scope="[testing, db]", relevance="always", body=RULE),
            "b.md": memory("b", scope="[db, testing]", relevance="always", body=NEAR),
        },
    )
    assert [f.path for f in findings(tree_dir, "duplicates")] == ["b.md"]
