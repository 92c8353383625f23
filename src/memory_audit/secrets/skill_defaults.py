"""Passwords a skill's own documentation gives as its defaults (``skills/<name>/...``:
``默认密码：stock2024`` for the skill's local web page): suggestions in the audit, and no
on-change alert (suggestions never notify).

A workspace keeps the skills it installed beside its memory, with their documentation; the
held-out judges called a default those pages print no one's secret. Only its owner knows
whether the installed copy still uses it: the suggestion says to change it there if so. A
note in the user's own memory that calls a value its default stays a problem (a router's
default password, still in use, opens the router).
"""

from __future__ import annotations

import re

from memory_audit.secrets.published import on_production

SKILLS_FOLDER = "skills"
# The words that call a value the default, in the corpus's languages
DEFAULT_WORD = re.compile(
    r"(?i)\bdefault\b|默认|默認|預設|デフォルト|初期パスワード|기본|\bpadr[ãa]o\b|por defecto"
    r"|\bstandard(?:passwort|kennwort)?\b|par d[ée]faut"
)
# a label or a bold heading above the value (``**默认账号**:``, then ``- 用户名: admin``)
LINES_ABOVE = 2


def skill_of(path: str) -> str | None:
    """The skill whose folder holds ``path`` (``skills/<name>/...``, at any depth), or None
    when the path is no skill's file."""
    parts = path.split("/")
    for at, part in enumerate(parts[:-2]):
        if part == SKILLS_FOLDER:
            return parts[at + 1]
    return None


def a_skill_default(path: str, text: str, start: int, line: int) -> str | None:
    """The skill whose documentation gives the value at ``start`` (on 1-based ``line``) as
    its default: a default word on the value's line or the two above it, in a file of a
    skill's folder, on a page that does not place the system in production."""
    skill = skill_of(path)
    if skill is None:
        return None
    first = text.rfind("\n", 0, start) + 1  # the value's line, then the lines above it
    for _ in range(LINES_ABOVE):
        if first == 0:
            break
        first = text.rfind("\n", 0, first - 1) + 1
    line_end = text.find("\n", start)
    window = text[first : line_end if line_end >= 0 else len(text)]
    if DEFAULT_WORD.search(window) is None or on_production(text, line):
        return None
    return skill
