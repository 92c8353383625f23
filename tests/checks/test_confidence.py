from __future__ import annotations

from pathlib import Path

from tests.harness import codes, findings, memory, write_tree


def test_confidence_first_word_counts(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", confidence='"medium — useful lens but not proven"'),
            "b.md": memory("b", confidence="High"),
            "c.md": memory("c", confidence="low", last_challenged="2026-11-01"),
        },
    )
    assert findings(tree_dir, "confidence") == []


def test_confidence_invalid_values(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", confidence="very sure"),
            "b.md": memory("b", confidence="[high]"),
            "c.md": memory("c", confidence="7"),
        },
    )
    assert codes(findings(tree_dir, "confidence")) == [
        ("invalid-confidence", "a.md", 5),
        ("invalid-confidence", "b.md", 5),
        ("invalid-confidence", "c.md", 5),
    ]


def test_a_score_from_0_to_1_is_the_owner_s_scale_read_by_its_thirds(tree_dir: Path) -> None:
    # a tree that scores its memories 0.0-1.0 and decays the score: no invalid value, and
    # a low score is low confidence (never challenged here)
    write_tree(
        tree_dir,
        {
            "sure.md": memory("sure", confidence="0.95"),
            "hunch.md": memory("hunch", metadata="{confidence: 0.2}"),
            "past.md": memory("past", confidence="1.5"),
            "scale.md": memory("scale", confidence="1"),  # a 1-5 scale's lowest, not high
        },
    )
    assert codes(findings(tree_dir, "confidence")) == [
        ("low-confidence-unchallenged", "hunch.md", 5),
        ("invalid-confidence", "past.md", 5),
        ("invalid-confidence", "scale.md", 5),
    ]


def test_confidence_low_and_always_loaded_or_built_upon(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "hunch.md": memory(
                "hunch",
                confidence="low",
                relevance="always",
                scope="[x]",
                last_challenged="2026-11-01",
            ),
            "base.md": memory("base", confidence="low", scope="[x]", relevance="phase"),
            "user.md": memory(
                "user",
                scope="[x]",
                relevance="phase",
                relations="[{type: supports, target: base.md}]",
            ),
        },
    )
    found = {(f.code, f.path): f for f in findings(tree_dir, "confidence")}
    assert set(found) == {
        ("low-confidence-always-on", "hunch.md"),
        ("low-confidence-foundation", "base.md"),
        ("low-confidence-unchallenged", "base.md"),
    }
    assert found[("low-confidence-foundation", "base.md")].related == ("user.md",)
    assert found[("low-confidence-always-on", "hunch.md")].judgment
