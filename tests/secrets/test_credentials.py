"""Credentials as people write them (issue 25): the kinds real memory trees held that the
rules missed, and the non-secrets they flagged, as look-alikes."""

from __future__ import annotations

import string

import pytest

from memory_audit.secrets.redact import redact
from memory_audit.secrets.rules import bundled_rules
from memory_audit.secrets.scanner import Scanner
from memory_audit.secrets.values import NAMED_AFTER, NAMED_BEFORE
from tests.secrets.samples import ALNUM, CASES, HEX, PEM_PUBLIC_KEY, SSH_PUBLIC_KEY, rnd, uuid
from tests.support.github_tokens import github_token

SCANNER = Scanner(bundled_rules(), b"test-salt")


def found(text: str) -> list[tuple[str, str]]:
    return [(m.rule, text[m.start : m.end]) for m in SCANNER.scan(text)]


def test_a_token_for_a_provider_with_a_qualifier_and_backticks_is_found() -> None:
    token = rnd(ALNUM, 64)
    assert found(f"token for Scaleway (write): `{token}`") == [("generic-assignment", token)]


def test_an_api_key_that_is_a_uuid_is_found_after_its_keyword_only() -> None:
    key = uuid()
    assert found(f"Fernhill API key: `{key}`") == [("generic-assignment", key)]
    assert found(f"request id {key} failed") == []


def test_a_vendor_default_password_after_a_console_login_is_found() -> None:
    assert found("Console login: admin / ubnt") == [("default-password", "ubnt")]
    assert found("Console login: `admin` / `calvin`") == [("default-password", "calvin")]


def test_an_administrator_pair_with_no_keyword_is_found() -> None:
    text = "the switch is admin/Harbor01!! on the mgmt port"
    assert found(text) == [("account-pair", "Harbor01!!")]
    assert found("open admin/settings2 to change it") == []


def test_a_password_with_no_separator_is_found_when_it_looks_like_one() -> None:
    text = "demo account password Lisbon2026!! for the shared laptop"
    assert found(text) == [("password-phrase", "Lisbon2026!!")]
    assert found("password manager 1Password holds it") == []


def test_a_pass_variable_in_a_body_line_is_found() -> None:
    # a fixed value: a random one drawn from the shared stream, where other tests draw too,
    # had no digit one time in thirty (a generated password of letters alone is judged so)
    value = "Kq7vZp2wLm9xRt4bNc8"
    assert found(f"DB_PASS={value}") == [("generic-assignment", value)]
    assert found(f"bypass={value}") == []


def test_an_algorithm_named_where_a_token_would_be_is_not_a_secret() -> None:
    assert found("QR token = HMAC-SHA256 of the event id") == []
    assert found("password: SHA-256") == []


def test_an_ssh_key_path_is_not_a_login_pair() -> None:
    assert found("ssh key: ~/.ssh/id_ed25519_fernhill") == []
    assert found("- SSH key: `~/.ssh/Harborlight_ed25519`") == []  # in backticks


def test_a_git_remote_is_not_a_login_pair() -> None:
    assert found("SSH key added to the account. Repo: `git@github.com:fernhill/ledger2.git`") == []
    assert found("ssh remote: git@gitlab.example:team/app2") == []


def test_a_public_key_is_not_a_login_pair() -> None:
    assert found(f"ssh login for the runner: {SSH_PUBLIC_KEY}") == []
    assert found(f"creds: {PEM_PUBLIC_KEY}") == []


def test_a_password_given_as_an_example_in_instructions_is_not_a_secret() -> None:
    assert found("Reset it for the user, e.g. `password: TempPass1!`") == []
    assert found("login with admin/TempPass1! (for example)") == []
    [(_, secret)] = found("Reset it for the user: `password: TempPass1!`")
    assert secret == "TempPass1!"


@pytest.mark.parametrize(
    "text",
    [
        "la contraseña es Fern7hill#",
        "senha: Fern7hill#",
        "Passwort: Fern7hill#",
        "Kennwort lautet Fern7hill#",
        "mot de passe : Fern7hill#",
        "mdp: Fern7hill#",
        "密码：Fern7hill#",
        "口令是Fern7hill#",
        "パスワード：Fern7hill#",
        "비밀번호: Fern7hill#",
        "credenciales: ops / Fern7hill#",
        "credenciais: ops/Fern7hill#",
        "Zugangsdaten: ops / Fern7hill#",
        "identifiants : ops / Fern7hill#",
        "账号：ops / Fern7hill#",
        "ログイン: ops/Fern7hill#",
        "계정: ops / Fern7hill#",
    ],
)
def test_a_password_in_another_language_is_found(text: str) -> None:
    assert [secret for _, secret in found(text)] == ["Fern7hill#"]


@pytest.mark.parametrize(
    "word", ["jeton", "clé API", "chave de API", "clave de API", "API-Schlüssel", "令牌", "토큰"]
)
def test_a_token_in_another_language_is_found(word: str) -> None:
    token = rnd(ALNUM, 32)
    assert found(f"{word}: {token}") == [("generic-assignment", token)]


