"""Where a tree belongs. Kept apart from the tree loader so that light commands
(the session hook) can locate trees without importing YAML or the checks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memory_audit.model.stores import AgentStore


@dataclass(frozen=True)
class ProjectLocation:
    """Where a tree belongs: its slug, the located project folder, its transcripts."""

    slug: str | None = None
    project_path: Path | None = None
    transcripts_dir: Path | None = None
    agent: AgentStore | None = None  # the agent whose memory this is (None: auto memory)
    # kept in a dotfiles or Claude configuration repository, whose project is not located: a
    # copy of the user's memory, unless Claude Code loads it from there
    in_config_repository: bool = False


# A repository that keeps Claude Code's own files (dotfiles, a synced ~/.claude, a memory
# store) is not the project the memory is about.
CONFIG_REPOSITORY_WORDS = ("dotfiles", "dot-files")
CONFIG_REPOSITORY_PREFIXES = ("claude", ".claude", "my-claude")
CONFIG_NAME_PARTS = ("config", "settings", "stuff", "common", "memory", "home", "sync")
CLAUDE_HOME_MARKERS = ("CLAUDE.md", "commands", "agents", "skills", "hooks", "rules")


def is_config_repository(repo: Path, tree: Path, remotes: Iterable[str] = ()) -> bool:
    """True when the git repository at ``repo`` holding ``tree`` is not a project.

    That is: the memory folder is the repository itself; the repository's name or
    remote says dotfiles or Claude configuration; or the tree sits in a top-level
    beside Claude Code's own settings (a synced ``~/.claude``).
    """
    if tree == repo:
        return True
    names = [repo.name, *(name for url in remotes for name in _repository_names(url))]
    return any(_config_name(name) for name in names) or _looks_like_claude_home(tree.parent)


def _repository_names(url: str) -> list[str]:
    """The last two parts of a remote: owner and name (``git@host:me/dotfiles.git``)."""
    parts = url.rstrip("/").replace(":", "/").split("/")[-2:]
    return [part.removesuffix(".git") for part in parts]


def _config_name(name: str) -> bool:
    lowered = name.lower()
    if any(word in lowered for word in CONFIG_REPOSITORY_WORDS):
        return True
    if lowered in ("claude", ".claude"):
        return True
    return lowered.startswith(CONFIG_REPOSITORY_PREFIXES) and any(
        part in lowered for part in CONFIG_NAME_PARTS
    )


def _looks_like_claude_home(folder: Path) -> bool:
    """``settings.json`` beside ``CLAUDE.md`` or Claude Code's folders, outside ``.claude``."""
    if folder.name == ".claude" or not (folder / "settings.json").is_file():
        return False  # a project's own .claude/ folder: the project is its parent
    return any((folder / name).exists() for name in CLAUDE_HOME_MARKERS)
