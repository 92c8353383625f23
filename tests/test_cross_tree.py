"""The same note in several stores: found when three or more stores say the same thing."""

from __future__ import annotations

from pathlib import Path

from memory_audit.cross_tree import findings_by_store, shared_notes
from memory_audit.tree.snapshot import MemoryTree
from tests.harness import index, load, memory, write_tree

PNPM = "The user wants pnpm for every install, never npm or yarn; lockfile pnpm-lock.yaml."


def store(root: Path, notes: dict[str, str]) -> MemoryTree:
    files = {name: memory(name.removesuffix(".md"), body=body) for name, body in notes.items()}
    write_tree(root, {"MEMORY.md": index(*notes), **files})
    return load(root)


def project_notes(number: int) -> dict[str, str]:
    """Each store's own, unrelated notes."""
    return {
        f"deploy_{number}.md": f"Service {number} deploys with scripts/release-{number}.sh "
        f"to cluster zone{number}.",
        f"db_{number}.md": f"Database {number} runs migrations through alembic revision r{number}.",
    }


def test_a_note_in_three_stores_is_one_suggestion_in_each(tmp_path: Path) -> None:
    trees = [store(tmp_path / f"s{n}", {"pkg.md": PNPM, **project_notes(n)}) for n in range(3)] + [
        store(tmp_path / "s3", project_notes(3))
    ]
    [note] = shared_notes(trees)
    assert sorted(c.store for c in note.copies) == [0, 1, 2]
    found = findings_by_store([note], ["a", "b", "c", "d"])
    assert sorted(found) == [0, 1, 2]
    [first] = found[0]
    assert (first.code, first.path, first.level) == (
        "same-note-in-projects",
        "pkg.md",
        "suggestion",
    )
    assert first.message.startswith("the same note is kept in 3 stores: a, b, c")
    assert first.fix == {"action": "move-to-user-level", "path": "pkg.md", "stores": 3}


def test_a_note_in_two_stores_is_not_enough(tmp_path: Path) -> None:
    trees = [store(tmp_path / f"s{n}", {"pkg.md": PNPM, **project_notes(n)}) for n in range(2)]
    trees.append(store(tmp_path / "s2", project_notes(2)))
    assert shared_notes(trees) == []


def test_the_same_topic_with_different_claims_is_not_a_shared_note(tmp_path: Path) -> None:
    claims = [
        "Tests run against a real Postgres database started by docker compose.",
        "Tests must finish under two minutes on CI; slow ones are marked and skipped nightly.",
        "Tests of the billing module use recorded Stripe fixtures from fixtures/stripe.",
    ]
    trees = [
        store(tmp_path / f"s{n}", {"testing.md": claim, **project_notes(n)})
        for n, claim in enumerate(claims)
    ]
    assert shared_notes(trees) == []


FACTS = [
    "Invoices are rounded half-even before tax.",
    "The mobile app pins React Native 0.74.",
    "Feature flags live in LaunchDarkly project orbit.",
    "Nightly exports land in the s3 bucket cold-archive.",
    "Grafana dashboards are provisioned from ops/dashboards.",
    "The search index rebuilds every Sunday at 03:00.",
    "Translations come from Crowdin, synced by a bot.",
    "Payments retry three times with exponential backoff.",
    "The design system ships icons as an SVG sprite.",
]


def test_a_template_each_store_repeats_is_no_claim(tmp_path: Path) -> None:
    banner = "Moved out of CLAUDE.md during the spring cleanup; check before relying on it."
    trees = []
    for n in range(3):
        facts = FACTS[n * 3 : n * 3 + 3]
        notes = {f"n{k}.md": f"{banner}\n\n{fact}" for k, fact in enumerate(facts)}
        trees.append(store(tmp_path / f"s{n}", notes))
    assert shared_notes(trees) == []


def test_notes_that_set_themselves_apart_are_not_one_note(tmp_path: Path) -> None:
    base = "Staging server answers on port 8443 behind the VPN; deploys go there first."
    apart = base + " Not to be confused with `prod`, which has its own note."
    trees = [
        store(tmp_path / "s0", {"staging.md": base, "prod.md": "Production is on port 443."}),
        store(tmp_path / "s1", {"staging.md": base}),
        store(tmp_path / "s2", {"prod.md": apart}),
    ]
    assert shared_notes(trees) == []


def test_two_hundred_stores_with_the_same_note_are_one_note(tmp_path: Path) -> None:
    trees = [store(tmp_path / f"s{n}", {"pkg.md": PNPM, **project_notes(n)}) for n in range(200)]
    [note] = shared_notes(trees)
    assert len(note.copies) == 200
    found = findings_by_store([note], [f"store{n}" for n in range(200)])
    assert len(found) == 200
    assert "store0, store1, store2, store3, store4 and 195 more" in found[7][0].message
