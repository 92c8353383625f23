"""Fingerprints of one tree.

Light on purpose (``hashlib`` and ``os`` only): the session hook reads dismissals
through it at every Claude Code session start.
"""

from __future__ import annotations

import hashlib
import os


def tree_identity(root: str | os.PathLike[str]) -> str:
    """What tells one tree from another in a fingerprint: its absolute real path."""
    return os.path.realpath(os.fspath(root))


def scoped(identity: str, fingerprint: str) -> str:
    """A fingerprint of one tree: the same problem in another tree (``over-budget`` in two
    projects) is another finding, so dismissing it in one never hides the other's."""
    return hashlib.sha256(f"tree\x1f{identity}\x1f{fingerprint}".encode()).hexdigest()[:20]