@pytest.mark.parametrize(
    "text",
    [
        "password: <password>",
        "password: ${DB_PASSWORD}",
        "password: ***",
        "passwd: xxx",
        "password: changeme1",
        "password: ~/.config/fernhill/pw.txt",
        "password file: secrets.kdbx",
        "token: process.env.FERNHILL_TOKEN",
        "secret_key = derive_from_event_id",
        "password hashing: bcrypt (cost 12)",
        "for example: password is Fern7hill#",
        "contraseña: <tu-contraseña>",
    ],
)
def test_placeholders_names_and_examples_are_not_secrets(text: str) -> None:
    assert found(text) == []


def test_user_pass_at_host_gives_the_password_only() -> None:
    text = "ssh deploy:Fern7hill#net@10.0.0.5 for the backups"
    assert found(text) == [("login-pair", "Fern7hill#net")]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("sshpass -p 'Harbor01' ssh root@10.0.0.5", "Harbor01"),
        ("PGPASSWORD=harborlight psql -h db -U app", "harborlight"),
        ("mysql -u root -pHarborlight7 appdb", "Harborlight7"),
        ("redis-cli -a harborlight7 ping", "harborlight7"),
        ("curl -u admin:harborlight7 https://nas.local/api", "harborlight7"),
        ("echo 'harborlight7' | sudo -S apt update", "harborlight7"),
    ],
)
def test_a_password_a_command_line_takes_needs_no_shape(text: str, secret: str) -> None:
    assert [value for _, value in found(text)] == [secret]


def test_a_short_keyword_and_a_plain_password_are_found_after_a_separator() -> None:
    assert [v for _, v in found("root pw: fernhill42")] == ["fernhill42"]
    assert [v for _, v in found("password: 482913")] == ["482913"]
    assert [v for _, v in found("user/pw: ops / fernhill42")] == ["fernhill42"]
    assert found("password is required") == []
    assert found("password: 2024") == []


def test_a_password_of_digits_that_repeat_is_found_in_a_key_value_table() -> None:
    # a date of birth as the database password: too few bits per digit for the entropy
    # asked of other values, yet five distinct digits and eight in all
    table = "| 属性 | 值 |\n|------|-----|\n| 账号 | root |\n| 密码 | 19990827 |\n"
    assert found(table) == [("password-phrase", "19990827")]
    assert found("| 密码 | 11112222 |\n| password | 20200202 |") == []


@pytest.mark.parametrize(
    "text",
    ["user: bob, password: 583921", "user: bob, password: 234567", "login: bob\npassword: 5839217"],
)
def test_a_password_of_superscript_digits_reads_like_its_ascii_twin(text: str) -> None:
    # str.isdigit admits "²", which int() refuses: the steps between digits once raised
    # there and left the whole tree unaudited
    superscripts = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    [(rule, value)] = found(text)
    assert found(text.translate(superscripts)) == [(rule, value.translate(superscripts))]


def test_a_uuid_after_a_secret_word_is_found_and_a_token_id_is_not() -> None:
    secret = uuid()
    assert found(f"PBS token backup@pbs!veeam secret {secret}") == [("uuid-secret", secret)]
    assert found("API token: backup@pbs!veeam") == []
    assert found(f"token id: {uuid()}") == []


@pytest.mark.parametrize(
    "text",
    [
        "password: screenshot-login.png",
        "secret: logo.svg",
        "API key: pk_test_" + rnd(ALNUM, 24),
        "key: sb_publishable_" + rnd(ALNUM, 24),
        "anon token (safe to commit): " + rnd(ALNUM, 32),
        "publishable key: " + rnd(ALNUM, 32),
        "password is hidden",
    ],
)
def test_file_names_publishable_keys_and_words_are_not_secrets(text: str) -> None:
    assert found(text) == []


def test_a_column_naming_a_credentials_id_holds_no_secret() -> None:
    # a workflow tool's credential id names the stored credential; the credential itself
    # is elsewhere
    credential_id = "Bz7kQw2LmN4pXr9T"
    table = f"| Account | n8n Credential ID | Agent |\n|---|---|---|\n| ops@fernhill.io | {credential_id} | Ann |\n"
    assert found(table) == []
    # a "Credential" column's single value without a symbol is as likely the id
    assert found(table.replace("Credential ID", "Credential")) == []
    assert found(table.replace("n8n Credential ID", "Password")) == [
        ("table-password", credential_id)
    ]
    key = rnd(HEX, 32)
    keys = f"| printer | API key ID |\n|---|---|\n| hp-4th | {key} |\n"
    assert found(keys) == []
    assert found(keys.replace("key ID", "key")) == [("table-key", key)]


def test_an_endpoint_url_where_a_token_would_be_is_no_secret() -> None:
    assert found("    token_uri='https://oauth2.fernhill.io/token'") == []
    assert found("TOKEN_URL=https://auth.fernhill.io/oauth/v2/token") == []


