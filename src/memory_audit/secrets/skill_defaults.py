"""Passwords a skill's own documentation gives as its defaults (``skills/<name>/...``:
``默认密码：stock2024`` for the skill's local web page): suggestions in the audit, and no
on-change alert (suggestions never notify).

A workspace keeps the skills it installed beside its memory, with their documentation; the
held-out judges called a default those pages print no one's secret. Only a password a
person chose counts (:func:`memory_audit.secrets.published.chosen`: a key in an issuer's
format is a key wherever it is), and only where the words call that value the default: its
own label (``默认密码：``, ``Default password:``) or a label above it that names a default
account (``**默认账号**:`` over ``- 密码: ...``). Only its owner knows whether the installed
copy still uses it: the suggestion says to change it there if so. A note in the user's own
memory that calls a value its default stays a problem (a router's default password, still
in use, opens the router).
"""

from __future__ import annotations

import re

from memory_audit.secrets.published import on_production
from memory_audit.secrets.values import near_on_its_line

SKILLS_FOLDER = "skills"
# The words that call a value the default, in the corpus's languages
DEFAULT_WORD = re.compile(
    r"(?i)\bdefault\b|默认|默認|預設|预设|デフォルト|初期|\bpadr[ãa]o\b|por defecto|par d[ée]faut"
)
# ... and what a label above the value must name with it: an account, a login, a password
ACCOUNT_WORD = re.compile(
    r"(?i)\b(?:account|login|credentials?|password|user)\b|账号|帐号|賬號|帳號|账户|密码|密碼|"
    r"登录|登入|アカウント|パスワード|\bconta\b|\bsenha\b|\bcuenta\b|contraseña"
)
LINE_REACH = 200  # characters of a line above that are read
LINES_ABOVE = 2  # a bold label above the value (``**默认账号**:``, then ``- 用户名: admin``)


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
    its default: the value's label calls it the default, or a line of the two above names a
    default account, in a file of a skill's folder, on a page that does not place the
    system in production. Reads bounded windows only (a long line is not read to its
    start for each value on it)."""
    skill = skill_of(path)
    if skill is None:
        return None
    label = near_on_its_line(text, start)  # its label, read within NEAR characters
    named = DEFAULT_WORD.search(label) is not None or _default_account_above(text, start)
    if not named or on_production(text, line):
        return None
    return skill


def _default_account_above(text: str, start: int) -> bool:
    """Whether one of the ``LINES_ABOVE`` lines above the value's names a default account
    (a default word and an account's or a password's word on one line)."""
    end = text.rfind("\n", max(0, start - LINE_REACH), start)
    for _ in range(LINES_ABOVE):
        if end < 0:
            return False
        begin = text.rfind("\n", max(0, end - LINE_REACH), end) + 1
        above = text[max(begin, end - LINE_REACH) : end]
        if DEFAULT_WORD.search(above) and ACCOUNT_WORD.search(above):
            return True
        if begin == 0 or end - begin > LINE_REACH:
            return False
        end = begin - 1
    return False
