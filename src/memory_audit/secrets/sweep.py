"""Scanning many texts at once: a large sweep is shared with one forked process.

``memory-audit audit --check secrets`` over a few megabytes of memory spends
most of its time in the scan. On a machine with two or more cores this process
scans the first sixteenth of the text, then forks: the child inherits the automata
RE2 built for it (each process built them all again before), scans the last part
while this process scans the middle one (the two of about the same size), and sends
back its matches (positions, redacted forms and fingerprints: never a secret) as
JSON through a pipe. The result is the one a scan of each text in turn gives, in the
same order.

Only a single-threaded process forks (the daemon's worker threads never do),
and only for at least :data:`PARALLEL_BYTES` of text; when anything goes wrong
with the child, this process scans its half itself.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections.abc import Callable, Sequence
from typing import NoReturn, TypeVar

from memory_audit.kernel_ties import die_with_parent_on_linux
from memory_audit.secrets.scanner import Scanner, SecretMatch

# A text's results as they cross the pipe: numbers and strings.
Row = list[str | int]
T = TypeVar("T")
# Below this much text a fork (and a second DFA for RE2 to build) costs more than it saves.
PARALLEL_BYTES = 2_000_000
# The share of the text this process works on before it forks: the DFA states RE2 builds
# for it (the keyword set's, the rules') are the child's too, where each process built
# them all again; the rest is cut in two so that both end together. On the sweep corpus
# an eighth saved 7.6% of the instructions and made the path the run waits for (before
# the fork, then this process) 2.4% longer; a sixteenth 6.4% and 1.2% (callgrind).
WARM_SHARE = 1 / 16


def scan_all(
    scanner: Scanner, texts: Sequence[str], parallel_bytes: int = PARALLEL_BYTES
) -> list[list[SecretMatch]]:
    """``[scanner.scan(text) for text in texts]``, on two cores when it pays."""
    return map_all(scanner.scan, texts, _match_rows, _matches, parallel_bytes)


def map_all(
    work: Callable[[str], list[T]],
    texts: Sequence[str],
    to_rows: Callable[[list[T]], list[Row]],
    from_rows: Callable[[list[Row]], list[T]],
    parallel_bytes: int = PARALLEL_BYTES,
) -> list[list[T]]:
    """``[work(text) for text in texts]``, on two cores when it pays. The child's results
    cross the pipe as rows of numbers and strings (``to_rows``, then ``from_rows``: never a
    secret); this process's own results are never converted."""
    if not _may_fork(sum(len(t) for t in texts), parallel_bytes) or len(texts) < 2:
        return [work(text) for text in texts]
    warm = _at_share(texts, WARM_SHARE)
    split = max(warm, _at_share(texts, (1 + WARM_SHARE) / 2))
    first = [work(text) for text in texts[:warm]]
    reader, writer = os.pipe()
    parent = os.getpid()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's lines run in another process
        _child(lambda text: to_rows(work(text)), texts[split:], reader, writer, parent)
    os.close(writer)
    first += [work(text) for text in texts[warm:split]]
    with os.fdopen(reader, "rb") as pipe:
        sent = pipe.read()
    _, status = os.waitpid(child, 0)
    second = _converted(_decoded(sent) if status == 0 else None, from_rows)
    if second is None or len(second) != len(texts) - split:
        second = [work(text) for text in texts[split:]]
    return first + second


def _converted(
    rows: list[list[Row]] | None, from_rows: Callable[[list[Row]], list[T]]
) -> list[list[T]] | None:
    if rows is None:
        return None
    try:
        return [from_rows(found) for found in rows]
    except (ValueError, TypeError):
        return None


def _may_fork(size: int, parallel_bytes: int) -> bool:
    if size < parallel_bytes or not hasattr(os, "fork") or threading.active_count() > 1:
        return False
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return len(cores) > 1 if cores is not None else (os.cpu_count() or 1) > 1


def _at_share(texts: Sequence[str], share: float) -> int:
    """How many first ``texts`` hold about ``share`` of their length (one at least, never
    all: the child has one text or more)."""
    total, running = sum(len(t) for t in texts), 0
    for index, text in enumerate(texts):
        running += len(text)
        if running >= total * share:
            return max(1, min(index + 1, len(texts) - 1))
    return len(texts) - 1


def _child(
    work: Callable[[str], list[Row]],
    texts: Sequence[str],
    reader: int,
    writer: int,
    parent: int,
) -> NoReturn:
    """Work, write the rows, and leave at once (no cleanup of the parent's state). Ends
    with its parent: a fork does not inherit the kernel's tie, so a daemon killed mid-audit
    (its audit child dying with it) left this worker scanning on, orphaned."""
    code = 1
    try:
        die_with_parent_on_linux()
        if os.getppid() != parent:  # the parent ended before the request above
            os._exit(1)
        os.close(reader)
        rows = [work(text) for text in texts]
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(json.dumps(rows).encode())
        code = 0
    finally:
        os._exit(code)


def _match_rows(matches: list[SecretMatch]) -> list[Row]:
    """The fields of each match in their order: ``SecretMatch(*row)`` rebuilds it."""
    return [[getattr(m, field.name) for field in dataclasses.fields(m)] for m in matches]


def _matches(rows: list[Row]) -> list[SecretMatch]:
    return [SecretMatch(*row) for row in rows]  # type: ignore[arg-type]


def _decoded(sent: bytes) -> list[list[Row]] | None:
    try:
        rows = json.loads(sent)
    except ValueError:
        return None
    return rows if isinstance(rows, list) else None