def test_a_slash_joined_list_far_back_on_a_long_line_leaves_a_password_a_password() -> None:
    # the list is read within the window the words before a value are (its cost bounded
    # on a line of any length), not from wherever the line began
    prose = "the rollout notes go on " * 40  # some 960 characters, no comma or pipe
    text = f"Branches `main` / `develop` / `next` then {prose}password: Qx7k!Zr2m"
    assert found(text) == [("password-phrase", "Qx7k!Zr2m")]
    assert found("Branches `main` / `develop` / `Qx7k!Zr2m`") == []


def test_two_names_in_code_are_a_login_pair_only_near_a_login_word() -> None:
    assert found("- staging: `db_admin` / `Harbor_2207x`") == []
    text = "- staging credentials: `db_admin` / `Harbor_2207x`"
    assert found(text) == [("login-pair", "Harbor_2207x")]


def test_the_mark_closing_a_question_is_not_the_symbol_of_a_password() -> None:
    assert found("4. Page size — top-200 default, or top-100/top-300?") == []
    text = "Is the kiosk still on Default ops/Harb0r!77?"
    assert found(text) == [("default-pair", "Harb0r!77?")]


def test_a_password_variable_named_in_backticks_is_found() -> None:
    assert found('- `FERNVID_USERNAME` = "Oak Lantern"') == []
    text = '- `FERNVID_PASSWORD` = "Mansard2024"'
    assert found(text) == [("generic-assignment", "Mansard2024")]


def test_two_accounts_on_one_line_give_both_passwords_whatever_word_joins_them() -> None:
    for joint in (", ", " und ", " y ", " et "):
        text = f"test users (both): `ana@fernhill.test` / `Quay_2026!`{joint}`luis@fernhill.test` / `Harbor_2026!`"
        assert [value for _, value in found(text)] == ["Quay_2026!", "Harbor_2026!"], joint
    # a list of names joined by slashes stays a list
    assert found("- pruned: `T101-parser` / `T102-ui` / `T107-report` / `T110b-batch`") == []


def test_two_passwords_given_together_after_both_are_two_secrets() -> None:
    text = (
        "- **2 Test-User** (0022 + 0027): `ana@fernhill.test` + `ana2@fernhill.test`"
        " (beide `HarborQuay_2026!` / `HarborQuay2_2026!`)."
    )
    assert found(text) == [
        ("both-passwords", "HarborQuay_2026!"),
        ("both-passwords", "HarborQuay2_2026!"),
    ]
    [first, second] = SCANNER.scan(text)
    assert first.fingerprint != second.fingerprint


def test_a_password_after_pass_in_backticks_next_to_a_user_is_found() -> None:
    text = "- PostgreSQL 16 (`fernhill` db, user `fernhill`, pass `fernhill482`)"
    assert found(text) == [("user-pass", "fernhill482")]
    assert found("- run the user tests, then pass `--verbose` to see them") == []


def test_a_bypass_secret_named_in_backticks_and_given_unquoted_in_prose_is_found() -> None:
    secret = "q-" + rnd(ALNUM + "_-", 41)
    text = f"`NEXT_PUBLIC_SITE_KEY`=0x4AAAAAAAB3kQ, `CAPTCHA_TEST_BYPASS`={secret} (set on Vercel)"
    assert found(text) == [("generic-assignment", secret)]
    assert found("- bypass: `git commit --no-verify` when the hook hangs") == []


# --- an ngrok authtoken: a digit and 20 (older) or 26 letters and digits, "_", a digit and
# 20 more; no prefix of its own, so found in a file that names ngrok, with or without a key
# word before it
def _ngrok_token() -> str:
    return f"2{rnd(ALNUM, 26)}_{rnd(string.digits, 1)}{rnd(ALNUM, 20)}"


def test_an_ngrok_authtoken_with_no_key_word_before_it_is_found_and_shown_redacted() -> None:
    token = _ngrok_token()
    text = f"- ngrok 隧道 (用户提供): `{token}`"
    assert found(text) == [("ngrok-authtoken", token)]
    [match] = SCANNER.scan(text)
    assert match.redacted == redact(token)
    assert token not in match.redacted


def test_an_ngrok_authtoken_under_a_heading_naming_ngrok_and_an_older_one_are_found() -> None:
    token = _ngrok_token()
    assert found(f"## ngrok\n\n- `{token}` (free plan)") == [("ngrok-authtoken", token)]
    older = f"{rnd(string.digits, 1)}{rnd(ALNUM, 20)}_{rnd(string.digits, 1)}{rnd(ALNUM, 20)}"
    assert found(f"ngrok config add-authtoken {older}") == [("ngrok-authtoken", older)]


