"""Dismissals written before fingerprints named their tree keep working: read by the hook
from the database as it was, and migrated by the state on its first open."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_audit.checks import REGISTRY
from memory_audit.engine import audit_tree
from memory_audit.model.finding import fingerprint
from memory_audit.store.dismissals import DB_NAME, LIST_NAME, read_dismissed
from memory_audit.store.state import SCHEMA, State
from tests.harness import load, memory, write_tree

BARE = fingerprint("index-budget", "near-budget", "MEMORY.md")


def near_budget_tree(root: Path) -> Path:
    index = "# Index\n" + "".join(f"- [N{n}](n{n}.md) — note {n}\n" for n in range(160))
    files = {"MEMORY.md": index, **{f"n{n}.md": memory(f"n{n}") for n in range(160)}}
    return write_tree(root, files)


def old_state(folder: Path, rows: list[tuple[str, str | None]], seen: list[str]) -> None:
    """A state database as the tool wrote it before: bare fingerprints, and a v1 list."""
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / DB_NAME)
    db.executescript(SCHEMA)
    for bare, root in rows:
        db.execute(
            "INSERT INTO dismissals VALUES (?, ?, 'kept', '2026-01-01T00:00:00+00:00')",
            (bare, root),
        )
    for root in seen:
        db.execute(
            "INSERT INTO findings VALUES (?, ?, 'index-budget', 'near-budget', 'MEMORY.md', 'm', "
            "'2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00', NULL)",
            (root, BARE),
        )
    db.commit()
    db.close()
    (folder / LIST_NAME).write_text(f"memory-audit dismissed fingerprints v1 x 1\n{BARE}\n")


def near_budget_hidden(tree: Path, dismissed: frozenset[str]) -> bool:
    found = audit_tree(
        load(tree),
        ("index-budget",),
        {"index-budget": REGISTRY["index-budget"].Options()},
        dismissed,
    )
    assert "near-budget" in [f.code for f in (*found.findings, *found.dismissed)]
    return "near-budget" in [f.code for f in found.dismissed]


def test_an_old_dismissal_hides_its_own_tree_s_finding_and_no_other(tmp_path: Path) -> None:
    first = near_budget_tree(tmp_path / "one" / "memory")
    second = near_budget_tree(tmp_path / "two" / "memory")
    folder = tmp_path / "state"
    old_state(folder, [(BARE, str(first))], [])
    # The hook reads the database as the old tool left it: never the old list.
    read = read_dismissed(folder)
    assert BARE not in read
    assert near_budget_hidden(first, read)
    assert not near_budget_hidden(second, read)
    state = State(folder)  # the first open migrates
    assert near_budget_hidden(first, state.dismissed())
    assert not near_budget_hidden(second, state.dismissed())
    assert [row[1] for row in state.dismissals()] == [str(first)]
    state.close()
    assert read_dismissed(folder) == State(folder).dismissed()


def test_an_old_dismissal_without_a_tree_covers_the_trees_it_was_seen_in(tmp_path: Path) -> None:
    first = near_budget_tree(tmp_path / "one" / "memory")
    second = near_budget_tree(tmp_path / "two" / "memory")
    folder = tmp_path / "state"
    old_state(folder, [(BARE, None)], [str(first)])
    state = State(folder)
    assert near_budget_hidden(first, state.dismissed())
    assert not near_budget_hidden(second, state.dismissed())
    # The history moved with it: the finding seen before is not new on the next run.
    rows = state.db.execute("SELECT fingerprint FROM findings").fetchall()
    assert [r[0] for r in rows] == [
        f.fingerprint
        for f in audit_tree(
            load(first), ("index-budget",), {"index-budget": REGISTRY["index-budget"].Options()}
        ).findings
        if f.code == "near-budget"
    ]
    state.close()
