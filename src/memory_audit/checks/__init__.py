"""The registry of dimensions: the check modules, in report order.

Each module declares ``ID``, ``DIMENSION`` (title, severity, hook priority and
what it needs; see :mod:`memory_audit.model.dimension`), an ``Options``
dataclass (every field defaulted; the configuration validates ``checks.<id>``
against it) and ``check(tree, options)``, which yields findings (and ``Skip``
notes) and never prints or formats. The module docstring is the user
documentation of the dimension. Adding a dimension: one new module, one line below.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, Protocol

from memory_audit.checks import (
    bloat,
    confidence,
    corrections,
    coverage,
    descriptions,
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
from memory_audit.model.dimension import Dimension
from memory_audit.model.finding import Finding, Skip
from memory_audit.tree.snapshot import MemoryTree


class Check(Protocol):
    ID: str
    DIMENSION: Dimension
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
    descriptions,
    index_budget,
    expiry,
    confidence,
    corrections,
    usage,
    coverage,
)

REGISTRY: dict[str, Check] = {module.ID: module for module in _MODULES}
DIMENSIONS: tuple[Dimension, ...] = tuple(
    dataclasses.replace(module.DIMENSION, doc=module.__doc__ or "") for module in _MODULES
)
ORDER: dict[str, int] = {dimension.id: i for i, dimension in enumerate(DIMENSIONS)}
OPTION_TYPES: dict[str, type[Any]] = {module.ID: module.Options for module in _MODULES}
