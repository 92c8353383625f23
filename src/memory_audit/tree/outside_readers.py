"""Files outside a memory tree that lead Claude Code into it.

Claude Code reads the project's ``CLAUDE.md`` and ``AGENTS.md`` every session, and an
agent or skill file when it runs that agent or skill: a memory one of them links or
names by path (``memory/roadmap.md`` in a table of key files, an agent's working file
``~/.claude/projects/<slug>/memory/profile.md``) is read from there, index line or not.

Bounded: at most ``MAX_FILES`` files are read per tree, regular files only, each up to
``MAX_BYTES``; nothing is written. A symbolic link is followed only where it stays in the
folder it was found in (``CLAUDE.md`` -> ``AGENTS.md`` beside it, as projects share one
file between tools): a ``.claude`` folder or instruction file linked from elsewhere on
disk is not read (DESIGN §6: what lies outside is checked for existence only).
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_audit.config.paths import claude_home
from memory_audit.tree.markdown import is_external, parse_markdown
from memory_audit.tree.markdown_spans import without_code_spans
from memory_audit.tree.real_folder import RealFolder
from memory_audit.tree.walk import read_text

INSTRUCTION_NAMES = ("CLAUDE.md", "AGENTS.md", "CLAUDE.local.md", ".claude/CLAUDE.md")
ANCESTORS = 6  # folders above a tree whose instruction files are read
MAX_FILES = 32
MAX_BYTES = 256 * 1024
RUNNABLE_FOLDERS = ("agents", "skills")  # what a memory links that Claude Code runs
# A folder named by its path with the trailing slash (``.claude/memory/`` in "this file plus
# `.claude/memory/` are the project's instructions"); not inside a longer path or an address.
FOLDER_NAMED = re.compile(r"(?<![\w./:-])((?:[\w.-]+/)+)(?![\w.*-])")
# A line that names the folder to keep it out ("do not commit `.claude/memory/`", "lint
# excludes it"): no word that sessions read it.
FOLDER_KEPT_OUT = re.compile(
    r"(?i)\b(?:do not|don't|never|ignored?|exclude[sd]?|excluding|git-?ignored|gitignore)\b"
)


def instruction_files(root: Path, project: Path | None) -> list[Path]:
    """CLAUDE.md and AGENTS.md of the folders above the tree (up to the project, when the
    tree is inside it) and of the project."""
    folders: list[Path] = []
    for parent in list(root.parents)[:ANCESTORS]:
        if parent == Path(parent.anchor):
            break  # Claude Code reads CLAUDE.md in the folders up to the root, not in it
        folders.append(parent)
        if parent == project:
            break
    if project is not None:
        folders.append(project)
    return [path for folder in dict.fromkeys(folders) for path in _instructions_in(folder)]


def _instructions_in(folder: Path) -> list[Path]:
    real = RealFolder(folder)
    return [folder / n for n in INSTRUCTION_NAMES if _stays_in(folder / n, real)]


def project_runnables(project: Path | None) -> list[Path]:
    """The project's agent and skill files (``.claude/agents/*.md``,
    ``.claude/skills/*/SKILL.md``): Claude Code reads one each time it runs that agent or
    skill, so a memory one of them names is read from there (an agent's blacklist in its
    memory folder), linked from the memory or not. At most ``MAX_FILES``, by name."""
    if project is None:
        return []
    claude = project / ".claude"
    found: list[Path] = []
    for pattern in ("agents/*.md", "skills/*/SKILL.md"):
        try:
            found += sorted(claude.glob(pattern))
        except OSError:
            continue
    real = RealFolder(project)
    return [path for path in found if _stays_in(path, real)][:MAX_FILES]


def _stays_in(path: Path, folder: RealFolder) -> bool:
    """Whether ``path`` is a regular file whose real path is still inside ``folder``."""
    return path.is_file() and folder.holds(path)


