"""Findings for memories off Claude Code's frontmatter schema: file by file, or once for
the cause they share (see ``note_conventions``). The ``frontmatter`` dimension's."""

from __future__ import annotations

from collections.abc import Iterator

from memory_audit.analysis.dated_series import shown
from memory_audit.analysis.note_conventions import (
    OwnConvention,
    dated_series,
    other_kind_folders,
    unfenced_fields,
)
from memory_audit.model.finding import Finding, examples, listed, make_finding
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.memory_file import MemoryFile

CLAUDE_FIELDS = ("name", "description", "type")
NONE_AT_ALL = 3  # this many files, none with frontmatter: one finding for the folder
# What an orphan's message says of a file with no block either: the engine drops that
# file's own `no-frontmatter` finding when it sees this (one cause, one finding). Kept
# here, not in the orphans check: a secrets-only audit imports no other check.
UNSAVED = "and no frontmatter either"
UNSAVED_FLOOD = 10  # more such files than this, none in a folder or series: one finding
SHOWN_UNSAVED = 5  # of those, the paths its message names


def folder_without_blocks(bare: int, memories: list[MemoryFile]) -> bool:
    """Whether ``frontmatter`` reports the folder once (``none_anywhere``): this many
    files without a block, and no memory with one."""
    return bare >= NONE_AT_ALL and not any(m.frontmatter_present for m in memories)


def bare_findings(
    dimension: str, bare: list[MemoryFile], memories: list[MemoryFile], groups_only: bool = False
) -> Iterator[Finding]:
    """A finding per file without frontmatter, or one per series or folder they make
    (``groups_only``: the series and folders alone, no file's own)."""
    grouped: set[str] = set()
    for name, files in sorted(dated_series(bare, memories).items()):
        grouped.update(m.path for m in files)
        yield _group(
            dimension, files, f"series:{name}", _series_message(name, files), SERIES_SUGGESTION
        )
    rest = [m for m in bare if m.path not in grouped]
    for folder, files in sorted(other_kind_folders(rest, memories).items()):
        grouped.update(m.path for m in files)
        yield _group(
            dimension, files, f"folder:{folder}", _folder_message(folder, files), FOLDER_SUGGESTION
        )
    if not groups_only:
        yield from (_no_frontmatter(dimension, m) for m in bare if m.path not in grouped)


def _series_message(name: str, files: list[MemoryFile]) -> str:
    return (
        f"{len(files)} files of one dated series (`{shown(name)}`) have no frontmatter: a tool or a"
        " schedule writes them, not a session saving a memory"
    )


def _folder_message(folder: str, files: list[MemoryFile]) -> str:
    count = "the file" if len(files) == 1 else f"the {len(files)} files"
    return (
        f"{count} in `{folder}/` {'has' if len(files) == 1 else 'have'} no frontmatter, unlike"
        " the rest of the tree: documents of another kind, seen by discovery only by name"
    )


def _group(
    dimension: str, files: list[MemoryFile], key: str, message: str, suggestion: str
) -> Finding:
    return make_finding(
        dimension,
        "no-frontmatter",
        files[0].path,
        1,
        message,
        suggestion,
        key=key,
        related=tuple(m.path for m in files[1:]),
        level="suggestion",
    )


def text_blocks_finding(dimension: str, files: list[MemoryFile], total: int) -> Finding:
    """Blocks YAML reads as one text, most of the folder: the format of what writes them."""
    shown = examples([m.path for m in files])
    return make_finding(
        dimension,
        "frontmatter-not-mapping",
        files[0].path,
        1,
        f"{len(files)} of {total} memories write their block as lines YAML reads as one text"
        f" (`key:value` with no space after the colon: no fields for Claude Code), e.g. {shown};"
        " this folder keeps its own format",
        "if Claude Code should recall these files, have what writes them put a space after each"
        " colon (`name: ...`); if the folder is read another way, nothing to do",
        key="text-blocks",
        related=tuple(m.path for m in files[1:]),
        level="suggestion",
    )