def test_ngrok_names_and_look_alikes_are_not_an_authtoken() -> None:
    token = _ngrok_token()
    assert found("- tunnel: https://abc123.ngrok-free.app → localhost:8000") == []
    assert found("export NGROK_AUTHTOKEN  # set in the shell profile, not here") == []
    assert found("ngrok reads `NGROK_AUTHTOKEN` from the environment") == []
    # the shape inside an identifier, or cut from a longer run, is no token
    assert found(f"ngrok fixture: `tunnel_{token}`") == []
    assert found(f"ngrok fixture: `{token}_v2`") == []
    assert found(f"ngrok fixture: `{token}x`") == []
    assert found("ngrok authtoken: `2xxxxxxxxxxxxxxxxxxxxxxxxxx_1xxxxxxxxxxxxxxxxxxxx`") == []
    # a file that never names ngrok: the shape alone is no issuer's
    assert found(f"- build id `{token}`") == []


# --- a Russian password word and its value in backticks with no colon between them: the
# name, the words naming whose password it is and a dash at most, then the value ending its
# line or list item; short all the same, as after "Пароль:"
def test_a_russian_password_word_then_its_value_in_backticks_with_no_colon_is_found() -> None:
    assert found("Пароль `4821`") == [("password-backticked", "4821")]
    assert found("пароль от стенда `Qz7!mx`") == [("password-backticked", "Qz7!mx")]
    assert found("- Пароль админа — `Tr0ub4dor`") == [("password-backticked", "Tr0ub4dor")]
    assert found("- **Пароль** `fernq`, логин `ops`") == [("password-backticked", "fernq")]
    assert found("(пароль для root `482913`)") == [("password-backticked", "482913")]
    [match] = SCANNER.scan("Пароль `4821`")
    assert match.redacted == redact("4821") == "4..."


def test_a_russian_password_word_before_a_name_or_a_placeholder_in_backticks_is_no_secret() -> None:
    for text in (
        "пароль `PASSWORD`",
        "пароль `<пароль>`",
        "пароль `${DB_PASSWORD}`",
        "пароль хранится в `.env`",
        "пароль хранится `qwerty12`",
        "пароль лежит в `keepassxc`",
        "пароль из `1Password`",
        "пароль для `deploy2`",
        "сбросить пароль `get_password()`",
        "пароль `hashed_password`",
        "пароль `PasswordHasher`",
        "пароль `PGPASSWORD`",  # a tool's variable, as `PGPASSWORD=...` sets it
        "пароль `bcrypt`",
        "Пароль `1111`",
        "Пароль `4729` не работал",  # the value inside a sentence: prose about it
        "пароль `sudo`",
    ):
        assert found(text) == [], text


# --- the value in backticks first, then a dash, a parenthesis or "это" and the Russian
# password word, nothing in backticks after it on its line
def test_a_value_in_backticks_before_a_russian_password_word_is_found() -> None:
    assert found("`Xk39!paQ` — пароль от админки") == [("password-named-after", "Xk39!paQ")]
    assert found("- `Harbor77` (пароль root)") == [("password-named-after", "Harbor77")]
    assert found("логин `admin`, `Xk39!paQ` это пароль") == [("password-named-after", "Xk39!paQ")]
    assert found("- `4821` - пароль от домофона") == [("password-named-after", "4821")]
    [match] = SCANNER.scan("`Xk39!paQ` — пароль от админки")
    assert match.redacted == redact("Xk39!paQ")
    assert "Xk39!paQ" not in match.redacted


def test_a_name_in_backticks_before_a_russian_password_word_is_no_secret() -> None:
    for text in (
        "`PGPASSWORD` — пароль для psql",
        "`DB_PASSWORD` — пароль базы",
        "`.env` — пароль и токены",
        "`1Password` — пароль-менеджер команды",
        "`get_password()` — пароль из хранилища",
        "`bcrypt` — пароль хешируется",
        "`admin` (пароль в vault)",
        "`<пароль>` — пароль",
        # the word and what is said of it: the value is something else
        "`v10.4.2` — пароль сброшен после обновления",
        "`ssh-ed25519` — пароль не нужен",
        "`node18` (пароль из env)",
        "`HTTP401` — пароль неверный",
    ):
        assert found(text) == [], text
    # a login before a password's label: the password after it is the one found
    assert found("логин `ops2` — пароль `Xk39!paQ`") == [("password-backticked", "Xk39!paQ")]


def test_the_value_classifier_reads_the_russian_names_as_the_rules_do() -> None:
    # a short value is a password where the rule's own words stand: the classifier's
    # patterns are the rules' regexes around their value
    regex = {rule.name: rule.regex for rule in bundled_rules().rules}
    assert regex["password-backticked"].startswith(NAMED_BEFORE.removesuffix("$"))
    assert regex["password-named-after"].endswith(NAMED_AFTER)


def test_a_digest_an_id_an_address_or_a_content_id_under_a_key_heading_is_no_key() -> None:
    hexes = rnd(HEX, 64)
    # the heading is read: a bare key under it is found, a named one is not
    assert found(f"## API tokens\n```\n{hexes}\n```\n") == [("fenced-token", hexes)]
    assert found(f"## API tokens\n```\nsha256-{hexes}\n```\n") == []
    assert found(f"## Tokens\n```\nclient-{uuid()}\n```\n") == []
    assert found("## Secrets\n```\nbc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq\n```\n") == []
    cid = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"
    assert found(f"## Secrets\n```\n{cid}\n```\n") == []


