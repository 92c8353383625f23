"""What the secret rules read of a file's text.

A memory is read as written. A file that is no Markdown (a chat gateway's raw log, a saved
JSON config) holds its text in string literals, whose escapes run into the value after
them: ``"...\\n\\nghp_<token> my github token"`` puts an ``n`` before the token, and a rule
that wants the token to start a word sees none. In such a file the letter escapes
(``\\n``, ``\\r``, ``\\t``, ``\\b``, ``\\f``) read as two blanks and an escaped quote or slash
as a blank and the character, so every position, line and value stays where the file has
it (the fix redacts the file's own text at them). In JSON a quote that is not escaped is
the syntax around a string, never its text: it reads as a blank, so no value runs into it
(``"the password is <value>"}`` would end at the brace, and its redaction break the line).
"""

from __future__ import annotations

import re

# An escaped backslash is kept whole, so "\\\\n" (a backslash, then the letter) is no escape.
ESCAPE = re.compile(r'\\[\\nrtbf"/]')
JSON_ESCAPE = re.compile(r'\\[\\nrtbf"/]|"')
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")


def rules_text(path: str, text: str) -> str:
    """``text`` as the rules read it: as is for a Markdown file, a string literal's escapes
    blanked for any other, and JSON's own quotes too (the same length, line for line)."""
    if path.endswith(".md"):
        return text
    if path.endswith(JSON_SUFFIXES):
        return JSON_ESCAPE.sub(_blank, text) if '"' in text or "\\" in text else text
    return escapes_blanked(text)


def escapes_blanked(text: str) -> str:
    """``text`` with a string literal's escapes read as blanks."""
    return ESCAPE.sub(_blank, text) if "\\" in text else text


def _blank(found: re.Match[str]) -> str:
    escape = found[0]
    if escape == "\\\\":
        return escape
    if escape == '"':
        return " "
    if escape in ('\\"', "\\/"):
        return " " + escape[1]
    return "  "
