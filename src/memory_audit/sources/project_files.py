"""Files of a project found by name: where a file an index links was moved to.

Only names are listed: no file is read, symbolic links are not followed, version
control and dependency folders are passed over, and the walk stops after
``MAX_ENTRIES`` entries (a larger project gives no answer rather than half of one).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

MAX_ENTRIES = 50_000
PASSED_OVER = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__"})


def files_named(
    folder: Path, names: Iterable[str], *, outside: Path | None = None
) -> dict[str, list[str]] | None:
    """File name -> the paths (relative to ``folder``, sorted) of the files so named under
    ``folder``, those under ``outside`` aside; None when the walk ran past its bound."""
    wanted = set(names)
    found: dict[str, list[str]] = {name: [] for name in wanted}
    if not wanted:
        return found
    left_out = os.path.normpath(outside) if outside is not None else None
    seen = 0
    for current, folders, files in os.walk(folder, followlinks=False):
        seen += len(folders) + len(files)
        if seen > MAX_ENTRIES:
            return None
        folders[:] = sorted(
            f for f in folders if f not in PASSED_OVER and os.path.join(current, f) != left_out
        )
        for name in wanted.intersection(files):
            if os.path.isfile(os.path.join(current, name)):
                found[name].append(os.path.relpath(os.path.join(current, name), folder))
    return {name: sorted(paths) for name, paths in found.items()}
