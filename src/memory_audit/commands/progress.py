"""A progress line on stderr while an audit takes long enough to wonder (over a second).

Only on a terminal; the line is rewritten in place and erased when the work is
done, so nothing of it stays in the scrollback or reaches a pipe.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from memory_audit.tree.discovery import TreeRef

DELAY_SECONDS = 1.0
CLEAR = "\r\033[K"


class Progress:
    def __init__(
        self,
        stream: TextIO,
        total: int,
        *,
        transcripts_per_tree: int | None,
        clock: Callable[[], float] = time.monotonic,
        shown: Callable[[str], str] = str,
    ) -> None:
        self.stream = stream
        self.label = shown  # a tree's label as shown: a secret in a folder's name masked
        self.total = total
        self.per_tree = transcripts_per_tree  # the usage check reads the newest N; None: no usage
        self.clock = clock
        self.started = clock()
        self.transcripts = 0
        self.shown = False
        self._last: TreeRef | None = None

    @classmethod
    def on(
        cls,
        stream: TextIO,
        total: int,
        *,
        transcripts_per_tree: int | None,
        shown: Callable[[str], str] = str,
    ) -> Progress | None:
        if not stream.isatty():
            return None
        return cls(stream, total, transcripts_per_tree=transcripts_per_tree, shown=shown)

    def __call__(self, done: int, next_ref: TreeRef) -> None:
        self._count(self._last)
        self._last = next_ref
        if self.clock() - self.started < DELAY_SECONDS:
            return
        text = f"auditing: {done}/{self.total} trees done"
        if self.per_tree is not None:
            text += f", {self.transcripts} transcripts read"
        self.stream.write(f"{CLEAR}{text} (now {self.label(next_ref.label)[-40:]})")
        self.stream.flush()
        self.shown = True

    def finish(self) -> None:
        if self.shown:
            self.stream.write(CLEAR)
            self.stream.flush()

    def _count(self, ref: TreeRef | None) -> None:
        folder = ref.location.transcripts_dir if ref is not None else None
        if self.per_tree is not None and folder is not None:
            try:
                found = sum(1 for _ in folder.glob("*.jsonl"))
            except OSError:
                return
            self.transcripts += min(found, self.per_tree)
