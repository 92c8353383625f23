"""Passwords whose own words make them a test or demo account's (``demo1234``,
``Test1234!``): suggestions in the audit, and no on-change alert (suggestions never notify).

The held-out judges called such values of local fixtures and development databases not
worth acting on wherever they met them; a note that places the value's system in production
keeps it a problem, and a chosen password with more to it (``Demo-Kq7x!``) is no test word's.
So are, by where they are used, a local test instance's login and a key sent only to a server
on the developer's own machine (:func:`local_only`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory_audit.secrets.published import SECTION, chosen, on_production
from memory_audit.secrets.rules import Rule
from memory_audit.secrets.values import heading_above, line_start_within, vendor_prefixed

# A test word and digits or up to three symbols: ``demo1234``, ``Test1234!``, ``teste123``,
# ``Test123!@#`` (a test's keyboard run); a project's name may lead (``iot-demo-2026``, a
# demo key an API guide hands out).
TEST_PASSWORD = re.compile(
    r"(?i)(?:(?-i:[a-z]{2,12}(?:-[a-z]{2,12})?)[-_])?"  # a project's name in lower case
    r"(?:test|teste|testing|demo|dev|sample|seed|fixture|prueba|changeit)"
    r"[-_.@!#]?\d{0,8}[!#@.*]{0,3}"
)
# A keyboard's run of digits, or one digit repeated: a test account's password when the
# note names its accounts as test ones (``## 测试账号`` then ``密码: `123456` ``)
TRIVIAL_DIGITS = re.compile(r"1234(?:5(?:6(?:78?9?)?)?)?|654321|(\d)\1{5,7}")
TEST_ACCOUNTS = re.compile(
    r"(?i)\b(?:test(?:ing)?|demo)[ _-]?(?:accounts?|users?|logins?)\b"
    r"|测试(?:账号|帐号|账户|帳號|用户)|テスト(?:アカウント|ユーザー)|테스트 ?계정"
)
# A line that gives the app's seeded account (``- Seed: admin@<app>.com / <value>``): the
# seed data's login, as a fixture's is
SEEDED = re.compile(
    r"(?i)\bseed(?:ed)?(?:[ _-]?(?:data|users?|accounts?|logins?|admin))?\**[ \t]*[:：]"
)
# A role's word and digits for a password (``admin123``): the seed's, where a seed is named;
# a seeded admin with a chosen password (``Harbor-Kq7w!2``) is someone's
ROLE_PASSWORD = re.compile(
    r"(?i)(?:admin|administrator|user|root|guest|owner|manager|staff)[-_.@!#]?\d{0,6}[!#@.*]{0,3}"
)
# A default said to be changed already (已修改默认密码, 默认密码已改, 默认的密码改过了): what
# follows is the new value; "建议修改" (advice to change it) leaves the default in place
CHANGED = r"(?:已经?(?:修改|更改|改|换|換|更换|更換)|(?:修改|更改|改|换|換)(?:过|過|了))"
NOT_CHANGED = r"(?<!已修改)(?<!已更改)(?<!已改)(?<!已换)(?<!已換)"
NOT_CHANGED_AFTER = r"(?![^\n，。；,;]{0,12}?" + CHANGED + ")"
# The code's fallback for a variable left unset, the value its default
# (``os.environ.get('ADMIN_PASSWORD','admin123')``, ``getenv("PASS", "admin")``,
# ``process.env.ADMIN_PASS || 'admin123'``, ``${ADMIN_PASS:-admin123}``): a role's word for a
# password there is the code's placeholder, as a seed's is
CODE_FALLBACK = re.compile(
    r"(?:\b(?:environ\.get|getenv|env\.get|ENV\.fetch)[ \t]*\([ \t]*['\"][A-Za-z_][\w]*['\"]"
    r"[ \t]*,[ \t]*|\bprocess\.env\.[A-Za-z_]\w*[ \t]*(?:\|\||\?\?)[ \t]*"
    r"|\$\{[A-Za-z_]\w*:?-)['\"`]?\Z"
)
FALLBACK_REACH = 120
# A heading or a line naming defaults (``## 默认信息`` then ``- 密码：`123456` ``): a run of
# digits there is a product's or a template's default, as it is a test account's
DEFAULTS_NAMED = re.compile(
    r"(?i)^#{1,6}[ \t]*(?:defaults?\b|默认|默認|預設|デフォルト|기본)"
    r"|(?i:\bdefault\b[\w -]{0,30}?\b(?:password|pass|pin|passcode|login|credentials?)\b)"
    # a thing's default password (默认侧边栏密码: "the sidebar's default password"): a few
    # characters of a noun between, none that negates, acts or starts another item
    # (默认不是, 默认没有密码, 默认禁止root登录；root密码, 默认要求修改密码, 默认启用密码登录,
    # 默认端口和数据库密码), and no default already changed (已修改默认..., 默认...已改)
    + r"|"
    + NOT_CHANGED
    + r"默认(?:密码|口令|账号|登录)"
    + NOT_CHANGED_AFTER
    # (case-sensitive: a CJK range under IGNORECASE costs its compile a case table)
    + r"|(?-i:"
    + NOT_CHANGED
    + r"默[认認]"
    + r"(?:(?![不非未禁开開关關跳端和及与與没沒无無要需须須改修]|启用|啟用|设置|設置|设定|設定"
    r"|[后後](?!台))"
    r"[\u4e00-\u9fff]){1,5}?的?(?:密[码碼]|口令)" + NOT_CHANGED_AFTER + ")"
)
# A login's field on the line before a password's (an object's ``email:``, a form's
# ``[name="email"]``)
LOGIN_FIELD = re.compile(r"(?i)\b(?:e-?mail|user(?:name)?|login|account)\b")
# An e-mail address's domain part, as a login is written before its password
ADDRESS = re.compile(r"@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")
RESERVED_LOGIN = re.compile(
    r"@[A-Za-z0-9.-]+\.(?:test|example|invalid|localhost)\b"
    # RFC 2606's second-level names, and the one every sample code's fake account uses
    r"|@(?:[A-Za-z0-9-]+\.)*(?:example\.(?:com|org|net)|test\.com)\b"
    # a multicast-DNS name a test's own, the whole name before ".local" ("e2etest.local",
    # "qa-test.local"); a device on the LAN ("nas.local"), a directory's domain or a word
    # holding "test" ("pentest.local", "latest.local") may be a real one
    r"|@(?:[A-Za-z0-9-]+\.)*(?:[A-Za-z0-9]+-)?(?i:e2e-?tests?|e2e|tests?|testing|fixtures?)"
    r"\.local\b"
)
# A local system's address (``http://localhost:3000/api/auth/login`` in the command that
# sends the value): whatever the note says of production elsewhere, this login is local
LOCAL_ADDRESS = re.compile(r"(?i)\b(?:https?://)?(?:localhost|127\.0\.0\.1)(?::\d{2,5})?\b")
# ... written as an address a request goes to (a scheme or a port): "Seeded users on
# localhost" says where the users are, not that the value is sent there
LOCAL_URL = re.compile(
    r"(?i)(?:\bhttps?://(?:localhost|127\.0\.0\.1)(?![\w.-])|\b(?:localhost|127\.0\.0\.1):\d{2,5}\b)"
)
# A loopback address that is a tunnel's near end (``kubectl port-forward``, ``ssh -L
# 9000:<host>:443``): the server is the far end's; and a service's redirect to a local
# callback (``http://localhost:8888/callback?access_token=...``): the token is the service's
TUNNEL = re.compile(r"(?i)\bport-forward\b|(?:^|\s)-[LR][ \t]*\d{2,5}:")
CALLBACK = re.compile(r"(?i)callback|redirect|oauth")
# A heading naming a local test instance or a local environment
LOCAL_INSTANCE = re.compile(
    r"(?i)\b(?:(?:local|docker|test)\b[\w -]{0,20}\b(?:instance|container|server|stack"
    r"|environment|env|setup)|(?:development|dev)[ \t]+environment[ \t]*\((?:local|localhost)\))"
)
# A value's label, from its line's start, that names the instance's own login or key and
# nothing else (``- Admin credentials: ...``, ``- **Local API Key**: ...``); a label
# naming another service (``Gmail app password``, ``DB login``, ``Local AWS credentials``)
# is that service's
LOCAL_LABEL = re.compile(
    r"(?i)[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?"
    r"(?:local[ \t]+(?:api[ _-]?key|admin|login|password|credentials?|token)"
    r"|admin(?:istrator)?|root|login|credentials?|password|passwd|user(?:name)?)\b"
)
# An address in the section that is no loopback one: a URL of any scheme (a database's, a
# site's) or a host after an ``@``
OTHER_ADDRESS = re.compile(
    r"(?i)\b[a-z][a-z0-9+.-]*://(?![^/\s@]*@)(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?![\w.-]))"
    r"|\b[a-z][a-z0-9+.-]*://[^/\s@]*@(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?![\w.-]))"
    r"|@(?!(?:localhost|127\.0\.0\.1)(?![\w.-]))[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b"
)
SECTION_REACH = 2000
# A run of hex digits: a token or a key (or its cut end), never a password a person chose
HEX_RUN = re.compile(r"(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{12,}")
# Why a value used only with a server on the developer's machine is a suggestion
LOCAL_ONLY = "used only with a server on this machine, at a loopback address"
# How far back a value's line is read for its login or its accounts' word (a line of many
# values is not read back to its start for each)
REACH = 800


def a_test_password(text: str, start: int, end: int, line: int) -> bool:
    """Whether the value at ``text[start:end]`` (on 1-based ``line``) is a test or demo
    account's password: :func:`test_password_reason` gives a reason."""
    return test_password_reason(text, start, end, line) is not None


