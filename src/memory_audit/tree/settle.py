"""Settling a snapshot: every lazy parse of every file done now, one file at a time.

A memory file and the index are parsed on first use (a secrets-only run never starts
a YAML parser). A parser that raises on one file (a bug nobody has met yet) would
then raise wherever that first use happens: in the health summary, in the ordering of
findings, in ``loaded``, and take the whole tree (or, before that, the whole run)
with it. Settling runs each file's parses under a guard first: a file whose parse
raises is left out of the snapshot with an error entry naming the failure (its type
and place, never its message, which may quote the file), and everything else is
audited as usual. An index that fails is left out the same way: the tree then reads
as one whose MEMORY.md could not be read, and nothing is reported as unindexed.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any

from memory_audit.tree.index_file import INDEX_NAME, Index
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree, unreadable
from memory_audit.tree.walk import ReadError


def _computed(cls: type) -> tuple[str, ...]:
    """Every derived attribute of ``cls``: the cached parses and the properties over them.
    Read from the class, so a parse added later is settled without anyone listing it."""
    return tuple(
        name for name, value in vars(cls).items() if isinstance(value, cached_property | property)
    )


FILE_ATTRIBUTES = _computed(MemoryFile)
INDEX_ATTRIBUTES = _computed(Index)


def settled(tree: MemoryTree, *, parse: bool = True) -> MemoryTree:
    """``tree`` with every file's parses done, less the files and index whose parse
    raised. ``parse=False`` (a secrets-only run, which scans each text whole and parses
    nothing, not even into lines): the tree as read."""
    if not parse:
        return tree
    errors = list(tree.errors)
    files = {}
    for path, memory in tree.files.items():
        failure = _failure(memory, FILE_ATTRIBUTES)
        if failure is None:
            files[path] = memory
        else:
            errors.append(ReadError(path, failure))
    index = tree.index
    failure = _failure(index, INDEX_ATTRIBUTES) if index is not None else None
    if failure is not None:
        errors.append(ReadError(INDEX_NAME, failure))
        index = None
    if len(files) == len(tree.files) and index is tree.index:
        return tree
    return dataclasses.replace(tree, files=files, index=index, errors=tuple(errors))


def _failure(item: Any, attributes: tuple[str, ...]) -> str | None:
    try:
        for name in attributes:
            getattr(item, name)
    except Exception as exc:  # any bug in any reader: this file's error, not the run's
        return unreadable(exc)
    return None
