"""A value the note records as no longer valid, read from the words on its own line: true
samples (the value is retired) and false ones (the value is the one in use, or its
retirement is still to come), gitleaks style. Values are look-alikes."""

from __future__ import annotations

import pytest

from memory_audit.secrets.retired import retired_marker

VALUE = "Wq7#pL2vX9e"

RETIRED = [
    (f"old DB password: `{VALUE}`", "old"),
    (f"Previous API key was {VALUE} until March.", "Previous"),
    (f"- `{VALUE}` (rotated out in March)", "rotated out"),
    (f"staging token {VALUE} — revoked 2026-02-11", "revoked"),
    (f"The shared password {VALUE} has been rotated, ask Sam.", "has been rotated"),
    (f"| admin | {VALUE} | revoked |", "revoked"),
    (f"password {VALUE} is no longer valid", "no longer valid"),
    (f"旧密码：{VALUE}", "旧"),
    (f"以前的数据库密码 {VALUE}", "以前的"),
    (f"이전 비밀번호: {VALUE}", "이전"),
    (f"测试账号密码 {VALUE}（已作废）", "已作废"),
    (f"contraseña antigua: {VALUE}", "antigua"),
    (f"contraseña del router: {VALUE} (ya no funciona)", "ya no funciona"),
    (f"altes Passwort: {VALUE}", "altes"),
    (f"ancien mot de passe {VALUE}", "ancien"),
]

LIVE = [
    f"password: `{VALUE}`",
    f"old password Ab12cd34, new password `{VALUE}`",  # the new one
    f"password rotated to `{VALUE}` on 2026-05-01",
    f"DB password `{VALUE}` (rotated 2026-05-01)",  # when it was set
    f"token {VALUE} must be revoked",
    f"token {VALUE} needs to be rotated out",
    f"token {VALUE} should get revoked before launch",
    f"key {VALUE}; the old one was revoked",  # another value's record, past a separator
    f"the old server's password is {VALUE}",  # the server is old, not the password
    f"the password is still {VALUE}, not revoked",
    f"{VALUE} unless revoked",
    f"旧金山服务器 {VALUE}",  # a place's name, not an old password
    f"password {VALUE} (unrevoked)",
]


@pytest.mark.parametrize(("line", "marker"), RETIRED)
def test_a_value_recorded_as_retired_names_the_word(line: str, marker: str) -> None:
    text = f"Notes.\n{line}\nMore.\n"
    start = text.index(VALUE)
    assert retired_marker(text, start, start + len(VALUE)) == marker


@pytest.mark.parametrize("line", LIVE)
def test_a_value_in_use_or_still_to_retire_is_not_retired(line: str) -> None:
    text = f"Notes.\n{line}\nMore.\n"
    start = text.index(VALUE)
    assert retired_marker(text, start, start + len(VALUE)) is None


def test_only_the_values_own_line_is_read() -> None:
    text = f"old notes below\npassword: {VALUE}\nrevoked tokens are listed in vault.md\n"
    start = text.index(VALUE)
    assert retired_marker(text, start, start + len(VALUE)) is None