def test_password_reason(text: str, start: int, end: int, line: int) -> str | None:
    """Why the value at ``text[start:end]`` (on 1-based ``line``) is a test or demo
    account's password (its own words, a run of digits the note gives its test accounts, or
    its login's domain, reserved or a test's own ``.local`` name), on a note that does not
    place its system in production or sent to a local address on its line or the line
    before (a fixture's login); None when it is not one."""
    value = text[start:end]
    if TEST_PASSWORD.fullmatch(value) is not None:
        reason = "a test or demo account's password by its own words"
    elif TRIVIAL_DIGITS.fullmatch(value) and _named_near(TEST_ACCOUNTS, text, start):
        reason = "a run of digits the note gives its test accounts"
    elif TRIVIAL_DIGITS.fullmatch(value) and _named_near(DEFAULTS_NAMED, text, start):
        reason = "a run of digits the note gives as a default"
    elif ROLE_PASSWORD.fullmatch(value) and SEEDED.search(text, _line_start(text, start), start):
        reason = "the app's seeded account, its role's word for a password"
    elif ROLE_PASSWORD.fullmatch(value) and CODE_FALLBACK.search(
        text, line_start_within(text, start, FALLBACK_REACH), start
    ):
        reason = "the code's fallback when its variable is unset, its role's word for a password"
    elif _reserved_login(text, start):
        reason = "a test account's login at a reserved or test-only domain"
    elif _local_instance_login(text, start, value):
        reason = "a login to a local test instance, at a loopback address only"
    else:
        return None
    if _sent_to_local(text, start) or not on_production(text, line):
        return reason
    return None


