"""JSON for the session hook without the ``json`` package: its scanner and string quoting.

Every Claude Code session start waits for the hook, and ``import json`` alone costs
about 12 ms there (a third of its budget): ``json.decoder`` and ``json.encoder``
import ``re``, which imports ``enum``, ``functools`` and ``collections``. What the hook
needs is the C scanner and quoting that ``json`` itself delegates to, in CPython's
``_json`` module, which imports nothing. So this module gives ``json``'s results
(the same scanner, the same settings as ``json.loads`` and ``json.dumps``) at the cost
of one small extension module. On a Python without ``_json`` it uses ``json``'s own
pure-Python scanner: slower to import, the same answers.

    >>> scan('x = {"a": [1, 2.5, null]}', 4)
    ({'a': [1, 2.5, None]}, 25)
    >>> quoted('say "hi"\\n')
    '"say \\\\"hi\\\\"\\\\n"'
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing itself costs milliseconds at every session start
    from collections.abc import Callable
    from typing import Any

try:
    from _json import encode_basestring as _quote
    from _json import make_scanner as _make_scanner
except ImportError:  # pragma: no cover - CPython always has _json
    from json.encoder import py_encode_basestring as _quote
    from json.scanner import make_scanner as _make_scanner  # json's pure-Python one here

WHITESPACE = " \t\n\r"  # JSON's whitespace, the characters json.decoder skips
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _Settings:
    """What json's scanner reads off a ``json.JSONDecoder()``: its default settings."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__
    memo: dict[str, str] = {}  # noqa: RUF012 - the pure-Python scanner's, cleared after each use


# The stub types the scanner's argument as a scanner: any object with these attributes works.
_scan_once: Callable[[str, int], tuple[Any, int]] = _make_scanner(_Settings())  # type: ignore[arg-type]


def scan(text: str, at: int) -> tuple[Any, int]:
    """The JSON value starting exactly at ``at`` and where it ends, as
    ``json.JSONDecoder().raw_decode(text, at)``; ``ValueError`` when there is none."""
    try:
        return _scan_once(text, at)
    except StopIteration as stop:
        raise ValueError(f"expecting a JSON value at {stop.value}") from None


def skip_whitespace(text: str, at: int) -> int:
    """The first position from ``at`` that is not JSON whitespace (``len(text)`` at the end)."""
    while at < len(text) and text[at] in WHITESPACE:
        at += 1
    return at


def loads(text: str) -> Any:
    """``json.loads`` of a string: one value, whitespace around it allowed."""
    value, end = scan(text, skip_whitespace(text, 0))
    if skip_whitespace(text, end) != len(text):
        raise ValueError(f"extra data at {end}")
    return value


def quoted(text: str) -> str:
    """``json.dumps(text, ensure_ascii=False)``: a JSON string literal."""
    return str(_quote(text))
