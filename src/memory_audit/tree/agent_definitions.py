"""Whether a project declares the agent whose memory a store is: an agent file's frontmatter.

Claude Code reads a project's agents from ``<project>/.claude/agents/`` (``*.md``, in
sub-folders too). One whose frontmatter says ``memory: project`` (or ``local``) keeps its
store in ``.claude/agent-memory/<name>/`` (``agent-memory-local``) and loads it at each of
its starts: the first 200 lines of the store's MEMORY.md go into the agent's system prompt.
Such a store is the live one, committed with its project, not a copy of a folder kept
elsewhere: whether anything loads its index with the cut is known.

Agent files are whatever the disk holds: each is read only when it is a regular file of
modest size, links are not followed out of the folder, and a file that cannot be read or
parsed declares nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from memory_audit.model.stores import AgentStore
from memory_audit.regular_files import read_regular_within
from memory_audit.tree.agent_stores import PROJECT_CONFIG, agent_folder_name
from memory_audit.tree.claude_yaml import ReadBy, as_mapping, parse_block
from memory_audit.tree.frontmatter_block import split_block

AGENTS_FOLDER = "agents"
MAX_AGENT_FILES = 500  # a project's agents: a few dozen at most
MAX_DEPTH = 3  # sub-folders of agents/ (a team's groups)
AGENT_FILE_BYTES = 256 * 1024  # an agent's prompt: a few kilobytes


def memory_scopes(project: Path, store: AgentStore) -> tuple[str, ...]:
    """The ``memory:`` scope each agent file of ``project`` naming the store's agent
    (``name:``, else the file's name) gives, ``""`` for none: empty when no file names it."""
    return tuple(scope for _, scope in _definitions(project, store))


def definition_files(project: Path, store: AgentStore) -> list[Path]:
    """The agent files of ``project`` that define the store's agent: its instructions, read
    at each of its starts (a memory they name by path is read from there)."""
    return [path for path, _ in _definitions(project, store)]


def _definitions(project: Path, store: AgentStore) -> Iterator[tuple[Path, str]]:
    """Each agent file naming the store's agent, with the ``memory:`` scope it gives."""
    for path in _agent_files(project / PROJECT_CONFIG / AGENTS_FOLDER):
        fields = _frontmatter(path)
        if fields is None:
            continue
        name = fields.get("name")
        named = name.strip() if isinstance(name, str) and name.strip() else path.stem
        if agent_folder_name(named) == store.name:
            memory = fields.get("memory")
            yield path, str(memory).strip() if memory is not None else ""


def unloaded_reason(store: AgentStore, scopes: tuple[str, ...]) -> str | None:
    """Why no agent loads the store, when its project's agent files (their ``scopes``, from
    :func:`memory_scopes`) say so: a file defines the store's agent and none keeps its
    memory in the store's scope. A project's agent wins over a user's of the same name, so
    no other definition loads the store. ``None`` when the project declares the store, or
    defines no agent of its name (a user's own agent may then keep it)."""
    if not scopes or store.scope in scopes:
        return None
    # Neither the agent file's path nor its `memory:` value is repeated: both come from
    # outside the tree, where the report's masking of the tree's secrets does not reach.
    kept = "keeps its memory in another scope" if any(scopes) else "gives no `memory:`"
    return (
        f"the project's agent `{store.name}` (.claude/agents) {kept}, not"
        f" `memory: {store.scope}`; a project's agent overrides a user's of its name"
    )


def _agent_files(folder: Path) -> Iterator[Path]:
    """The ``.md`` files under ``folder``, breadth first, bounded in number and depth;
    linked folders are not entered."""
    pending, count = [(folder, 0)], 0
    while pending:
        current, depth = pending.pop(0)
        try:
            with os.scandir(current) as entries:
                found = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue
        for entry in found:
            if entry.name.startswith("."):
                continue
            if entry.name.endswith(".md"):
                count += 1
                if count > MAX_AGENT_FILES:
                    return
                yield Path(entry.path)
            elif depth < MAX_DEPTH and _is_folder(entry):
                pending.append((Path(entry.path), depth + 1))


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _frontmatter(path: Path) -> dict[str, object] | None:
    try:
        text = read_regular_within(path, AGENT_FILE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    block = split_block(text.splitlines()).block
    if block is None:
        return None
    parsed = parse_block(block.text)
    if parsed.read_by is ReadBy.NEITHER:
        return None
    fields = as_mapping(parsed.value)
    return dict(fields) if fields is not None else None