def named_paths(path: Path) -> tuple[str, ...]:
    """The file paths ``path`` links, names in a code span (``memory/notes.md``) or imports.
    ``path`` is one its callers found allowed, links and all (``CLAUDE.md`` -> ``AGENTS.md``
    beside it): the file it leads to is read, as ``read_text`` follows no link itself."""
    return paths_in(path).named


@dataclass(frozen=True)
class OutsidePaths:
    named: tuple[str, ...] = ()  # linked, named in a code span, or imported
    imported: tuple[str, ...] = ()  # imported (``@memory/plan.md``): loaded whole
    folders: frozenset[str] = frozenset()  # folders named by path (``.claude/memory``)


def paths_in(path: Path) -> OutsidePaths:
    """What ``path`` names and what it imports, from one read of it."""
    result = read_text(Path(os.path.realpath(path)), MAX_BYTES)
    if result.text is None:
        return OutsidePaths()
    lines = result.text.splitlines()
    document = parse_markdown(lines)
    linked = [
        link.target for link in document.links if not link.wiki and not is_external(link.target)
    ]
    imported = tuple(_imported(lines, document.code_lines))
    folders = frozenset(
        os.path.normpath(found.group(1))
        for line in lines
        if "/" in line and not FOLDER_KEPT_OUT.search(line)
        for found in FOLDER_NAMED.finditer(line)
    )
    return OutsidePaths((*linked, *imported), imported, folders)


def _imported(lines: list[str], code: Collection[int]) -> Iterator[str]:
    """The ``.md`` files a CLAUDE.md imports (``- @.claude/memory/plan.md — the plan``):
    Claude Code loads each into every session; not in code blocks or code spans, nor after
    a bracket (``(@x.md)``)."""
    for number, line in enumerate(lines, 1):
        if "@" not in line or number in code:
            continue
        # as Claude Code reads them: a word that starts with "@", outside code spans
        for word in without_code_spans(line).split():
            target = word[1:].rstrip(".,;:!?)").partition("#")[0]
            if word.startswith("@") and target.endswith(".md"):
                yield target


def readable_from(root: Path, project: Path | None) -> tuple[RealFolder, ...]:
    """The folders an agent or skill file a memory links may be read in: the project, the
    folder holding the tree (a copy of ``~/.claude``), and Claude Code's own folder. A link
    to anywhere else is checked for existence only, never read (DESIGN §6)."""
    folders = [root.parent, *((project,) if project is not None else ()), claude_home()]
    return tuple(RealFolder(folder) for folder in folders)


def runnable(absolute: str) -> bool:
    """An agent or skill file (``.../agents/reviewer.md``, ``.../skills/x/SKILL.md``)."""
    parts = absolute.split(os.sep)
    return absolute.endswith(".md") and any(folder in parts[:-1] for folder in RUNNABLE_FOLDERS)


def runnable_copies(absolute: str, root: Path, project: Path | None) -> Iterator[Path]:
    """Where a repository keeps the agent or skill a link reaches once installed
    (``../../../.claude/agents/x.md`` from ``~/.claude/projects/<slug>/memory/``): the
    folder beside the tree (a copy of ``~/.claude``), or the project's ``.claude``."""
    parts = absolute.split(os.sep)
    if ".claude" not in parts:
        return
    tail = parts[len(parts) - 1 - parts[::-1].index(".claude") + 1 :]
    bases = [root.parent, *((project / ".claude", project) if project is not None else ())]
    for base in bases:
        yield base.joinpath(*tail)


def tree_path_by_suffix(raw: str, root_name: str, present: frozenset[str]) -> str | None:
    """``/home/me/.claude/projects/-p/memory/notes.md`` names the tree's ``notes.md`` when
    the tree's folder is ``memory``: a path written where the tree is installed."""
    parts = raw.replace("\\", "/").split("/")
    for at in range(len(parts) - 2, -1, -1):
        if parts[at] == root_name:
            tail = "/".join(parts[at + 1 :])
            return tail if tail in present else None
    return None
