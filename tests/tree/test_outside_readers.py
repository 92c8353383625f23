from __future__ import annotations

import os
from pathlib import Path

from memory_audit.tree.outside_readers import (
    MAX_BYTES,
    instruction_files,
    named_paths,
    runnable,
    runnable_copies,
    tree_path_by_suffix,
)
from tests.harness import write_tree


def test_instruction_files_are_the_regular_ones_above_the_tree_up_to_the_project(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "CLAUDE.md": "above the project: not read",
            "project/CLAUDE.md": "the project's",
            "project/notes/AGENTS.md": "a folder's above the tree",
            "project/notes/memory/MEMORY.md": "",
            "elsewhere.md": "target of a link",
        },
    )
    project = tmp_path / "project"
    (project / "AGENTS.md").symlink_to(tmp_path / "elsewhere.md")
    os.mkfifo(project / "notes" / "CLAUDE.md")
    found = instruction_files(project / "notes" / "memory", project)
    assert found == [project / "notes" / "AGENTS.md", project / "CLAUDE.md"]


def test_a_link_is_followed_only_where_it_stays_in_its_folder(tmp_path: Path) -> None:
    # CLAUDE.md -> AGENTS.md beside it is one file read under two names (projects share
    # it between tools); a .claude folder linked from elsewhere on disk is not read.
    write_tree(
        tmp_path,
        {
            "project/AGENTS.md": "shared by the tools",
            "project/memory/MEMORY.md": "",
            "dotfiles/claude/CLAUDE.md": "someone's other files",
        },
    )
    project = tmp_path / "project"
    (project / "CLAUDE.md").symlink_to("AGENTS.md")
    (project / ".claude").symlink_to(tmp_path / "dotfiles" / "claude")
    found = instruction_files(project / "memory", project)
    assert found == [project / "CLAUDE.md", project / "AGENTS.md"]


def test_named_paths_are_links_and_code_spans_and_an_oversized_file_names_none(
    tmp_path: Path,
) -> None:
    small = tmp_path / "CLAUDE.md"
    small.write_text(
        "| `memory/plan.md` | plans |\n\n[log](memory/log.md), [site](https://example.org/x.md)"
        " and `not a path.md`.\n\n```\n[in code](memory/code.md)\n```\n"
    )
    assert named_paths(small) == ("memory/plan.md", "memory/log.md")
    large = tmp_path / "AGENTS.md"
    large.write_text("`memory/plan.md`\n" + "x" * MAX_BYTES)
    assert named_paths(large) == ()


def test_an_installed_agent_link_is_looked_for_beside_the_tree_and_in_the_project(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo" / "claude-config" / "memory"
    link = str(tmp_path / ".claude" / "agents" / "coach.md")
    assert runnable(link)
    assert not runnable(str(tmp_path / "docs" / "coach.md"))
    assert list(runnable_copies(link, root, tmp_path / "repo")) == [
        tmp_path / "repo" / "claude-config" / "agents" / "coach.md",
        tmp_path / "repo" / ".claude" / "agents" / "coach.md",
        tmp_path / "repo" / "agents" / "coach.md",
    ]
    assert list(runnable_copies(str(tmp_path / "agents" / "x.md"), root, None)) == []


def test_an_installed_path_names_the_tree_file_under_the_tree_s_folder_name() -> None:
    present = frozenset({"profile.md", "sub/notes.md"})
    installed = "/home/someone/.claude/projects/-home-someone/memory/profile.md"
    assert tree_path_by_suffix(installed, "memory", present) == "profile.md"
    assert tree_path_by_suffix("memory/sub/notes.md", "memory", present) == "sub/notes.md"
    assert tree_path_by_suffix("memory/gone.md", "memory", present) is None
    assert tree_path_by_suffix("docs/profile.md", "memory", present) is None
