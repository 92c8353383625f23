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


def slow_index(variant: int = 0, tail: str = "", hits: int = SLOW_HITS) -> str:
    """The slow text, then ``tail`` (a secret there alerts only once a scan of it ends)."""
    return f"# Index é {variant}\n" + ("ghp_" + "x" * 36 + "\n") * hits + tail


@contextmanager
def rewritten(
    path: Path, interval: float = 0.3, tail: str = "", hits: int = SLOW_HITS
) -> Iterator[None]:
    """``path`` rewritten every ``interval`` seconds, on a thread, while the block runs
    (first at once)."""
    stop = threading.Event()
    texts = [slow_index(0, tail, hits), slow_index(1, tail, hits)]

    def rewrite() -> None:
        turn = 0
        while True:
            path.write_text(texts[turn % 2])
            turn += 1
            if stop.wait(interval):
                return

    writer = threading.Thread(target=rewrite, daemon=True)
    writer.start()
    try:
        yield
    finally:
        stop.set()
        writer.join()
