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
    (f"deprecated API key: {VALUE}", "deprecated"),  # the key is the old one
    (f"- 隧道 token: `{VALUE}`（已废弃）", "已废弃"),
    (f"- 隧道 token: `{VALUE}`（已廢棄）", "已廢棄"),
    (f"API key: `{VALUE}`（已停用，改为新 key）", "已停用"),  # a rotation, not a tool dropped
    (f"- token: `{VALUE}`（已停用，改用新 token）", "已停用"),
    (f"- ngrok authtoken: `{VALUE}`（已废弃，改用 cloudflared，token 已撤销）", "已撤销"),
    # the value's own record, with no other value's verb between (not another's retirement)
    (f"- API key: `{VALUE}` (now revoked)", "revoked"),
    (f"- token `{VALUE}` (currently revoked)", "revoked"),
    (f"- Token: `{VALUE}` (old one — revoked)", "revoked"),
    (f"- `{VALUE}` (previous token — revoked in March)", "revoked"),
    (f"- password `{VALUE}` (original — was changed)", "was changed"),
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
    f"API key for the SMS protocol (Deprecated API)：{VALUE}",  # the API is old, not its key
    f"token for the old endpoint: {VALUE}",
    f"- ngrok authtoken: `{VALUE}`（已废弃，改用 cloudflared）",  # the tool dropped, not its key
    f"- 隧道 token: `{VALUE}`（已停用，换用 frp）",
    f"- Auth Token: {VALUE} (updated — old one was expired)",  # the old one expired
    f"token {VALUE} (new — the previous token was revoked)",
]


def _marker(text: str) -> str | None:
    """The retired marker of the first place of :data:`VALUE` in ``text``."""
    start = text.index(VALUE)
    return retired_marker(text, start, start + len(VALUE))


@pytest.mark.parametrize(("line", "marker"), RETIRED)
def test_a_value_recorded_as_retired_names_the_word(line: str, marker: str) -> None:
    assert _marker(f"Notes.\n{line}\nMore.\n") == marker


@pytest.mark.parametrize("line", LIVE)
def test_a_value_in_use_or_still_to_retire_is_not_retired(line: str) -> None:
    assert _marker(f"Notes.\n{line}\nMore.\n") is None


def test_only_the_values_own_line_is_read() -> None:
    text = f"old notes below\npassword: {VALUE}\nrevoked tokens are listed in vault.md\n"
    start = text.index(VALUE)
    assert retired_marker(text, start, start + len(VALUE)) is None


BANNERS = [
    (
        "> ⚠️ **[LEGACY]** Notes of the old shop site, retired in 2026/04: for history only.",
        "retired",
    ),
    ("> ⚠️ **[LEGACY]** 本文件為舊站的進度。舊站已於 2026/04 退役，內容僅供參考。", "退役"),
    ("# [ARCHIVED] Fern billing (decommissioned 2026-03)", "decommissioned"),
]
LIVE_BANNERS = [
    "> [LEGACY] The old shop site still serves the archive.",  # legacy, not retired
    "Notes of the shop site, retired in 2026/04 (the API is not).",  # no banner
    "> Deprecated: use the v2 endpoints.",
    "# How to shut down the staging cluster",  # an instruction, no tag
    "# Unretired",
    "# Fern API (v1 decommissioned, v2 live)",
    "> [LEGACY] v1 retired, v2 (live) replaced it",
]


@pytest.mark.parametrize(("banner", "marker"), BANNERS)
def test_a_banner_opening_the_note_that_retires_its_system_retires_its_values(
    banner: str, marker: str
) -> None:
    front = "---\nname: shop\ndescription: old site\n---\n"
    assert _marker(f"{front}\n{banner}\n\n## Keys\n- sync key = {VALUE}\n") == marker


@pytest.mark.parametrize("banner", LIVE_BANNERS)
def test_a_banner_that_retires_nothing_or_a_later_line_retires_no_value(banner: str) -> None:
    assert _marker(f"{banner}\n\n## Keys\n- sync key = {VALUE}\n") is None
    later = f"# Shop\n\nSome notes.\n> The old site was retired.\n- sync key = {VALUE}\n"
    assert _marker(later) is None
