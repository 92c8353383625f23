"""A chat log in a memory tree, read for secrets again only where it grew.

A chat gateway's raw log under ``memory/`` grows by a record at a time, and the service
scanned it whole at each change: a 4 MB log that gets a record every few seconds kept a
quarter of a core busy. Where a JSON Lines file (``.jsonl``, ``.ndjson``) only grew since
this reader last read it (its text then is the start of its text now), the rules read its
new part, from the start of a line :data:`CONTEXT` characters before the old end (what the
rules read around a value), with every line before it left blank: line numbers stay the
file's. What was read before is not read again: its secrets were alerted for, or kept, at
that read.

The rules read some context from anywhere above a value: the heading it sits under, a
table's header row, an open code fence. A line that is one JSON record (it starts with
``{`` or ``[``) holds none of them, so only a file whose every line is a record is read
from its growth. Any other file (a Markdown note, a text log, a JSON document), a file
rewritten, truncated or replaced, one read with other rules or not seen yet by this
reader, is read whole; so is every file the audit reads.
"""

from __future__ import annotations

import hashlib
import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

from memory_audit.secrets.file_text import rules_text
from memory_audit.secrets.scanner import Scanner

CONTEXT = 16 * 1024  # characters before the old end a new part's reading starts from
MAX_FILES = 512  # files remembered per reader; the least recently read is forgotten
JSON_LINES = (".jsonl", ".ndjson")
# a line whose first character that is not blank opens no JSON record: Markdown or prose
NOT_A_RECORD = re.compile(r"(?m)^[ \t]*[^\s{\[]")


@dataclass(frozen=True)
class Seen:
    """What a reader read of a file's text: how long it was, its digest, the rules, and
    whether each of its lines was a JSON record."""

    length: int
    digest: bytes
    # the rules it was read with, not kept alive by it (a reload's old rules are let go)
    scanner: weakref.ref[Scanner]
    records: bool


def window(path: str, raw: str, last: Seen | None, scanner: Scanner) -> tuple[int, int, Seen]:
    """What the rules read of ``raw``, the text of the file at tree path ``path``:
    ``raw[start:end]`` (the whole text, or nothing new when ``start == end``), and what is
    seen now. Only a JSON Lines text of records alone, whose start is ``last``'s text read
    with the same rules, is read from later than its start, and up to its last whole line:
    a record still being written (a token half appended) waits for its newline."""
    digest = hashlib.blake2b(digest_size=16)
    grew = last is not None and last.scanner() is scanner and len(raw) >= last.length
    if last is not None and grew:
        digest.update(_utf8(raw[: last.length]))
        if digest.digest() == last.digest:
            whole = raw.rfind("\n") + 1  # the end of the last whole line
            if whole <= last.length:  # nothing new but a record still being written
                return last.length, last.length, last
            records = (
                last.records
                and NOT_A_RECORD.search(raw, line_start(raw, last.length), whole) is None
            )
            if records:
                digest.update(_utf8(raw[last.length : whole]))
                seen = Seen(whole, digest.digest(), weakref.ref(scanner), records)
                return line_start(raw, max(0, last.length - CONTEXT)), whole, seen
        digest = hashlib.blake2b(digest_size=16)
    digest.update(_utf8(raw))
    records = path.endswith(JSON_LINES) and NOT_A_RECORD.search(raw) is None
    return 0, len(raw), Seen(len(raw), digest.digest(), weakref.ref(scanner), records)


def line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def rules_text_from(path: str, raw: str, start: int, end: int) -> str:
    """``raw[start:end]`` as the rules read it (:func:`rules_text`), ``start`` a line's
    start, the lines before it blank: a match's line is its line in the file."""
    if start == 0 and end == len(raw):
        return rules_text(path, raw)
    return "\n" * raw.count("\n", 0, start) + rules_text(path, raw[start:end])


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


class GrownFiles:
    """One reader's memory of the files it read (a path -> what it saw), so its next read
    of a log that only grew reads the new part. Safe to share between threads."""

    def __init__(self) -> None:
        self._seen: OrderedDict[str, Seen] = OrderedDict()
        self._lock = threading.Lock()

    def read(self, key: str, path: str, raw: str, scanner: Scanner) -> tuple[str, Seen]:
        """The text the rules read of ``raw``, the file at ``key`` (``path``: its tree
        path), and what it sees; it is the reader's next start only once :meth:`keep` is
        told (when what the read found was acted on: alerts raised)."""
        with self._lock:
            last = self._seen.get(key)
        start, end, seen = window(path, raw, last, scanner)
        return rules_text_from(path, raw, start, end), seen

    def keep(self, key: str, seen: Seen) -> None:
        with self._lock:
            self._seen.pop(key, None)
            self._seen[key] = seen
            while len(self._seen) > MAX_FILES:
                self._seen.popitem(last=False)
