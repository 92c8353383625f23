"""A fast path for the common frontmatter: flat ``key: plain text`` lines.

Most memory files carry three to six such lines, some of them one level down under a key
of their own (Claude Code's ``metadata:`` layout: ``  type: project``). Parsing them by hand is many
times cheaper than starting a YAML parser, and gives the same result whenever
every line is of the shape accepted here; anything else returns None and goes
to YAML. An indented line belongs to the mapping under the last top-level key
that has no value of its own, and all of that mapping's lines share one indent
(deeper nesting, lists and odd indents go to YAML). The equality is pinned by a
property test (tests/tree/test_flat_yaml.py) over generated and real-shaped frontmatter.

A line is accepted when its key and value are plain scalars that PyYAML's own
resolver would read as strings (so ``yes``, ``12``, ``2026-01-02``, ``null``
and ``~`` go to YAML), the value holds nothing YAML gives a meaning to (no
``: ``, no `` #``, no leading indicator character, no tab, no line break of
YAML's own, no character YAML refuses), and the key is not repeated.
"""

from __future__ import annotations

import re
from typing import Any

import yaml.resolver

_RESOLVER = yaml.resolver.Resolver()
_STR = "tag:yaml.org,2002:str"
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
# Characters PyYAML's reader refuses or treats as line breaks; anything else is data.
UNSAFE_CHARS = re.compile(
    "[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
MAX_KEYS = 1000


def load_flat(text: str) -> dict[str, Any] | None:
    """The mapping YAML would build from ``text``, or None when ``text`` is not flat."""
    found: dict[str, Any] = {}
    parent = ""  # the last top-level key without a value: indented lines go under it
    indent = 0  # the indent of the lines under ``parent`` (0: none seen yet)
    for line in text.split("\n"):
        if not line.strip(" "):
            continue
        content = line.lstrip(" ")
        depth = len(line) - len(content)
        if depth == 0:
            pair = _pair(line)
            if not _add(found, pair):
                return None
            parent, indent = (pair[0], 0) if pair and pair[1] is None else ("", 0)
        elif parent and depth == (indent or depth):
            indent = depth
            if found[parent] is None:
                found[parent] = {}
            if not _add(found[parent], _pair(content)):
                return None
        else:
            return None
    return found or None  # an empty block is YAML's None: let YAML say so


def _add(mapping: dict[str, Any], pair: tuple[str, str | None] | None) -> bool:
    if pair is None or pair[0] in mapping or len(mapping) >= MAX_KEYS:
        return False
    mapping[pair[0]] = pair[1]
    return True


def _pair(line: str) -> tuple[str, str | None] | None:
    key, colon, rest = line.partition(":")
    if not colon or not KEY.fullmatch(key) or not _is_text(key):
        return None
    if not rest.strip(" "):
        return key, None
    if not rest.startswith(" "):
        return None
    value = rest.strip(" ")
    return (key, value) if _plain_value(value) else None


def _plain_value(value: str) -> bool:
    return (
        value[0] not in INDICATORS
        and ": " not in value
        and " #" not in value
        and not value.endswith(":")
        and UNSAFE_CHARS.search(value) is None
        and _is_text(value)
    )


def _is_text(value: str) -> bool:
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return tag == _STR
