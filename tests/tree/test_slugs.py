from __future__ import annotations

from pathlib import Path

from memory_audit.tree.slugs import auto_memory_projects


def test_auto_memory_is_a_memory_folder_under_a_slug_of_projects(tmp_path: Path) -> None:
    home = tmp_path / ".claude/projects"
    assert auto_memory_projects(home / "-home-ann-shop/memory") == str(home)
    assert auto_memory_projects(home / "C--Users-ann-shop/memory") == str(home)
    # a project's own folders: no slug, another folder's name, a name with a space
    assert auto_memory_projects(tmp_path / "agency/projects/shop/memory") is None
    assert auto_memory_projects(home / "-home-ann-shop/notes") is None
    assert auto_memory_projects(tmp_path / "work/-home-ann/memory") is None
    assert auto_memory_projects(home / "-home-ann shop/memory") is None
    assert auto_memory_projects(home / "1--x/memory") is None
