"""The registry of dimensions: id -> module, in report order.

Each module exposes ``ID``, an ``Options`` dataclass (every field defaulted;
config validates ``checks.<id>`` against it) and ``check(tree, options)``,
which yields findings (and ``Skip`` notes) and never prints or formats.
The module docstring is the user documentation of the dimension.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from memory_audit.checks import (
    bloat,
    confidence,
    corrections,
    duplicates,
    expiry,
    frontmatter,
    index_budget,
    index_drift,
    orphans,
    relations,
    secrets,
    session_recaps,
    stale_refs,
    superseded,
    usage,
)
from memory_audit.model.finding import DIMENSION_IDS, Finding, Skip
from memory_audit.tree.snapshot import MemoryTree


class Check(Protocol):
    ID: str
    Options: type[Any]
    __doc__: str | None

    def check(self, tree: MemoryTree, options: Any) -> Iterator[Finding | Skip]: ...


_MODULES: tuple[Check, ...] = (
    index_drift,
    frontmatter,
    relations,
    duplicates,
    stale_refs,
    orphans,
    superseded,
    session_recaps,
    secrets,
    bloat,
    index_budget,
    expiry,
    confidence,
    corrections,
    usage,
)

REGISTRY: dict[str, Check] = {
    dimension: module
    for dimension in DIMENSION_IDS
    for module in _MODULES
    if dimension == module.ID
}
