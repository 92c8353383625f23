from __future__ import annotations

from pathlib import Path

from memory_audit.tree.real_folder import RealFolder
from tests.harness import write_tree


def folders(tmp_path: Path) -> Path:
    write_tree(tmp_path, {"project/CLAUDE.md": "inside", "elsewhere/notes.md": "outside"})
    return tmp_path / "project"


def test_a_file_inside_and_a_link_to_a_file_beside_it_are_held(tmp_path: Path) -> None:
    project = folders(tmp_path)
    (project / "AGENTS.md").symlink_to("CLAUDE.md")
    assert RealFolder(project).holds(project / "CLAUDE.md")
    assert RealFolder(project).holds(project / "AGENTS.md")


def test_a_path_climbing_out_through_dot_dot_is_not_held(tmp_path: Path) -> None:
    project = folders(tmp_path)
    assert not RealFolder(project).holds(project / ".." / "elsewhere" / "notes.md")
    assert RealFolder(project).holds(project / "sub" / ".." / "CLAUDE.md")


def test_a_symlink_out_of_the_folder_is_not_held(tmp_path: Path) -> None:
    project = folders(tmp_path)
    (project / "notes.md").symlink_to(tmp_path / "elsewhere" / "notes.md")
    (project / ".claude").symlink_to(tmp_path / "elsewhere")
    assert not RealFolder(project).holds(project / "notes.md")
    assert not RealFolder(project).holds(project / ".claude" / "notes.md")


def test_a_folder_reached_through_a_symlinked_ancestor_holds_its_files(tmp_path: Path) -> None:
    project = folders(tmp_path)
    (tmp_path / "work").symlink_to(tmp_path)
    linked = tmp_path / "work" / "project"
    assert RealFolder(linked).holds(project / "CLAUDE.md")
    assert RealFolder(project).holds(linked / "CLAUDE.md")
    assert RealFolder(linked).path == str(project)


def test_the_folder_itself_and_a_sibling_sharing_its_prefix_are_not_held(tmp_path: Path) -> None:
    project = folders(tmp_path)
    (tmp_path / "project-old").mkdir()
    assert not RealFolder(project).holds(project)
    assert not RealFolder(project).holds(project / ".")
    assert not RealFolder(project).holds(tmp_path / "project-old")


def test_the_root_holds_what_is_below_it() -> None:
    assert RealFolder("/").holds("/etc")
    assert not RealFolder("/").holds("/")


def test_a_path_already_resolved_is_asked_without_resolving_it_again(tmp_path: Path) -> None:
    project = folders(tmp_path)
    assert RealFolder(project).holds_real(str(project / "CLAUDE.md"))
    assert not RealFolder(project).holds_real(str(project))
