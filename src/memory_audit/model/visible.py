"""Untrusted text made visible: memory text and file names reach terminals, logs and
Claude Code (the session hook) as data, never as escape sequences or new lines.

``visible`` shows every control character as its escape (``\\x1b``, ``\\n``), the
Unicode characters that break or reorder lines (line and paragraph separators,
bidirectional overrides) as ``\\u2028``-style escapes, and a file name's bytes that
are not UTF-8 as ``\\xff``.
``code_span`` puts text in a markdown code span whatever backticks it holds.
"""

from __future__ import annotations

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LINE_BREAKERS = [
    0x85,
    0x2028,
    0x2029,
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
    0x200E,
    0x200F,
]
_TABLE: dict[int, str] = {
    **{c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]},
    **{c: f"\\u{c:04x}" for c in _LINE_BREAKERS},
    **{ord(k): v for k, v in _NAMED.items()},
    # A file name's byte that is not UTF-8 (os.fsdecode holds it as a lone surrogate).
    **{0xDC00 + b: f"\\x{b:02x}" for b in range(0x80, 0x100)},
}
# The same characters as JSON escapes: a JSON encoder escapes C0 controls itself, but
# leaves DEL, C1 controls, line separators and bidirectional overrides as they are.
_JSON_TABLE = {c: f"\\u{c:04x}" for c in _TABLE}


def visible(text: str) -> str:
    # Every character of the table is unprintable (categories Cc, Cf, Zl, Zp, Cs): most text is
    # printable and has nothing to escape, which one C-speed test says. A regex of the
    # table's characters said it as fast, but compiling it was a tenth of the session hook.
    return text if text.isprintable() else text.translate(_TABLE)


def visible_json(literal: str) -> str:
    """A JSON string literal (``light_json.quoted``) with every character ``visible``
    escapes written as a JSON escape (``\\u009b``), so it stays one valid JSON string
    (the session hook gives memory text to Claude Code so)."""
    return literal if literal.isprintable() else literal.translate(_JSON_TABLE)


def visible_lines(text: str) -> str:
    """A block whose lines are ours (a diff, a file's lines): each line made visible."""
    return "\n".join(visible(line) for line in text.split("\n"))


def code_span(text: str) -> str:
    """A markdown code span holding ``text`` literally (CommonMark: a fence of more
    backticks than the longest run inside, padded when the text touches a backtick)."""
    import re  # here, not at the top: the session hook imports this module, not this function

    text = visible(text)
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