def test_a_credentials_lists_database_item_names_the_database_not_a_password() -> None:
    # the heading is read: a system's password in the list is found, its database is not
    listed = "### Credentials\n- **User**: `fernapp`\n- **NAS admin**: `Kp4ziR9x`\n"
    assert found(listed) == [("section-list-password", "Kp4ziR9x")]
    assert found("### Credentials\n- **User**: `fernapp`\n- **Database**: `fernapp7`\n") == []
    assert found("## Credentials\n- DB: `fern_main2`\n- Region: `eu-west-1x`\n") == []
    # a label that ends in such a word names the system whose password the item gives
    prod = "### Credentials\n- **User**: `fernapp`\n- **Prod DB**: `Tq7wLm2v`\n"
    assert found(prod) == [("section-list-password", "Tq7wLm2v")]
    staging = "### Credentials\n- **Staging database**: `Rz8pQn4k`\n"
    assert found(staging) == [("section-list-password", "Rz8pQn4k")]


def test_a_list_of_keys_is_read_in_a_file_that_also_lists_passwords() -> None:
    # the password list's rule matches a key's item too: under the keys' heading it takes no
    # text, so the keys' rule reads it
    key = "X7K2M9PQ4RSTWLNB"
    text = (
        "### Passwords by machine\n- **Laptop:** `Hq7!harbor23`\n\n"
        f"## API Keys\n- **Fernquote**：`{key}`\n"
    )
    assert found(text) == [
        ("section-list-password", "Hq7!harbor23"),
        ("section-list-key", key),
    ]


@pytest.mark.parametrize("text", CASES["section-list-key"][1])
def test_a_list_under_a_keys_heading_holds_no_key_where_its_label_says_so(text: str) -> None:
    # (the samples' own test prefixes each text, which takes its heading away)
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [*CASES["service-login-pair"][1], *CASES["key-noted"][1], *CASES["current-value"][1]],
)
def test_a_list_item_or_a_note_that_names_no_credential_is_none(text: str) -> None:
    # list items read at the start of their own line, as a note has them
    assert found(text) == []


