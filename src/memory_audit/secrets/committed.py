"""Memory files a git repository tracks: a value in one of them is in the repository's
history too, which redacting the file leaves as it is. Their owner has to change the value
(rotate the key, change the password) before the redaction means anything.
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_audit.sources.git import project_listing


def committed_files(tree_root: Path) -> frozenset[str]:
    """The tree's files (paths relative to ``tree_root``) that the repository it lies in
    tracks; empty when it lies in none (nor in the home folder's: dotfiles, not history a
    project publishes)."""
    found = project_listing(tree_root)
    if found is None:
        return frozenset()
    root, listing = found
    inside = os.path.relpath(os.path.realpath(tree_root), root)
    if inside.startswith(".."):
        return frozenset()
    prefix = "" if inside == "." else inside.replace(os.sep, "/") + "/"
    return frozenset(
        path.removeprefix(prefix) for path in listing.split("\0") if path.startswith(prefix)
    )
