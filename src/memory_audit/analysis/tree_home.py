"""Where a tree lives: under Claude Code's own folder on this machine, or inside the
repository of its project (a copy the repository keeps).

Every audit asks (the engine levels a copy's findings); it is kept apart from
``stale_sources``, whose imports (git history, path references) cost a run that checks
no reference some 2% of a secrets sweep.
"""

from __future__ import annotations

import os
from typing import cast

from memory_audit.tree.discovery import projects_dir, settings_memory_dir
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.memory_file import FileKind
from memory_audit.tree.snapshot import MemoryTree
from memory_audit.tree.workspace import (
    WORKSPACE_MEMORY,
    a_workspace,
    held_names,
    workspace_files_in,
)


def on_this_machine(tree: MemoryTree) -> bool:
    """A Claude Code tree of this user: under ~/.claude/projects or autoMemoryDirectory."""
    root = tree.root.resolve()
    homes = [projects_dir(), settings_memory_dir()]
    return any(h is not None and root.is_relative_to(h.expanduser().resolve()) for h in homes)


def repository_copy(tree: MemoryTree) -> bool:
    """Memory its project keeps inside itself (``<repo>/memory``, ``<repo>/.claude/memory``,
    an agent's project-scope ``<repo>/.claude/agent-memory/<agent>/``), audited with that
    project: what a repository holds beside its code, where files that are not memories,
    notes never committed and dated records are common (measured on public trees, agents'
    memory among them). The project's own root holding a MEMORY.md is one too: there the
    tree is the whole repository, its README, changelog and design notes beside the index
    (measured on public trees: a coding project's root, an agent's workspace). Not a folder
    under Claude Code's own folder, nor a tree audited beside a project, or alone."""
    project = tree.location.project_path
    if project is None or on_this_machine(tree):
        return False
    root, home = os.path.realpath(tree.root), os.path.realpath(project)
    return root == home or root.startswith(home + os.sep)


def written_by_another_program(tree: MemoryTree) -> str | None:
    """Why a folder is no Claude Code memory, when it has neither a MEMORY.md (here or in
    any case) nor a frontmatter block in any of its files: Claude Code writes the index
    with its first memory and a block in every topic file, so such a folder is another
    program's notes (an agent's workspace, an app's own store), whose index and blocks are
    that program's business (held-out judges: index and frontmatter advice false in every
    such folder). Never a folder Claude Code wrote or loads: under its own folders on this
    machine, the one a project's settings name (``autoMemoryDirectory``), a copy laid out
    as its store (``projects/<slug>/memory``), an agent's store, a copy of the user's memory
    in a configuration repository; nor one with a file that could not be read (its block is
    unknown). None otherwise. Read once a tree: index-drift, frontmatter and orphans ask."""
    key = ("written-by-another-program",)
    if key not in tree.scratch:
        tree.scratch[key] = _another_programs_reason(tree)
    return cast(str | None, tree.scratch[key])


def _another_programs_reason(tree: MemoryTree) -> str | None:
    if on_this_machine(tree) or tree.location.agent is not None or config_repository_copy(tree):
        return None
    if any(name.lower() == INDEX_NAME.lower() for name in tree.present) or tree.unread:
        return None  # the index, unreadable or under another case, is Claude Code's name
    # memories, session recaps and team notes: a README's block (another tool's page) is
    # none of Claude Code's
    files = tree.of_kind(FileKind.MEMORY, FileKind.RECAP, FileKind.TEAM)
    if not tree.memories or any(f.frontmatter_present for f in files):
        return None
    if _a_store_copy(tree) or _named_by_project_settings(tree):
        return None
    count = len(files)
    which = "its one file has" if count == 1 else f"none of its {count} files has"
    return (
        f"no MEMORY.md and {which} frontmatter: not a folder Claude Code writes, so its index"
        " and frontmatter are not checked"
    )


def _a_store_copy(tree: MemoryTree) -> bool:
    """Laid out as Claude Code's store (``.../projects/<slug>/memory``): a copy of one, from
    this machine or another."""
    parts = tree.root.parts
    return len(parts) >= 3 and parts[-1] == "memory" and parts[-3] == "projects"


