"""restore writes through the same guard as review: missing folders are created from the
root down without following a symlink, a symlink on the way or in place of the file is
refused, and a file changed since it was shown is left as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.fix.restore import RestoreRefused, TreeMoved, read_current, write_checked
from memory_audit.fix.tree_access import Tree
from tests.harness import memory, write_tree


def test_missing_folders_are_created_inside_the_tree(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a")})
    write_checked(Tree.open(tree), "deep/er/b.md", None, b"back\n")
    assert (tree / "deep/er/b.md").read_bytes() == b"back\n"
    assert read_current(Tree.open(tree), "deep/er/b.md") == b"back\n"
    assert read_current(Tree.open(tree), "nowhere/c.md") is None


def test_a_deleted_tree_comes_back_with_its_first_file(tmp_path: Path) -> None:
    tree = tmp_path / "gone/memory"
    assert read_current(Tree.open(tree), "a.md") is None
    write_checked(Tree.open(tree), "sub/a.md", None, b"a\n")
    assert (tree / "sub/a.md").read_bytes() == b"a\n"


def test_a_symlinked_folder_on_the_way_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a")})
    (tree / "sub").symlink_to(outside)
    with pytest.raises(RestoreRefused, match="reached through a symlink"):
        write_checked(Tree.open(tree), "sub/deeper/b.md", None, b"x")
    with pytest.raises(RestoreRefused, match="reached through a symlink"):
        read_current(Tree.open(tree), "sub/b.md")
    assert list(outside.iterdir()) == []


def test_a_file_swapped_for_a_symlink_is_not_written_through(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_bytes(b"theirs")
    tree = write_tree(tmp_path / "memory", {"a.md": "mine\n"})
    (tree / "a.md").unlink()
    (tree / "a.md").symlink_to(target)
    with pytest.raises(RestoreRefused):
        write_checked(Tree.open(tree), "a.md", b"mine\n", b"restored")
    assert target.read_bytes() == b"theirs"


def test_a_file_changed_since_shown_is_left_alone(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": "edited meanwhile\n"})
    with pytest.raises(RestoreRefused, match="changed since it was shown"):
        write_checked(Tree.open(tree), "a.md", b"as shown\n", b"restored\n")
    with pytest.raises(RestoreRefused, match="changed since it was shown"):
        write_checked(Tree.open(tree), "a.md", None, b"restored\n")  # shown as absent, now there
    assert (tree / "a.md").read_text() == "edited meanwhile\n"


@pytest.mark.parametrize("rel", ["../x.md", "/etc/x.md", "a/../../x.md", ""])
def test_a_path_out_of_the_tree_is_refused(tmp_path: Path, rel: str) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": "a\n"})
    with pytest.raises(RestoreRefused, match="not a path inside the tree"):
        write_checked(Tree.open(tree), rel, None, b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory"]


def test_a_folder_above_the_tree_swapped_for_a_symlink_after_opening_is_refused(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "store/memory", {"a.md": "mine\n"})
    held = Tree.open(tree)
    decoy = write_tree(tmp_path / "decoy/memory", {"a.md": "mine\n"})
    (tmp_path / "store").rename(tmp_path / "store-original")
    (tmp_path / "store").symlink_to(decoy.parent)
    with pytest.raises(TreeMoved, match="is no longer the folder this session opened"):
        write_checked(held, "a.md", b"mine\n", b"restored\n")
    assert (decoy / "a.md").read_text() == "mine\n"
    assert (tmp_path / "store-original/memory/a.md").read_text() == "mine\n"
