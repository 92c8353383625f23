"""File names that are not UTF-8, shown as their bytes: ``n\\xffo.md``.

Python reads such a name as text with each undecodable byte held as a lone surrogate
(``os.fsdecode``: U+DC80 to U+DCFF). The snapshot keeps that text, so the file can
still be opened, but no UTF-8 encoder takes it: a report, a JSON file, the terminal
or the session hook would fail on it. Everything that leaves the engine is escaped
here first; every writer escapes again as its last line (:mod:`memory_audit.atomic`).
"""

from __future__ import annotations

import dataclasses
from pathlib import PurePath
from typing import Any, TypeVar

from memory_audit.model.finding import Finding

T = TypeVar("T")
PLAIN = frozenset({type(None), bool, int, float})  # exact types: a subclass goes the long way

# A lone surrogate from an undecodable byte is that byte; any other is its code point.
ESCAPES: dict[int, str] = {
    **{c: f"\\u{c:04x}" for c in range(0xD800, 0xE000)},
    **{0xDC00 + b: f"\\x{b:02x}" for b in range(0x80, 0x100)},
}


def escaped(text: str) -> str:
    """``text``, with every lone surrogate escaped (the same text when it has none)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.translate(ESCAPES)
    return text


def escaped_all(value: T) -> T:
    """``value`` with every string inside it escaped: strings, paths, tuples, lists, dicts
    and frozen dataclasses (a report, a finding), rebuilt only where something changed."""
    found: Any = value
    if type(value) in PLAIN:
        return value  # most fields of a finding: nothing inside, and no branch below takes it
    if isinstance(value, str):
        found = escaped(value)
    elif isinstance(value, PurePath):
        text = str(value)
        found = value if escaped(text) is text else type(value)(escaped(text))
    elif isinstance(value, tuple | list):
        items = [escaped_all(item) for item in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            found = type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    elif isinstance(value, dict):
        pairs = [(escaped_all(k), escaped_all(v)) for k, v in value.items()]
        if any(k is not o or v is not value[o] for (k, v), o in zip(pairs, value, strict=True)):
            found = dict(pairs)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = _escaped_fields(value)
    return found  # type: ignore[no-any-return]


def encodes(text: str) -> bool:
    """True when ``text`` holds no escaped byte of a name that is not UTF-8 (a surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(finding: Finding) -> Finding:
    """``finding`` with names that are not UTF-8 escaped. Its fix is dropped then: the fix
    would write the escape (``n\\xffo.md``) where the name's bytes belong, so the finding
    is left to the user's judgment."""
    shown = escaped_all(finding)
    if shown is finding or finding.fix is None:
        return shown
    return dataclasses.replace(shown, fix=None, judgment=True)


def _escaped_fields(value: Any) -> Any:
    changes = {}
    for name in _init_fields(type(value)):
        old = getattr(value, name)
        new = escaped_all(old)
        if new is not old:
            changes[name] = new
    return dataclasses.replace(value, **changes) if changes else value


INIT_FIELDS: dict[type, tuple[str, ...]] = {}  # one entry a dataclass, asked by every finding


def _init_fields(cls: type) -> tuple[str, ...]:
    found = INIT_FIELDS.get(cls)
    if found is None:
        found = INIT_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    return found