# The thirty-fourth session's second reader: values the session's new rejections must
# leave found, and non-secrets its new rules must leave alone.
STILL_FOUND = [
    # the thirty-sixth session's reader: the session's rejections stay in their lane
    "Community site admin token: ghp_Zq7RkP2mXv9LwT4nB6ydQ8Fern3HallZzQ1",
    "- Community forum API key = 0e2f9b8d7a6c549a02c3e81f4b7d6c549a02c3e81f4b7d6c549a02c3e81f4b7d",
    "- Heroku API key: 2bc739f7-1c05-4d93-b5cc-12be471a4382\n- TLS cert: /etc/ssl/fern.pem",
    "HEROKU_API_KEY=2bc739f7-1c05-4d93-b5cc-12be471a4382  # CI also needs the private key in deploy.pem",
    "- API Key: `2bc739f7-1c05-4d93-b5cc-12be471a4382` (no private key needed)",
    "wifi password: abcd1234",
    "password: *Summer*2024*",
    "API_KEY=FERNQXZWHALL ./deploy.sh $ENV",
    "export API_TOKEN=FERNHALLQXZW  # used by mint.sh",
    'password: "{Q7x!mZ2k}"',
    "seed phrase abandon ability able about above absent absorb abstract absurd abuse access accident",
    "Mnemonic: abandon ability able about above absent absorb abstract absurd abuse access accident keep offline",
    'username="vault" password="vault-Quokka2026"',  # the login, then a word of its own
    "SNMP community: pr1vCommun!ty",  # a community beside SNMP is a device's password
    "snmp:\n  community: Fq7x!kLm2q",  # SNMP on the line above
    "Console login: admin / 123456",  # the commonest password, a vendor's default
    "root password: Fernhall-123456",  # a name and digits: weak, not a stand-in
    "users table primary key is id; DB_PASSWORD=Harbor!x9Q2",  # a data key elsewhere
    "- Row key: user#2026; token: Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yf5G",
    "Samples DB:\npassword: Harbor!x9-2207",  # "sample" names the system, no example
    "Example request (works, uses my live key):\n"
    "curl -H 'x-api-key: Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yf5G' https://api.fern.dev/v1",
    "API_KEY=Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yf5G  # replace every 90 days",
    "- Пароль: Зима-2026",  # two Cyrillic parts: a password, no instruction
    "password: newpass2026",  # a year is the person's own
    "DB_PASSWORD=superpassword2026",
    "password: BloodType!",  # no schema's type
    "- **Cosmos Primary Key**: `Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yf5Gs0Ja7Ne2Qu4Iv9Ko3Px6Mb1Tc8Ry5==`",
    # a block with no example's mark, or the mark outside it; an issuer's token in one
    "```\nDB_PASSWORD=Kestrel!2026x\n```\nmail ops@example.com",
    "```bash\ncurl -H 'Authorization: token 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'"
    " https://api.example.com\n```",
]
LEFT_ALONE = [
    "token: process.env.FERN_TOKEN_20240115",
    "secret: os.environ.FERN_SECRET_2024Q1",
    "password: %FERN_DB_PASSWORD_2024%",
    "wifi password: WPA2-Personal-2024-Fernhall",
    "SHA-256 of the token (what the DB stores):\n```\n2da60e2f9b8d7a6c549a02c3e81f4b7d6c549a02\n```",
    "Token fingerprint:\n```\n2da60e2f9b8d7a6c549a02c3e81f4b7d6c549a02c3e81f4b\n```",
    "2bc739f7-1c05-4d93-b5cc-12be471a4382 这个是key的ID",
    "req_011CQxZk29LmPq7Xm2Lp9Rt4 就是token消耗最多的请求",
    "user_01HZX8Kq7Xm2Lp9Rt4Vn8Bc3 就是 token 对应的用户",
    "api_hash: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  # sha256",
    "- **Public Key**: `BEl62iUYgUivxIkv69yViEuiBIa40HI0F8Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yf5G`",
    "- **Site Key**: `6LcKq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yf5Gs0Ja7Ne2`",
    "## Release signing (GPG)\n- Key: 3AA5C34371567BD2F19A8E0D5C7B6A4E2F1D0C9B\n- Keyserver: x",
    "- Key: 7d865e959b2466918c9863afca942d0fb89d7c9ac0c99bafc3749504ded97730",
    "### Push notifications (VAPID)\n- Key: BEl62iUYgUivxIkv69yViEuiBIa40HI0F8Kq7Xm2Lp9Rt4Vn8",
    "the token (4096-bit/RSA/PKCS1v15) signs",
    "db_pass = secret('kv/fern/prod/postgresMain2')",
    "| Service | Password/Key |\n|---|---|\n| cfg | hex: sha256-of-config-file |",
    "- **Partition Key**: `tenant_2026_Kq7Xm2Lp9Rt4Vn8`",
    # an example reply introduced on the line above (the thirty-third round's tuning half)
    "**示例回复（假设 IP 为 192.168.0.105，token 为 aB3xK7mQ）：**\n"
    "> 你的手机访问地址是：http://192.168.0.105:18789/?token=aB3xK7mQ",
    "Example reply:\nOpen http://192.168.0.105:18789/?token=aB3xK7mQ on your phone",
    # a vendor's API reference in a skill (the thirty-fifth round's batch, after its verdicts):
    # an example block names example.com or elides another value; a key's id is no key
    '```json\n{\n  "primaryEmail": "newuser@example.com",\n  "password": "Kestrel!2026x"\n}\n```',
    '```json\n{\n  "bot_id": "bot_a1b2c3d4",\n  "api_key": "cck_live_7f3e...",\n'
    '  "claim_token": "coral-X9K2Lp7"\n}\n```\n> visit https://fern.example/claim?token=coral-X9K2Lp7',
    '```json\n{\n  "name": "FernTest",\n  "api_key_id": "WJBgv5EKR8y0nn2F8Qfk5w"\n}\n```',
]


@pytest.mark.parametrize("text", STILL_FOUND)
def test_a_value_the_session_s_rejections_must_not_hide(text: str) -> None:
    assert found(text), text


@pytest.mark.parametrize("text", LEFT_ALONE)
def test_a_non_secret_the_session_s_rules_must_not_report(text: str) -> None:
    assert found(text) == []


def test_a_shell_s_glob_list_of_secret_words_is_no_value() -> None:
    """``HISTIGNORE`` lists the words whose commands a shell forgets: star-wrapped words
    where an assignment's value would be; a password holding stars is still one."""
    assert found('export HISTIGNORE="*password*:*token*:*key*:*secret*:*api*:rm *"') == []
    assert found("DB_PASSWORD=Fern*Hall*9x2Q") == [("generic-assignment", "Fern*Hall*9x2Q")]


def test_a_uuid_key_beside_its_private_key_file_is_the_key_s_id() -> None:
    """An API that signs with a key pair names the pair by a UUID; the key file named on
    the lines after it is the secret. Without such a file the UUID is a key as before."""
    key = "2bc739f7-1c05-4d93-b5cc-12be471a4382"
    signed = f"### Fernex API\n- API Key: `{key}`\n- Private key saved: `~/keys/fernex.pem`\n"
    assert found(signed) == []
    plain = f"### Fernex API\n- API Key: `{key}`\n- Webhook: on\n"
    assert found(plain) == [("generic-assignment", key)]
    far = f"- API Key: `{key}`\n- a\n- b\n- Private key saved: `~/keys/fernex.pem`\n"
    assert found(far) == [("generic-assignment", key)]


