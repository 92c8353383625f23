"""Reading a report JSON file (``review --from-report FILE``, the service's stored runs).

The file is whatever the user, or anyone who could write where they pointed, put
there: it is read as untrusted input, through :mod:`memory_audit.regular_files`. Only
a regular file is read: a FIFO is opened without waiting for a writer and refused, so
is a device (``/dev/zero`` would be read until memory runs out); a file over
:data:`MAX_REPORT_BYTES` is refused before it is read; and a document nested deeper
than any report is (:data:`MAX_DEPTH`) is refused instead of exhausting the parser's
stack. Each refusal is a sentence naming the file (exit 2), never a hang or a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory_audit.errors import UsageError
from memory_audit.regular_files import FileTooLarge, read_regular_within

# A run@1 summary of every tree: hundreds of trees of thousands of findings stay far below.
MAX_REPORT_BYTES = 256 * 1024 * 1024
# run > reports > report > findings > finding > fix > a value of the fix: 7 levels deep.
MAX_DEPTH = 64


class ReportUnreadable(UsageError):
    """A report file that is not one: the message says why."""


def read_report_json(path: Path, max_bytes: int = MAX_REPORT_BYTES) -> Any:
    """The JSON document in ``path``, or :class:`ReportUnreadable`."""
    data = _read_regular_file(path, max_bytes)
    try:
        document = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise _refused(path, f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # not UTF-8, or not JSON: the message names a place, no text
        raise _refused(path, str(exc)) from None
    if _deeper_than(document, MAX_DEPTH):
        raise _refused(path, f"nested more than {MAX_DEPTH} levels deep")
    return document


def _read_regular_file(path: Path, max_bytes: int) -> bytes:
    try:
        return read_regular_within(path, max_bytes)
    except FileTooLarge as exc:
        size = f"{exc.size:,} bytes, " if exc.size is not None else ""  # None: it grew
        raise _refused(path, f"{size}over the {max_bytes:,}-byte limit") from None
    except OSError as exc:  # NotRegularFile's is "not a regular file"
        raise _refused(path, exc.strerror or type(exc).__name__) from None


def _deeper_than(document: Any, limit: int) -> bool:
    """True when lists and objects nest more than ``limit`` deep (walked with a list,
    not the call stack)."""
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if not isinstance(value, dict | list):
            continue
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        pending.extend((child, depth + 1) for child in children)
    return False


def _refused(path: Path, why: str) -> ReportUnreadable:
    return ReportUnreadable(f"cannot read report {path}: {why}")