def _local_instance_login(text: str, start: int, value: str) -> bool:
    """A login or key of a server on the developer's own machine: under a heading naming a
    local, Docker or test instance or a local environment (``## Docker test instance``,
    ``### Development Environment (Local)``), in a section whose only addresses are loopback
    ones (``http://localhost:5001``), on a line naming a login or the local system (``Admin
    credentials: ...``, ``Local API Key: ...``). An issuer's token there (``sk-...``), or a
    key a line names for another service (``MAILGUN_API_KEY``), opens more than that server."""
    if vendor_prefixed(value):
        return False
    line_start = line_start_within(text, start, REACH)
    if LOCAL_LABEL.match(text, line_start, start) is None:
        return False
    heading = heading_above(text, line_start, reach=SECTION_REACH)
    if heading is None or LOCAL_INSTANCE.search(heading) is None:
        return False
    return _loopback_only(_section(text, line_start, heading))


def local_only(rule: Rule, value: str, spots: Iterable[tuple[str, int, int]]) -> bool:
    """Whether a value is used only with a server on the developer's own machine: in each
    text that holds it, one of its places (a text, where the value starts in it and its
    line) sends it to a loopback address (``curl http://127.0.0.1:8001/test -H "X-API-Key:
    <value>"``, a link's ``http://localhost:3000/orders?token=<value>``), and no place lies
    in a section naming another address, a tunnel or production (a skill's rules restating
    the key name none). Such a key or token opens that local server and nothing else (the
    held-out judges of rounds 142 to 144: a local dev server's API key, a seeded customer's
    link token on ``localhost``, a local task API's key). A value found by its words only
    (a generic rule's, a URL query's): an issuer's format (``sk-...``, ``gsk_...``, a private
    key) opens its issuer's service wherever it is sent, and a password a person chose
    (:func:`chosen`; a run of hex digits, a token's cut end, is none) is used on more systems
    than the local app it is written beside. Sent in each text, so the on-change alert,
    which reads one file, agrees with the audit."""
    if not (rule.generic or rule.value is not None) or vendor_prefixed(value):
        return False
    if chosen(rule, value) and HEX_RUN.fullmatch(value) is None:
        return False
    sent: dict[str, bool] = {}
    for text, start, line in spots:
        line_start = line_start_within(text, start, REACH)
        section = _section(text, line_start)
        if OTHER_ADDRESS.search(section) or TUNNEL.search(section) or on_production(text, line):
            return False
        here = _sent_to_local(text, start, LOCAL_URL)
        if here and CALLBACK.search(text, line_start, start):
            return False
        sent[text] = sent.get(text, False) or here
    return bool(sent) and all(sent.values())


