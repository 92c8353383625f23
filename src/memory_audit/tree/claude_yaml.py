"""Parsing a frontmatter block the way Claude Code 2.1.328 does: strict, then one retry.

Claude Code parses the block as YAML. When that fails it rewrites the block
once and parses again:

- every top-level ``key: value`` line (key of letters, ``_`` and ``-``) whose
  value is not already quoted (``"…"`` or ``'…'``), is not a valid ``[…]``
  list, and contains one of ``{ } [ ] * & # ! | > % @``, a backtick, or
  ``": "`` is rewritten as ``key: "value"`` (backslashes and double quotes
  escaped);
- leading tabs become spaces (two per tab).

When the retry fails too, the file has no frontmatter for Claude Code. So
every block falls in one of three cases (:class:`ReadBy`), which the
``frontmatter`` check reports differently.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memory_audit.tree import bounded_yaml
from memory_audit.tree.flat_yaml import load_flat
from memory_audit.tree.frontmatter_block import JS_SPACE

FALLBACK_KEY = re.compile(r"[a-zA-Z_-]+")
FALLBACK_TRIGGERS = frozenset("{}[]*&#!|>%@`")
# JavaScript's `.` does not match these: a value holding one is not rewritten.
JS_LINE_BREAKS = ("\r", "\u2028", "\u2029")
TAB_WIDTH = 2


class ReadBy(enum.Enum):
    STRICT = "strict"  # any YAML parser reads it
    FALLBACK = "fallback"  # only Claude Code's retry reads it
    NEITHER = "neither"  # Claude Code sees no frontmatter


@dataclass(frozen=True)
class QuotedLine:
    line: int  # 0-based line within the block text
    key: str
    value: str  # the value as Claude Code reads it after quoting


@dataclass(frozen=True)
class Parsed:
    read_by: ReadBy
    value: Any  # the loaded YAML (None when read by neither)
    text: str  # the text that was parsed (the rewritten block for FALLBACK)
    quoted: tuple[QuotedLine, ...] = ()
    error: str = ""  # the strict parser's complaint (FALLBACK and NEITHER)
    error_line: int | None = None  # 1-based within the block text


def parse_block(text: str) -> Parsed:
    """Strict YAML (the flat fast path when it applies), else Claude Code's retry."""
    if len(text) <= bounded_yaml.MAX_TEXT:
        flat = load_flat(text)
        if flat is not None:
            return Parsed(ReadBy.STRICT, flat, text)
    try:
        return Parsed(ReadBy.STRICT, bounded_yaml.load(text), text)
    except bounded_yaml.YAMLProblem as strict:
        return _retry(text, strict)


def _retry(text: str, strict: bounded_yaml.YAMLProblem) -> Parsed:
    rewritten, quoted = fallback_text(text)
    try:
        value = bounded_yaml.load(rewritten)
    except bounded_yaml.YAMLProblem:
        return Parsed(ReadBy.NEITHER, None, text, (), strict.message, strict.line)
    return Parsed(ReadBy.FALLBACK, value, rewritten, quoted, strict.message, strict.line)


def fallback_text(text: str) -> tuple[str, tuple[QuotedLine, ...]]:
    """Claude Code's rewrite of a block that strict YAML rejected."""
    lines = []
    quoted = []
    for number, line in enumerate(text.split("\n")):
        pair = fallback_pair(line)
        if pair is not None and needs_quotes(pair[1]):
            key, value = pair
            quoted.append(QuotedLine(number, key, value))
            lines.append(f'{key}: "{_escape(value)}"')
        else:
            lines.append(_untab(line))
    return "\n".join(lines), tuple(quoted)


def fallback_pair(line: str) -> tuple[str, str] | None:
    """``^([a-zA-Z_-]+):\\s+(.+)$`` as JavaScript matches it, by hand (linear).

    A value of only white space is left out: it never needs quotes.
    """
    key = FALLBACK_KEY.match(line)
    if key is None or line[key.end() : key.end() + 1] != ":":
        return None
    rest = line[key.end() + 1 :]
    value = rest.lstrip(JS_SPACE)
    if value == rest or not value or any(mark in value for mark in JS_LINE_BREAKS):
        return None
    return key.group(0), value


def needs_quotes(value: str) -> bool:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return False
    if value.startswith("[") and value.endswith("]") and _is_list(value):
        return False
    return ": " in value or any(char in FALLBACK_TRIGGERS for char in value)


def _is_list(value: str) -> bool:
    try:
        return isinstance(bounded_yaml.load(value), list)
    except bounded_yaml.YAMLProblem:
        return False


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _untab(line: str) -> str:
    stripped = line.lstrip("\t")
    return " " * (TAB_WIDTH * (len(line) - len(stripped))) + stripped


def as_mapping(value: Any) -> Mapping[str, Any] | None:
    if value is None:
        return {}
    return value if isinstance(value, dict) else None
