"""Compressed data that inflates far beyond its size, built without ever holding the result."""

from __future__ import annotations

import zlib

STEP = 16 * 1024 * 1024


def bomb(inflated: int) -> bytes:
    """A zlib stream that inflates to ``inflated`` zero bytes (in 16 MB steps): one fully
    flushed block of zeros, repeated. It has no end, as a cut-off blob has none."""
    packer = zlib.compressobj(9)
    first = packer.compress(bytes(STEP)) + packer.flush(zlib.Z_FULL_FLUSH)
    return first + first[2:] * (inflated // STEP - 1)  # [2:]: the zlib header comes once
