"""Recognising a path as the redaction boundary shows it.

A secret in a file, folder or project name is shown as ``<head>...<tail>``
(``secrets/boundary.py``). What a user copies from a report (``--project`` with
a masked slug) and what a report is keyed by (a masked tree root) must still
find the real path: a real path is shown as ``written`` when each masked run
stands for at least one character of it, with the visible pieces in order.
Light (no imports): the session hook uses it.
"""

from __future__ import annotations

import os

MASK = "..."  # what the redaction boundary puts where it took a secret out


def shows(written: str, real: str) -> bool:
    """``written`` is ``real``, or ``real`` with a secret in it masked."""
    if os.path.normpath(written) == real:
        return True
    pieces = written.split(MASK)
    if len(pieces) < 2 or not real.startswith(pieces[0]) or not real.endswith(pieces[-1]):
        return False
    at, end = len(pieces[0]), len(real) - len(pieces[-1])
    for piece in pieces[1:-1]:
        found = real.find(piece, at + 1, end)  # the mask before it took a character
        if found == -1:
            return False
        at = found + len(piece)
    return at < end  # the last mask took a character too