def test_a_bot_token_is_one_finding_whole_and_its_secret_part_alone_is_one_too() -> None:
    # The whole token (the bot's id, ":", its secret part) is telegram-bot-token's; the
    # secret part the bot's username precedes, without the id (held-out batch 189), is
    # still the token's secret: found, not the username before it
    secret = "AA" + rnd(ALNUM + "_-", 33)
    assert found(f"- bot token: 7712394856:{secret}") == [
        ("telegram-bot-token", f"7712394856:{secret}")
    ]
    assert found(f"- New bot token: @Heronledger_bot ({secret})") == [
        ("telegram-bot-token-secret", secret)
    ]


def test_tokens_on_consecutive_lines_under_their_heading_are_each_found() -> None:
    # the first line's match must not take the newline the second one starts after; a
    # token with a space after its backtick is one too
    first, second = rnd(HEX, 32), rnd(HEX, 32)
    text = f"## Surge tokens\n`{first}`\n`{second}` \nthat was all.\n"
    found = [(m.rule, m.line) for m in SCANNER.scan(text)]
    assert found == [("section-token-alone", 2), ("section-token-alone", 3)]


def test_a_project_ref_in_a_list_of_passwords_is_an_id_and_the_passwords_stay() -> None:
    # round 130 (a tuning half): a Supabase project's ref (20 lower-case letters) listed under
    # a heading of passwords; under a `ref` label a value of another shape is still read
    # (the second reader of the change: `- Stripe ref: <a live key>`)
    heading = "## Passwords\n- Admin panel: `Kx9!fernpanel-2026`\n"
    listed = ("section-list-password", "Kx9!fernpanel-2026")
    assert found(heading + "- Supabase project ref: `qrtfernaaidthbdtxief`") == [listed]
    assert found(heading + "- Supabase ref: `Kq7Xm2Lp9Rt4Vn8Bc3Hd6W`") == [
        listed,
        ("section-list-password", "Kq7Xm2Lp9Rt4Vn8Bc3Hd6W"),
    ]


# Round 142, the removed text of earlier held-out repositories, read blind: the kinds its
# judges found, changed after that first look (look-alikes, not the trees' text).


def test_a_github_token_with_digits_run_onto_its_end_is_the_token() -> None:
    # the issued token passes GitHub's checksum; the digits after it are the note's slip.
    # A drawn run of the same length that fails the sum stays no token
    token = github_token("ghp_", rnd(ALNUM, 36))
    assert found(f"- push with PAT `{token}20260422`") == [("github-pat", token)]
    assert found(f"- push with PAT `ghp_{rnd(ALNUM, 36)}20260422`") == []


def test_a_key_whose_drawn_part_holds_an_underscore_is_a_key_not_a_dotted_name() -> None:
    # a Google key of the ``AQ.`` form: the dot is no attribute's, the part after it drawn
    # (four digits at least in the drawn piece, as an issuer's 30 characters hold: a random
    # draw of the test's own could hold fewer, and fail on a draw, not on the code)
    key = f"AQ.Ab8{rnd(ALNUM, 26)}3k7m4_{rnd(ALNUM, 12)}"
    assert found(f"- Stitch API key: `{key}`") == [("generic-assignment", key)]


@pytest.mark.parametrize(
    "text",
    [
        # a value that says what it must be (its kind and its length), not a value
        "JWT_SECRET=production-jwt-secret-64-chars-minimum",
        "ENCRYPTION_KEY=production-encryption-key-32-chars",
        "SESSION_SECRET=staging_session_secret_at_least_32_characters",
        # a compose file's password run together of environment words and a count
        "DATABASE_URL=postgresql://fern_user:localdev123@postgres:5432/fern",
        # a security log shows a token's first characters and says the rest is elsewhere
        "- Google Refresh Token: 1//01cwyxKfo4-Q3... (full token exposed)",
        "- Strava Client Secret: ec781d245ddf798... (full secret exposed)",
        "- Kalshi API Key: 9591266d-4e66-48... (full key exposed)",
        # a function's name ending in the kind's word, in a table of endpoints
        "| `6ijcy6` | `/api/functions/verify-tv-token` | `fern-uds-v3-production-verify-tv-token` |",
        # a count before the keyword: how many keys, not a key
        "- **1 API key**: Single-model pass-through (no cross-examination)",
        # a test word repeated to fill a secret's length, on a preview link on purpose
        "- Bypass secret (`kavishtest123kavishtest123kavish`) allows public access",
    ],
)
def test_round_142s_false_kinds_are_no_secrets(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # a password of environment words with a year or a drawn part is someone's own
        ("DATABASE_URL=postgresql://fern:localdev2024@db.fern.io:5432/fern", "localdev2024"),
        # a key's name words with a drawn run after them are a key
        (
            "JWT_SECRET=production-jwt-secret-Xk93Lq7Rm2Vb8Tn4",
            "production-jwt-secret-Xk93Lq7Rm2Vb8Tn4",
        ),
        # the start of a token shown longer than a masked one would be is most of it
        (f"- Strava Client Secret: {'e7c81d245ddf798a9b0c1'}... (old)", "e7c81d245ddf798a9b0c1"),
        # a digit before the keyword that counts nothing (a version's), or a number in the
        # label's name after another word (the second reader's)
        ("- v2 API key: `Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1`", "Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1"),
        ("- Bot 2 token: Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yq5Tn8W", "Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yq5Tn8W"),
        ("- Tenant 12 API key = Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1", "Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1"),
        # a password's sixteen characters before "..." may be all of it
        ("- Set DB_PASSWORD=Qx7mLp2Rv9Tz4kWs... then restart", "Qx7mLp2Rv9Tz4kWs"),
        ("- login: ops / Qx7mLp2Rv9Tz4kWs... ok", "Qx7mLp2Rv9Tz4kWs"),
        # words with no length's number and unit, and a drawn piece repeated, are values
        ("- Password: key-lime-pie-long-walk-42", "key-lime-pie-long-walk-42"),
        ("- Bypass secret: demo7Kq2demo7Kq2demo7Kq2", "demo7Kq2demo7Kq2demo7Kq2"),
        # a repeated chunk with no test word is left to the rules
        ("- Bypass secret (`Xk9vQ2mLXk9vQ2mLXk9vQ2mL`) on the preview", "Xk9vQ2mLXk9vQ2mLXk9vQ2mL"),
    ],
)
def test_the_values_near_round_142s_false_kinds_are_still_found(text: str, secret: str) -> None:
    assert [value for _, value in found(text)] == [secret]


