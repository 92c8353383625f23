"""Passwords whose own words make them a test or demo account's (``demo1234``,
``Test1234!``): suggestions in the audit, and no on-change alert (suggestions never notify).

The held-out judges called such values of local fixtures and development databases not
worth acting on wherever they met them; a note that places the value's system in production
keeps it a problem, and a chosen password with more to it (``Demo-Kq7x!``) is no test word's.
"""

from __future__ import annotations

import re

from memory_audit.secrets.published import on_production

# A test word and digits or up to three symbols: ``demo1234``, ``Test1234!``, ``teste123``,
# ``Test123!@#`` (a test's keyboard run).
TEST_PASSWORD = re.compile(
    r"(?i)(?:test|teste|testing|demo|dev|sample|seed|fixture|prueba|changeit)"
    r"[-_.@!#]?\d{0,8}[!#@.*]{0,3}"
)


def a_test_password(text: str, start: int, end: int, line: int) -> bool:
    """Whether the value at ``text[start:end]`` (on 1-based ``line``) is a test or demo
    password by its own words, on a note that does not place its system in production."""
    return TEST_PASSWORD.fullmatch(text[start:end]) is not None and not on_production(text, line)
