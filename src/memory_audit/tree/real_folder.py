"""Whether a path really lies inside a folder: every symbolic link on its way followed.

Files outside a tree are read only where they stay in the folder they were found in
(DESIGN §6: what lies outside is checked for existence only). A path's text says
little: ``agents/../../x.md`` climbs out, ``CLAUDE.md`` may link anywhere on disk, and the
folder itself may sit behind a link (``~/work`` -> ``/data/work``). So both sides are
compared by their real paths, the folder's resolved once.
"""

from __future__ import annotations

import os
from pathlib import Path


class RealFolder:
    """A folder by its real path, asked whether paths lie strictly inside it."""

    __slots__ = ("_prefix", "path")

    def __init__(self, folder: Path | str) -> None:
        self.path = os.path.realpath(folder)
        self._prefix = os.path.join(self.path, "")  # one separator, even for the root

    def holds(self, path: Path | str) -> bool:
        """Whether ``path``'s real path is below this folder's (not the folder itself).
        Whether anything is there is the caller's question."""
        return self.holds_real(os.path.realpath(path))

    def holds_real(self, real: str) -> bool:
        """:meth:`holds` for a path already resolved (one resolved once, asked often)."""
        return real != self.path and real.startswith(self._prefix)
