"""A file the daemon's secret scan takes seconds over, rewritten while a test or a
benchmark measures another tree's alerts."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# 50,000 token-shaped placeholders after one non-ASCII character: 2 MB that the secret
# scan takes seconds over (each hit's offset is converted from the bytes before it) and
# that raise no alert, so the only notifications are the other trees'.
SLOW_HITS = 50_000


def slow_index(variant: int = 0) -> str:
    return f"# Index é {variant}\n" + ("ghp_" + "x" * 36 + "\n") * SLOW_HITS


@contextmanager
def rewritten(path: Path, interval: float = 0.3) -> Iterator[None]:
    """``path`` rewritten every ``interval`` seconds, on a thread, while the block runs."""
    stop = threading.Event()
    texts = [slow_index(0), slow_index(1)]

    def rewrite() -> None:
        turn = 0
        while not stop.wait(interval):
            path.write_text(texts[turn % 2])
            turn += 1

    writer = threading.Thread(target=rewrite, daemon=True)
    writer.start()
    try:
        yield
    finally:
        stop.set()
        writer.join()
