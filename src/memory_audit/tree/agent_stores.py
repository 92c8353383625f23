"""Where agents keep their memory (Claude Code 2.1.33+).

An agent whose frontmatter says ``memory: user``, ``project`` or ``local`` keeps a tree
of the usual shape in ``~/.claude/agent-memory/<agent>/``,
``<project>/.claude/agent-memory/<agent>/`` (committed with the project) or
``<project>/.claude/agent-memory-local/<agent>/`` (git-ignored). A plugin agent's
``plugin:agent`` becomes ``plugin-agent`` in the folder name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from memory_audit.config.paths import claude_home
from memory_audit.model.stores import AgentScope, AgentStore

USER_FOLDER = "agent-memory"
SCOPE_FOLDERS: dict[AgentScope, str] = {"project": "agent-memory", "local": "agent-memory-local"}
PROJECT_CONFIG = ".claude"
NOT_NAMES = frozenset({"", ".", ".."})


def agent_folder_name(agent: str) -> str | None:
    """The folder an agent's memory lives in, or None for a name that would leave the
    agent-memory folder (a path separator, ``.`` or ``..``, a NUL)."""
    name = agent.replace(":", "-")
    if name in NOT_NAMES or any(c in name for c in "/\\\0"):
        return None
    return name


def agent_store_path(agent: str, scope: AgentScope, project: Path | None = None) -> Path | None:
    """Where ``agent``'s memory of ``scope`` is; None when the name or project cannot say."""
    folder = agent_folder_name(agent)
    if folder is None:
        return None
    if scope == "user":
        return claude_home() / USER_FOLDER / folder
    if project is None:
        return None
    return project / PROJECT_CONFIG / SCOPE_FOLDERS[scope] / folder


def agent_of(root: Path) -> tuple[AgentStore, Path | None] | None:
    """The agent (and, for project and local scopes, the project folder) a tree is the
    memory of, read from where it is; None for any other tree."""
    parent = root.absolute().parent
    scope = _stores_scope(parent)
    if scope is None:
        return None
    return AgentStore(root.name, scope), None if scope == "user" else parent.parent.parent


def stores_in(folder: Path) -> list[str]:
    """The names of the agents' stores ``folder`` holds when it is a folder of them (the
    user's ``agent-memory`` in Claude Code's folder, a project's ``.claude/agent-memory``
    or ``-local``): its real folders, as :func:`agent_stores` lists them; none for any
    other folder."""
    if _stores_scope(folder.absolute()) is None:
        return []
    return [store.name for store in _folders_in(folder)]


def _stores_scope(folder: Path) -> AgentScope | None:
    """The scope of the agents' stores ``folder`` (absolute) would hold, by its name and
    place; None when it holds none."""
    if folder.name == USER_FOLDER and _same(folder.parent, claude_home()):
        return "user"
    if folder.parent.name != PROJECT_CONFIG:
        return None
    return next((scope for scope, name in SCOPE_FOLDERS.items() if folder.name == name), None)


def agent_stores(projects: Iterable[Path]) -> Iterator[Path]:
    """Every agent memory folder: the user's, then each project's (committed, local).
    A project folder that no longer exists, or cannot be read, has none."""
    yield from _folders_in(claude_home() / USER_FOLDER)
    for project in projects:
        for folder in SCOPE_FOLDERS.values():
            yield from _folders_in(project / PROJECT_CONFIG / folder)


def _folders_in(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError:  # absent, gone, or not readable: no stores there
        return []
    return [e for e in entries if not e.name.startswith(".") and _is_real_folder(e)]


def _is_real_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink()
    except OSError:
        return False


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