def own_convention_finding(dimension: str, own: OwnConvention) -> Finding:
    members = own.members
    parts = [f"{len(own.bare)} without frontmatter"] if own.bare else []
    if own.other:
        fields = ", ".join(own.other_fields())
        parts.append(
            f"{len(own.other)} with a block of another schema ({fields}; no name or description)"
        )
    shown = ", ".join(m.path for m in members[:3]) + (", …" if len(members) > 3 else "")
    return make_finding(
        dimension,
        "own-schema",
        members[0].path,
        1,
        f"{len(members)} of {own.total} memories do not follow Claude Code's frontmatter schema"
        f" (name, description, type): {'; '.join(parts)} (e.g. {shown}); this folder keeps"
        " its own convention",
        "if Claude Code should recall these files, give each a --- block with name,"
        " description and type (other fields can stay); if the folder is read another way"
        " (its index, a CLAUDE.md), nothing to do",
        key="own-schema",
        related=tuple(m.path for m in members[1:]),
        level="suggestion",
    )


SERIES_SUGGESTION = (
    "if sessions should recall them, have what writes them add a --- block with name,"
    " description and type; else keep them outside the memory folder"
)
FOLDER_SUGGESTION = (
    "if sessions should recall them, give each a --- block with name, description and type;"
    " if they are read through the index or by path, nothing to do"
)


def none_anywhere(dimension: str, bare: list[MemoryFile]) -> Finding:
    return make_finding(
        dimension,
        "no-frontmatter",
        bare[0].path,
        1,
        f"none of the {len(bare)} files has frontmatter: Claude Code's discovery sees only"
        " their names (is this folder written by Claude Code?)",
        "if it is a Claude Code memory folder, add a --- block with name, description and"
        " type to each file; if not, audit only the folders Claude Code writes",
        key="no-frontmatter-anywhere",
        related=tuple(m.path for m in bare[1:]),
        level="suggestion",
    )


def _no_frontmatter(dimension: str, memory: MemoryFile) -> Finding:
    count, keys = unfenced_fields(memory.lines)
    if count:
        return _unfenced(dimension, memory, count, keys)
    return make_finding(
        dimension,
        "no-frontmatter",
        memory.path,
        1,
        "no frontmatter: discovery cannot see its name, description or type",
        "add a --- block with name, description and type at the top of the file",
        fix={"action": "add-frontmatter", "path": memory.path},
    )


def _unfenced(dimension: str, memory: MemoryFile, count: int, keys: frozenset[str]) -> Finding:
    missing = [k for k in CLAUDE_FIELDS if k not in keys]
    lines = "line 1" if count == 1 else f"lines 1–{count}"
    add = f" and add {', '.join(f'`{k}`' for k in missing)}" if missing else ""
    return make_finding(
        dimension,
        "no-frontmatter",
        memory.path,
        1,
        f"{lines} {'holds' if count == 1 else 'hold'}"
        f" {', '.join(f'`{k}`' for k in sorted(keys & {'name', 'description'}))}"
        " without --- fences: discovery reads no frontmatter here",
        f"wrap {lines} in --- fences{add}",
        fix={"action": "add-frontmatter", "path": memory.path, "fence": count},
    )


def unsaved_list(dimension: str, paths: list[str]) -> Finding:
    """Many unreachable files no session saved (no ``---`` block): one cause, one finding
    on the index listing them, with no fix. So many are seldom stubs: more often another
    system's files kept in the folder (a hook's session logs, a tool's notes with their own
    header), which only the owner can sort out."""
    return make_finding(
        dimension,
        "orphan-candidate",
        INDEX_NAME,
        None,
        f"{len(paths)} files are not reachable from MEMORY.md, {UNSAVED}:"
        f" {listed(paths, SHOWN_UNSAVED)}",
        "if another tool writes them (a hook's logs, its own notes), leave them or move them"
        " out of the memory folder; the ones that are memories to keep want a --- block with"
        " name, description and type and an index line",
        judgment=True,
        related=tuple(paths),
        key="many-unsaved",
        level="suggestion",
    )