def _named_by_project_settings(tree: MemoryTree) -> bool:
    """The folder the project's own settings move its auto memory to (``autoMemoryDirectory``
    in ``.claude/settings.local.json``): Claude Code writes and loads it there."""
    project = tree.location.project_path
    if project is None:
        return False
    from memory_audit.tree import claude_settings  # settings are read only for such a folder

    folder = claude_settings.resolve(project).memory_directory
    return folder is not None and os.path.realpath(folder) == os.path.realpath(tree.root)


def read_by_instructions(tree: MemoryTree) -> bool:
    """A repository's copy its project's CLAUDE.md (or AGENTS.md) reads: it imports the
    index or tells sessions to read it, or names the folder itself as where the project's
    memory is (``.claude/memory/``). Sessions reach these files through the index or by
    path, never by their frontmatter's description (judged so on every such tuning tree:
    files "read by path via CLAUDE.md" need no block). One file the instructions import or
    name is not enough: the folder's other files may still be found by description."""
    if not repository_copy(tree):
        return False
    if tree.named_as_folder:
        return True
    # imported here: index_loaders reads the index's load, which a secrets-only audit (the
    # engine asks where every tree lives) never needs
    from memory_audit.analysis.index_loaders import index_loader

    loader = index_loader(tree)
    return loader is not None and not loader.itself


def config_repository_copy(tree: MemoryTree) -> bool:
    """A copy of the user's memory kept in a dotfiles or Claude configuration repository
    (``~/dotfiles/claude/memory``) that Claude Code does not load from there: as in a
    project's copy, notes the owner kept out of git are missing here, not on their machine."""
    return tree.location.in_config_repository and not on_this_machine(tree)


def loaded_by_its_agent(tree: MemoryTree) -> bool:
    """An agent's project-scope (or local) store whose agent the project declares with
    that ``memory:`` scope: the live store, whose MEMORY.md that agent loads at each start
    with the 200-line cut, though the repository holds it."""
    agent, scopes = tree.location.agent, _agent_scopes(tree)
    return agent is not None and agent.scope in scopes


def unloaded_by_its_agent(tree: MemoryTree) -> str | None:
    """Why no session loads an agent's project-scope (or local) store, when its project's
    file for that agent keeps no memory there; None otherwise."""
    agent, scopes = tree.location.agent, _agent_scopes(tree)
    if agent is None or not scopes:
        return None
    from memory_audit.tree.agent_definitions import unloaded_reason  # see _agent_scopes

    return unloaded_reason(agent, scopes)


def _agent_scopes(tree: MemoryTree) -> tuple[str, ...]:
    """The ``memory:`` scopes the project's files for the tree's agent give (see
    :func:`memory_scopes`), read once a tree: the engine and index-budget both ask."""
    agent, project = tree.location.agent, tree.location.project_path
    if agent is None or project is None or agent.scope == "user":
        return ()
    key = ("agent-memory-scopes",)
    if key not in tree.scratch:
        # imported here: reading an agent file's frontmatter imports YAML, which a
        # secrets-only audit (the engine asks where every tree lives) never needs
        from memory_audit.tree.agent_definitions import memory_scopes

        tree.scratch[key] = memory_scopes(project, agent)
    return cast(tuple[str, ...], tree.scratch[key])


def other_agent_workspace(tree: MemoryTree) -> str | None:
    """``"an OpenClaw agent's workspace (SOUL.md, IDENTITY.md)"`` when the folder is one:
    its MEMORY.md is loaded by that agent, not cut at auto memory's 200 lines, and its
    other files (daily logs, skills' documents) are no Claude Code memories. Never for a
    folder under Claude Code's own folder on this machine, which Claude Code loads."""
    if on_this_machine(tree):
        return None
    held = held_names(tree.present)
    if a_workspace(held):
        return f"an OpenClaw agent's workspace ({', '.join(held[:3])})"
    if tree.root.name != WORKSPACE_MEMORY:
        return None
    # The workspace's own memory folder (<workspace>/memory/: its daily logs, its notes and,
    # in some, a MEMORY.md of their own), which that agent searches; only names are asked.
    held = workspace_files_in(tree.root.parent)
    if a_workspace(held):
        return f"the memory folder of an OpenClaw agent's workspace ({', '.join(held[:3])})"
    return None
