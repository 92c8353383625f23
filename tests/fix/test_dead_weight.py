"""Archive, delete and trim as edits on real files: links follow, nothing else moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.fix import dead_weight
from memory_audit.fix.edits import NeedsValue
from memory_audit.fix.tree_access import Tree
from tests.harness import memory, write_tree

FILES: dict[str, str | bytes] = {
    "MEMORY.md": "# Index\n- [Old](old.md) — the old plan\n- [Hub](notes/hub.md) — more\n",
    "old.md": memory("old", body="Done."),
    "notes/hub.md": memory(
        "hub", body="See [the plan](../old.md#steps), [again](<../old.md>) and [x](x.md)."
    ),
    "notes/x.md": memory("x", body="Keep [old](old.md) as it is: it is notes/old.md."),
    "bad.md": b"\xff\xfe not text [old](old.md)\n",
}


def md_files(root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in sorted(root.rglob("*.md"))]


def test_archive_moves_the_file_and_every_link_to_it_follows(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", FILES)
    edit = dead_weight.archive(Tree.open(root), "old.md", md_files(root))
    edit.apply()
    assert (root / "archive/old.md").read_text() == memory("old", body="Done.")
    assert not (root / "old.md").exists()
    assert "- [Old](archive/old.md) — the old plan" in (root / "MEMORY.md").read_text()
    hub = (root / "notes/hub.md").read_text()
    assert "[the plan](../archive/old.md#steps), [again](<../archive/old.md>)" in hub
    assert "[x](x.md)" in hub
    # A link that names another file of the same name is not touched; nor is a file that
    # cannot be read as text.
    assert "[old](old.md)" in (root / "notes/x.md").read_text()
    assert (root / "bad.md").read_bytes() == FILES["bad.md"]


def test_archive_uses_the_tree_s_own_archive_folder(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {**FILES, "archived/older.md": memory("older")})
    edit = dead_weight.archive(Tree.open(root), "old.md", md_files(root))
    assert edit.changes[0].rename_to == "archived/old.md"


def test_delete_removes_the_index_line_and_keeps_other_links_as_text(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", FILES)
    dead_weight.delete(Tree.open(root), "old.md", md_files(root)).apply()
    assert not (root / "old.md").exists()
    assert (root / "MEMORY.md").read_text() == "# Index\n- [Hub](notes/hub.md) — more\n"
    assert "See the plan, again and [x](x.md)." in (root / "notes/hub.md").read_text()


def test_trim_takes_body_lines_only(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {"a.md": memory("a", body="one\ntwo\nthree")})
    tree = Tree.open(root)
    assert [n for n, _ in dead_weight.numbered_body(tree, "a.md")] == [6, 7, 8]
    for bad in ("1-2", "7-", "x", "6-8"):
        with pytest.raises(NeedsValue):
            dead_weight.trim(tree, "a.md", bad)
    dead_weight.trim(tree, "a.md", "6, 8").apply()
    assert (root / "a.md").read_text() == memory("a", body="two")
