"""The three steps of moving a store, on real folders: copy (never over a file), merge
the index, move the old folder to .trash; each refuses rather than lose anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.fix import store_move
from memory_audit.fix.store_move import MoveStopped
from memory_audit.fix.tree_access import Tree
from tests.harness import findings, memory, write_tree

OLD_INDEX = (
    "# Index\n- [Billing](billing.md) — invoice rules\n- [Tests](tests.md) — how to test\n"
    "- [Shared](shared.md) — same in both\n- [Dead](dead.md) — no such file\n"
    "Deploys go out on Fridays.\n"
)
BILLING = memory("billing", body="Invoices are rounded per line item.")
TESTS = memory("tests", body="Integration tests hit a real database.")
SHARED = memory("shared", body="The API answers in UTF-8.")


def two_stores(tmp_path: Path) -> tuple[Path, Path]:
    old = write_tree(
        tmp_path / "projects/-old/memory",
        {"MEMORY.md": OLD_INDEX, "billing.md": BILLING, "tests.md": TESTS, "shared.md": SHARED,
         "notes/deep.md": memory("deep", body="Nested notes travel too.")},
    )  # fmt: skip
    (old / "diagram.png").write_bytes(b"\x89PNG")
    new = write_tree(
        tmp_path / "projects/-new/memory",
        {"MEMORY.md": "# Index\n- [Shared](shared.md) — same in both\n", "shared.md": SHARED,
         "tests.md": memory("tests", body="Unit tests run in under a second.")},
    )  # fmt: skip
    return old, new


def test_plan_copies_what_is_missing_and_renames_a_conflict(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    plan = store_move.plan_move(Tree.open(old), new)
    assert [(c.source, c.target) for c in plan.copies] == [
        ("billing.md", "billing.md"),
        ("notes/deep.md", "notes/deep.md"),
        ("tests.md", "tests-moved.md"),  # a different tests.md is there: never overwritten
    ]
    assert plan.present == (("shared.md", "shared.md"),)
    assert plan.left == ("diagram.png",)


def test_copy_is_byte_for_byte_and_never_overwrites(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    theirs = (new / "tests.md").read_bytes()
    plan = store_move.plan_move(Tree.open(old), new)
    store_move.copy_files(plan)
    assert (new / "billing.md").read_bytes() == (old / "billing.md").read_bytes()
    assert (new / "notes/deep.md").read_bytes() == (old / "notes/deep.md").read_bytes()
    assert (new / "tests-moved.md").read_bytes() == (old / "tests.md").read_bytes()
    assert (new / "tests.md").read_bytes() == theirs
    assert (
        store_move.plan_move(Tree.open(old), new).copies == ()
    )  # done: a second run copies nothing


def test_a_failed_copy_removes_the_copies_of_its_step(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    plan = store_move.plan_move(Tree.open(old), new)
    (new / "notes").write_text("a file where the folder would go\n")
    with pytest.raises(MoveStopped):
        store_move.copy_files(plan)
    assert not (new / "billing.md").exists()  # copied before the failure, removed again
    assert sorted(p.name for p in new.iterdir()) == ["MEMORY.md", "notes", "shared.md", "tests.md"]


def test_a_file_changed_since_the_plan_is_not_copied(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    plan = store_move.plan_move(Tree.open(old), new)
    (old / "tests.md").write_text("changed meanwhile\n")
    with pytest.raises(MoveStopped, match="changed since it was shown"):
        store_move.copy_files(plan)
    assert not (new / "billing.md").exists()


def test_a_symlink_in_the_new_store_is_never_written_through(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_text("not a memory\n")
    (new / "billing.md").symlink_to(outside)
    plan = store_move.plan_move(Tree.open(old), new)
    assert ("billing.md", "billing-moved.md") in [(c.source, c.target) for c in plan.copies]
    store_move.copy_files(plan)
    assert outside.read_text() == "not a memory\n"


def test_index_merge_appends_entries_whose_files_are_there_once(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    plan = store_move.plan_move(Tree.open(old), new)
    store_move.copy_files(plan)
    merge = store_move.merge_index(plan)
    assert merge is not None
    merge.edit.apply()
    assert (new / "MEMORY.md").read_text() == (
        "# Index\n- [Shared](shared.md) — same in both\n"
        "- [Billing](billing.md) — invoice rules\n- [Tests](tests-moved.md) — how to test\n"
    )
    # shared.md was indexed already, dead.md is nowhere, the note is not an entry
    assert (merge.added, merge.not_merged) == (2, 3)
    assert store_move.over_budget(merge) is None
    assert (
        store_move.merge_index(store_move.plan_move(Tree.open(old), new)) is None
    )  # nothing twice


def test_index_merge_into_a_store_without_an_index_and_past_the_budget(tmp_path: Path) -> None:
    entries = "".join(f"- [N{i}](n{i}.md) — note {i}\n" for i in range(201))
    files = {f"n{i}.md": memory(f"n{i}", body=f"Fact number {i}.") for i in range(201)}
    old = write_tree(tmp_path / "projects/-old/memory", {"MEMORY.md": entries, **files})
    new = tmp_path / "projects/-new/memory"
    (tmp_path / "projects/-new").mkdir()
    plan = store_move.plan_move(Tree.open(old), new)
    store_move.copy_files(plan)
    merge = store_move.merge_index(plan)
    assert merge is not None
    warning = store_move.over_budget(merge)
    assert warning is not None
    assert "202 lines" in warning
    assert "first 200" in warning
    merge.edit.apply()
    assert (new / "MEMORY.md").read_text().startswith("# Memory index\n- [N0](n0.md)")


def test_trash_moves_the_old_folder_beside_its_transcripts(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    plan = store_move.plan_move(Tree.open(old), new)
    store_move.copy_files(plan)
    where = store_move.trash_old(plan)
    assert where == tmp_path / "projects/-old/.trash/memory"
    assert not old.exists()
    assert (where / "tests.md").read_bytes() == TESTS.encode()
    assert (where / "diagram.png").read_bytes() == b"\x89PNG"  # not copied, not lost
    assert (where / "MEMORY.md").read_text() == OLD_INDEX


def test_trash_refuses_while_a_copy_is_missing_or_differs(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    plan = store_move.plan_move(Tree.open(old), new)
    with pytest.raises(MoveStopped, match="the old store is kept"):
        store_move.trash_old(plan)  # nothing copied yet
    store_move.copy_files(plan)
    (new / "billing.md").write_text("edited in the new store\n")
    with pytest.raises(MoveStopped, match=r"billing\.md differs from its copy"):
        store_move.trash_old(plan)
    assert (old / "billing.md").read_bytes() == BILLING.encode()


def test_a_second_trash_takes_the_next_name(tmp_path: Path) -> None:
    old, new = two_stores(tmp_path)
    (tmp_path / "projects/-old/.trash/memory").mkdir(parents=True)
    plan = store_move.plan_move(Tree.open(old), new)
    store_move.copy_files(plan)
    assert store_move.trash_old(plan) == tmp_path / "projects/-old/.trash/memory-2"


def test_the_audit_never_reads_a_trash_folder_inside_a_tree(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": "- [A](a.md) — about a\n", "a.md": memory("a"),
         ".trash/memory/stray.md": memory("stray", body="Nothing links this file.")},
    )  # fmt: skip
    assert findings(root, "orphans") == []
    assert findings(root, "index-drift") == []