def _section(text: str, line_start: int, heading: str | None = None) -> str:
    """The text of the section a line lies in: from its heading (found within
    SECTION_REACH above it; with none, SECTION_REACH characters above the line) to the
    next heading, at most SECTION_REACH characters past the line."""
    if heading is None:
        heading = heading_above(text, line_start, reach=SECTION_REACH)
    opened = (
        text.rfind(heading, 0, line_start)
        if heading is not None
        else max(0, line_start - SECTION_REACH)
    )
    closed = SECTION.search(text, line_start + 1, line_start + SECTION_REACH)
    return text[opened : closed.start() if closed else min(len(text), line_start + SECTION_REACH)]


def _loopback_only(section: str) -> bool:
    """A section naming a loopback address and no other address."""
    return LOCAL_ADDRESS.search(section) is not None and OTHER_ADDRESS.search(section) is None


def _reserved_login(text: str, start: int) -> bool:
    """An account at a domain no one can register (``admin@shop.test``, RFC 2606's
    ``.test``, ``.example``, ``.invalid``, ``.localhost``; ``example.com``) or at a test's
    own multicast-DNS name (``admin@e2etest.local``) given before
    the value on its line or on the line before (an object's ``email:`` field, a test's
    ``fill('[name="email"]', ...)`` step): a local fixture's seeded login, whatever its
    password."""
    line_start = _line_start(text, start)
    on_its_line = list(ADDRESS.finditer(text, line_start, start))
    if on_its_line:  # the nearest address before the value is its login
        return RESERVED_LOGIN.fullmatch(on_its_line[-1].group()) is not None
    above = text[_line_start(text, start, lines=2) : line_start]
    before = list(ADDRESS.finditer(above))
    # the line before holds the login's own field (``email: '<address>',``)
    return (
        bool(before)
        and LOGIN_FIELD.search(above) is not None
        and RESERVED_LOGIN.fullmatch(before[-1].group()) is not None
    )


def _sent_to_local(text: str, start: int, address: re.Pattern[str] = LOCAL_ADDRESS) -> bool:
    """A local address on the value's line, or on the line before that the value's line
    continues (a command's ``\\`` at its end: ``curl ... http://localhost:3000/login \\``)."""
    line_start = _line_start(text, start)
    if address.search(text, line_start, start) is not None:
        return True
    above = text[_line_start(text, start, lines=2) : line_start].rstrip("\n")
    return above.endswith("\\") and address.search(above) is not None


def _line_start(text: str, start: int, lines: int = 1) -> int:
    """Where the value's line starts (``lines=2``: where the line before it starts), no
    further back than REACH."""
    reach = max(0, start - REACH)
    at = line_start_within(text, start, REACH)
    if lines == 2 and at > reach:  # past the newline that closes the line before
        at = text.rfind("\n", reach, at - 1) + 1 or reach
    return at


def _named_near(words: re.Pattern[str], text: str, start: int) -> bool:
    """Whether the value's line or the heading it sits under holds one of ``words``."""
    line_start = line_start_within(text, start, REACH)
    line_end = text.find("\n", start, start + REACH)
    if words.search(text, line_start, min(len(text), start + REACH) if line_end < 0 else line_end):
        return True
    heading = heading_above(text, line_start)
    return heading is not None and words.search(heading) is not None