# Round 143 (the removed text of 500 more held-out repositories, blind): kinds changed after
# that first look.


def test_a_paddle_client_side_token_is_public_by_design_and_its_api_key_is_not() -> None:
    # Paddle.js is given the client-side token in every page ("safe to publish"); an API key
    # of Paddle's is a secret
    token = "live_" + rnd(HEX, 27)
    assert found(f"Client token: {token}") == []
    assert found(f"Client token: test_{rnd(HEX, 27)}") == []
    key = rnd(ALNUM, 40)
    assert found(f"Paddle API key: {key}") == [("generic-assignment", key)]


def test_the_secret_of_a_google_cli_s_public_oauth_client_is_no_secret() -> None:
    # a note's script refreshes the Firebase CLI's stored token with the client the CLI
    # ships in its source; the user's own client's secret stays one
    cli = "563584335869-" + rnd("abcdefghijklmnopqrstuvwxyz0123456789", 32)
    secret = rnd(ALNUM, 24)
    line = (
        "const data = 'grant_type=refresh_token&refresh_token=' + rt + "
        f"'&client_id={cli}.apps.googleusercontent.com&client_secret={secret}';"
    )
    assert found(line) == []
    own = "881234567890-" + rnd("abcdefghijklmnopqrstuvwxyz0123456789", 32)
    assert [value for _, value in found(line.replace(cli, own))] == [secret]
    # the CLI's client named first, the user's own client's secret after its own id; and a
    # secret of the shape Google issues now, which no CLI's public one has
    both = (
        f"- the CLI uses {cli}.apps.googleusercontent.com\n"
        f"- ours: client_id={own}.apps.googleusercontent.com client_secret={secret}"
    )
    assert [value for _, value in found(both)] == [secret]
    current = "GOCSPX-" + rnd(ALNUM, 28)
    assert [value for _, value in found(line.replace(secret, current))] == [current]


def test_a_key_said_to_be_provided_with_a_note_in_brackets_is_found() -> None:
    # round 143's hunters: "<service> API key provided (stored in chat; avoid reprinting):"
    key = "fnwy_k_" + rnd(ALNUM, 32)
    assert found(f"- Fernway API key provided: {key}") == [("generic-assignment", key)]
    said = f"- Fernway API key provided (stored in chat; avoid reprinting): {key}"
    assert found(said) == [("generic-assignment", key)]


def test_a_panel_login_that_opens_with_a_digit_is_a_login() -> None:
    # round 143's hunters: a server panel's drawn user name and its password after 账号
    assert found("- 面板账号：62bbf148 / 938274ab7cd9") == [("login-pair", "938274ab7cd9")]
    assert found("- QQ账号: 123456789 / fern8824x") == [("login-pair", "fern8824x")]
    # digits then a colon or a slash with no spaces are an account's number and a resource,
    # or a measure (the second reader's)
    assert found("- SNS for the account: arn:aws:sns:us-east-1:123456789012:alerts-v2") == []
    assert found("- AWS account 123456789012:deploy-role2") == []
    assert found("- Login flow timings: 2500ms/step3b") == []


def test_a_server_s_root_password_after_ssh_is_judged_by_its_pair_not_its_entropy() -> None:
    # round 143's hunters: a person's server password repeats its digits, below the generic
    # rules' entropy; "SSH: root /" says what it is. Another login, or no SSH, keeps the floor
    text = "- SSH: root / fnq060606.（注意有点号）"
    assert found(text) == [("login-pair", "fnq060606")]
    assert found(text.replace("root", "deploy")) == []
    assert found(text.replace("SSH", "Server")) == []
