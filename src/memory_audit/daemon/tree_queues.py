"""Changed files waiting for their secret scan: one queue per tree, each with its own worker.

Trees do not wait for each other. A tree's changes are scanned one batch at a time, by
a worker of that tree alone, so a file that takes seconds to scan delays only the
alerts of its own tree; changed again meanwhile, it waits in that tree's queue and is
scanned once more when the scan in progress ends (once, however many changes came).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any

# Scans a tree's batch; returns the paths to hold until the tree's next change (those it
# could not scan yet, e.g. while the secret rules are unavailable), usually none.
ScanBatch = Callable[[Path, set[Path]], Awaitable[set[Path]]]
Spawn = Callable[[Coroutine[Any, Any, Any]], None]


class TreeQueues:
    def __init__(self, scan: ScanBatch, spawn: Spawn) -> None:
        self._scan = scan
        self._spawn = spawn
        self._waiting: dict[Path, set[Path]] = {}
        self._working: set[Path] = set()  # trees whose worker is running

    def add(self, root: Path, paths: Iterable[Path]) -> None:
        """Queue ``paths`` of the tree at ``root``; its worker starts if it is not running."""
        self._waiting.setdefault(root, set()).update(paths)
        if root not in self._working and self._waiting[root]:
            self._working.add(root)
            self._spawn(self._drain(root))

    async def _drain(self, root: Path) -> None:
        try:
            while batch := self._waiting.pop(root, None):
                held = await self._scan(root, batch)
                if held:
                    self._waiting.setdefault(root, set()).update(held)
                    return  # tried again with this tree's next change
        finally:
            self._working.discard(root)


def tree_of(path: Path, roots: Iterable[Path]) -> Path | None:
    """The watched tree ``path`` belongs to: the deepest root holding it, or None."""
    return max(
        (r for r in roots if path.is_relative_to(r)), key=lambda r: len(r.parts), default=None
    )
