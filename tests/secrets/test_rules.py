"""Recall on every rule family, silence on the negative list, and rule-file handling."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_audit.secrets import values
from memory_audit.secrets.rules import Rule, bundled_rules, bytes_pattern, json_block, parse_rules
from memory_audit.secrets.scanner import Scanner
from tests.secrets.samples import CASES, ID_KEY_COLUMNS, NEGATIVES, RUSSIAN_PASSWORDS

RULES = bundled_rules()
SCANNER = Scanner(RULES, b"test-salt")


def test_bundled_rules_cover_at_least_30_families_and_all_have_samples() -> None:
    names = {r.name for r in RULES.rules}
    assert RULES.problems == ()
    assert len(names) >= 30
    assert names == set(CASES)


@pytest.mark.parametrize("rule", [r.name for r in RULES.rules])
def test_rule_compiles_in_both_engines(rule: str) -> None:
    [regex] = [r.regex for r in RULES.rules if r.name == rule]
    re.compile(regex)
    re2.compile(regex)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_finds_its_true_positives(rule: str) -> None:
    for text, secret in CASES[rule][0]:
        matches = SCANNER.scan(f"Noted during setup:\n  {text}\nthat was all.\n")
        assert [m.rule for m in matches] == [rule], text
        [match] = matches
        assert match.line == 2 + text[: text.index(secret)].count("\n")  # a table's row
        assert secret.startswith(match.redacted.split("...")[0])
        assert match.end - match.start == len(secret)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_ignores_its_false_positives(rule: str) -> None:
    for text in CASES[rule][1]:
        assert [m.rule for m in SCANNER.scan(f"note: {text}\n")] == [], text
        # and opening a line: a heading or a list item the sample starts with is one only
        # there (after "note: " no rule reading headings or items could find it)
        assert [m.rule for m in SCANNER.scan(f"note:\n{text}\n")] == [], text


def test_negative_list_gives_zero_hits_across_all_rules() -> None:
    assert SCANNER.scan("\n".join(NEGATIVES)) == []


@pytest.mark.parametrize("table", ID_KEY_COLUMNS)
def test_a_camel_case_column_of_ids_holds_no_keys(table: str) -> None:
    assert SCANNER.scan(table) == []


def test_an_environment_variable_name_is_where_a_secret_lives_not_a_secret() -> None:
    assert SCANNER.scan("Worker secret: HOLIDAY_API_KEY, NEIS_API_KEY (set with wrangler)") == []
    [match] = SCANNER.scan("api_key: Kx9_QpL2_Zr7w")
    assert match.rule == "generic-assignment"


def test_specific_rule_wins_over_generic_on_the_same_text() -> None:
    text, _ = CASES["github-pat"][0][0]
    [match] = SCANNER.scan(f"token = {text}\n")
    assert match.rule == "github-pat"


def test_rule_file_with_a_bad_regex_keeps_the_good_rules() -> None:
    text = '```json\n[{"name": "bad", "regex": "(unclosed"}, {"name": "ok", "regex": "OK[0-9]{8}"}]\n```\n'
    rules = parse_rules(text, "mine.md")
    assert [r.name for r in rules.rules] == ["ok"]
    assert "rule 'bad': regex does not compile" in rules.problems[0]


def test_a_rule_with_an_unknown_value_kind_is_named_and_left_out() -> None:
    text = (
        '```json\n[{"name": "odd", "regex": "OK[0-9]{8}", "value": "fancy"},'
        ' {"name": "ok", "regex": "OK[0-9]{8}", "value": "strong", "generic": true}]\n```\n'
    )
    rules = parse_rules(text, "mine.md")
    assert [(r.name, r.value) for r in rules.rules] == [("ok", "strong")]
    assert (
        "rule 'odd': value must be one of mixed, strong, symbol, credential, token, known, any, key"
        in rules.problems[0]
    )


def test_a_rule_only_the_stdlib_engine_reads_still_runs() -> None:
    # A look-ahead: RE2 refuses it, so every pass runs in ``re`` on the text instead.
    text = (
        '```json\n[{"name": "ahead", "regex": "(?P<secret>ZZ[0-9]{8})(?=!)", "keywords": ["zz"]},'
        ' {"name": "ok", "regex": "(?P<secret>OK[0-9]{8})", "keywords": ["ok"]}]\n```\n'
    )
    scanner = Scanner(parse_rules(text, "mine.md"), b"salt")
    found = scanner.scan("é ZZ93015728! and OK87654321, not ZZ93015728.")
    assert [(m.rule, m.start, m.end) for m in found] == [("ahead", 2, 12), ("ok", 18, 28)]


def test_rule_file_false_positive_table_is_read(tmp_path: Path) -> None:
    text = (
        "```json\n[]\n```\n\n## False positives\n\n| fingerprint | pattern | file | note |\n"
        "|---|---|---|---|\n| 0123456789abcdef01234567 | github-pat | a.md | test token |\n"
    )
    assert parse_rules(text, "x").false_positives == {"0123456789abcdef01234567"}


def test_offsets_are_characters_after_text_that_is_not_ascii() -> None:
    # RE2 matches the UTF-8 bytes; a match's place is still given in characters.
    token = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"
    text = f"Déploiement 日本語 🚀\nthe door PIN： 482913 and {token} «ok»\n"
    matches = SCANNER.scan(text)
    assert [(m.rule, text[m.start : m.end], m.line) for m in matches] == [
        ("pin-code", "482913", 2),
        ("github-pat", token, 2),
    ]


def rules_file(*rules: tuple[str, str]) -> Scanner:
    body = ", ".join(f'{{"name": "{name}", "regex": "{regex}"}}' for name, regex in rules)
    return Scanner(parse_rules(f"```json\n[{body}]\n```\n", "mine.md"), b"salt")


def test_of_overlapping_hits_the_leftmost_wins_then_the_earlier_rule() -> None:
    scanner = rules_file(("late", "(?P<secret>K[0-9]{9})"), ("early", "(?P<secret>AK[0-9]{8})"))
    found = scanner.scan("AK48291736 and K482917365")
    assert [(m.rule, m.start) for m in found] == [("early", 0), ("late", 15)]
    both = rules_file(("first", "(?P<secret>Q[0-9]{8})"), ("second", "(?P<secret>Q[0-9]{9})"))
    assert [m.rule for m in both.scan("Q482917365")] == ["first"]


def test_a_match_that_is_no_secret_still_takes_its_text_as_in_one_alternation() -> None:
    # Rules run one by one, yet "long" matching a placeholder first hides "short" there, as
    # a phrase rule's disclaimed alternative ("example password: ...") hides the others.
    scanner = rules_file(("long", "(?P<secret>TK[0-9A-Za-z]{10,})"), ("short", "TK[0-9]{8}"))
    assert scanner.scan("the token TK48291736example") == []
    [match] = scanner.scan("the token TK48291736 (TK48291736example)")
    assert (match.rule, match.start, match.end) == ("short", 10, 20)
    assert SCANNER.scan("the example password: Kx9_QpL2_Zr7w") == []


def test_a_rule_only_re2_reads_is_kept_and_runs() -> None:
    # \pN is RE2 syntax the stdlib refuses: RE2 runs the rules, so the rule is not a problem.
    scanner = rules_file(("digits", "(?P<secret>ZZ\\\\pN{8})"))
    assert scanner.rules[0].name == "digits"
    [match] = scanner.scan("code ZZ93015728 here")
    assert (match.rule, match.start, match.end) == ("digits", 5, 15)


# A token with no prefix of its own: its keyword is the word near it, not part of the match.
CONTEXT_KEYWORDS = {
    "bitrix24-webhook-code",
    "composio-api-key",  # its keyword, the vendor's name, is elsewhere in the file
    "google-app-password-quoted",  # the same: Google or Gmail named anywhere in the file
    "section-list-password",  # its keyword is in the heading above the list
    "section-list-bare-password",  # the same
    "section-list-key",  # the same
    "section-list-drawn",  # the same
    "section-list-bare-key",  # the same
    "section-list-numbered-key",  # the same
    "section-cookie",  # the same
    "wallet-recovery-phrase",  # "seed phrase" names it anywhere in the file, or it is none
    "discord-bot-token",
    "ngrok-authtoken",
    "uptimerobot-api-key",
    "wordpress-application-password",
    "fal-api-key",  # its id and secret carry no prefix: "fal" names the key near it
    "zhipu-api-key",  # the same: "zhipu" or "glm" names it near it
    "xiaomi-mimo-key",  # the same: "mimo" names it near it
}


@pytest.mark.parametrize(
    "rule",
    # a table rule's regex names a column; its keyword is the table's "|"
    [r for r in RULES.rules if r.keywords and r.name not in CONTEXT_KEYWORDS and not r.table],
    ids=lambda rule: rule.name,
)
def test_every_match_of_a_rule_holds_one_of_its_keywords(rule: Rule) -> None:
    # Keywords decide where a rule runs: a narrow list (pin-code's "pin:", "pin is", ...
    # rather than "pin", in "mapping" too) must still be in every text the rule matches.
    texts = [t for positives, negatives in CASES.values() for t, _ in positives] + [
        t for _, negatives in CASES.values() for t in negatives
    ]
    variants = [v for t in [*texts, *NEGATIVES] for v in (t, t.upper(), t.lower())]
    matches = [m.group() for t in variants for m in re.finditer(rule.regex, t)]
    assert matches or rule.name not in CASES or not CASES[rule.name][0]
    assert [m for m in matches if not any(k in m.lower() for k in rule.keywords)] == []


@pytest.mark.parametrize("rule", [r for r in RULES.rules if r.requires], ids=lambda rule: rule.name)
def test_every_match_of_a_rule_holds_one_of_the_strings_it_requires(rule: Rule) -> None:
    # ``requires`` decides where a rule runs, case counting: a string every match holds,
    # in whatever case the text around it is written, or the prefilter would drop a match.
    texts = [t for positives, negatives in CASES.values() for t, _ in positives] + [
        t for _, negatives in CASES.values() for t in negatives
    ]
    variants = [v for t in [*texts, *NEGATIVES] for v in (t, t.upper(), t.lower(), t.title())]
    matches = [m.group() for t in variants for m in re.finditer(rule.regex, t)]
    assert matches
    assert [m for m in matches if not any(text in m for text in rule.requires)] == []


def test_a_rule_runs_only_where_a_string_it_requires_is_written_in_its_case() -> None:
    text = (
        '```json\n[{"name": "cased", "regex": "(?P<secret>(?i:[a-z]+key)=[0-9]{8})",'
        ' "keywords": ["key="], "requires": ["Key=", "KEY="]},'
        ' {"name": "plain", "regex": "(?P<secret>OK[0-9]{8})", "requires": ["OK"]}]\n```\n'
    )
    scanner = Scanner(parse_rules(text, "mine.md"), b"salt")
    found = scanner.scan("é appKey=48291736 OK87654321 appkey=52917364")
    assert [(m.rule, m.start) for m in found] == [("cased", 2), ("plain", 18), ("cased", 29)]
    # the regex matches "appkey=", but no "Key=" or "KEY=" is written: the rule does not run
    assert (
        scanner.scan("appkey=48291736 Keys: none, ok87654321")
        == []
        != scanner.scan("appKEY=48291736")
    )


def test_a_rule_whose_requires_is_no_list_of_strings_is_named_and_left_out() -> None:
    text = (
        '```json\n[{"name": "odd", "regex": "OK[0-9]{8}", "requires": "OK"},'
        ' {"name": "ok", "regex": "OK[0-9]{8}", "requires": ["OK"]}]\n```\n'
    )
    rules = parse_rules(text, "mine.md")
    assert [(r.name, r.requires) for r in rules.rules] == [("ok", ("OK",))]
    assert "rule 'odd': requires must be a list of strings" in rules.problems[0]


GATED = [r for r in RULES.rules if r.gate is not None]
# A gated rule's samples, cut and joined in any order: its words, values, separators and
# line breaks (a default-pair match may run from its keyword's line onto the next).
GATE_PIECES = st.sampled_from(
    [
        *(t for r in GATED for t, _ in CASES[r.name][0]),
        *(t for r in GATED for t in CASES[r.name][1]),
        *(w for r in GATED for t, _ in CASES[r.name][0] for w in t.split()),
        "\n",
        " ",
        "/",
        "Default logins:\n",
        "ops",
        "Harb0r!77",
        "x" * 40,
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(GATE_PIECES, max_size=12).map("".join))
def test_every_text_a_gated_rule_matches_in_also_matches_its_gate(text: str) -> None:
    # A gate decides where its rule runs: a text the rule matches in and the gate does not
    # would lose the match. Both engines, the text in three cases.
    assert GATED
    for rule in GATED:
        assert rule.gate is not None
        for variant in (text, text.upper(), text.lower()):
            if re.search(rule.regex, variant):
                assert re.search(rule.gate, variant), (rule.name, variant)
            if re2.search(rule.regex, variant):
                assert re2.search(rule.gate, variant), (rule.name, variant)


def test_a_match_running_onto_the_next_line_passes_the_gate() -> None:
    [rule] = [r for r in GATED if r.name == "default-pair"]
    assert rule.gate is not None
    text = "Default logins:\nops/Harb0r!77 on the kiosk"
    assert [m.group("secret") for m in re2.finditer(rule.regex, text)] == ["Harb0r!77"]
    assert re2.search(rule.gate, text)
    assert [m.rule for m in SCANNER.scan(text)] == ["default-pair"]


def test_a_rule_runs_only_where_its_gate_matches() -> None:
    text = (
        '```json\n[{"name": "slashed", "regex": "(?i:default) [a-z]+/(?P<secret>[A-Za-z0-9!]{6,})",'
        ' "keywords": ["default"], "gate": "(?i:default) ops/"},'
        ' {"name": "plain", "regex": "(?P<secret>OK[0-9]{8})", "keywords": ["ok"]}]\n```\n'
    )
    scanner = Scanner(parse_rules(text, "mine.md"), b"salt")
    found = scanner.scan("the default ops/Harb0r!77 OK87654321")
    assert [m.rule for m in found] == ["slashed", "plain"]
    # the regex matches "default dev/...", the gate asks for "ops/": the rule does not run
    # there (a gate must let every match through, as the bundled ones do)
    assert [m.rule for m in scanner.scan("the default dev/Harb0r!77 OK87654321")] == ["plain"]


@pytest.mark.parametrize(
    ("gate", "problem"),
    [(["x"], "rule 'odd': gate must be a regex"), ("(?=x)x", "rule 'odd': gate does not compile")],
)
def test_a_rule_whose_gate_is_no_regex_is_named_and_left_out(gate: object, problem: str) -> None:
    text = (
        f'```json\n[{{"name": "odd", "regex": "OK[0-9]{{8}}", "gate": {json.dumps(gate)}}},'
        ' {"name": "ok", "regex": "OK[0-9]{8}", "gate": "OK"}]\n```\n'
    )
    rules = parse_rules(text, "mine.md")
    assert [(r.name, r.gate) for r in rules.rules] == [("ok", "OK")]
    assert problem in rules.problems[0]


# The rules block as the format defines it: a fence line, then up to the next "```" line.
JSON_BLOCK = re.compile(r"^```json[ \t]*\n(.*?)^```", re.M | re.S)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["```json", "```", "\n", " ", "\t", "[1]", "c", "é"]), max_size=14))
def test_the_json_block_is_the_one_the_format_defines(pieces: list[str]) -> None:
    text = "".join(pieces)
    block = JSON_BLOCK.search(text)
    assert json_block(text) == (block.group(1) if block else None)


def test_the_bundled_file_holds_its_rules_in_one_json_block() -> None:
    text = (Path(__file__).parents[2] / "config" / "secret-patterns.md").read_text()
    [block] = [m.group(1) for m in JSON_BLOCK.finditer(text)]
    assert json_block(text) == block


def _cpu_seconds(pattern: re.Pattern[str], text: str) -> float:
    start = time.process_time()
    for _ in pattern.finditer(text):
        pass
    return time.process_time() - start


@pytest.mark.parametrize("unit", ["a_", "a ", "a-", "a.", "a/", "a:", "PASSWORD_", "'pass_"])
def test_bundled_rules_run_in_linear_time_in_the_stdlib_engine_too(unit: str) -> None:
    """A user's rule RE2 refuses puts every rule in ``re``, which backtracks: a run of name
    parts (``a_a_a_...``) made a rule's ``(?:[a-z0-9]+_)+bypass`` quadratic there (2.8 s
    for 24 KB). Four times the text costs about 4 times as much when linear, 16 when
    quadratic; 10 ms is the least N counts as."""
    slow = []
    for rule in RULES.rules:
        pattern = re.compile(rule.regex)
        for prefix in ("", "password "):
            small = _cpu_seconds(pattern, prefix + unit * 3000 + "x\n_bypass")
            if small < 0.003:
                continue  # too fast to tell; a quadratic rule takes a tenth here
            large = _cpu_seconds(pattern, prefix + unit * 12000 + "x\n_bypass")
            if large / max(small, 0.01) > 8:
                slow.append((rule.name, prefix, round(small, 3), round(large, 3)))
    assert slow == []


@pytest.mark.parametrize(("text", "secret"), RUSSIAN_PASSWORDS)
def test_russian_password_words_match_alike_in_both_engines(text: str, secret: str) -> None:
    """RE2 matches the UTF-8 bytes, its ``\\b`` and ``\\w`` ASCII only; the stdlib's are
    Unicode: Cyrillic words stand outside ``\\b`` so that both engines find the same value,
    whatever the word's case."""
    [rule] = [r for r in RULES.rules if r.name == "password-phrase"]
    stdlib = re.compile(rule.regex)
    group = stdlib.groupindex["secret"]  # numbered alike in both engines
    found = [m.group(group) for m in stdlib.finditer(text)]
    data = text.encode()
    in_bytes = [m.group(group).decode() for m in bytes_pattern(rule.regex).finditer(data)]
    assert found == in_bytes == [secret]


def test_a_credential_on_the_next_line_is_not_hidden_by_the_line_break_before_it() -> None:
    # The first pair's match ends with the line break after its value; the second's opens
    # with it: both are found.
    text = "логин/пароль: ops / Kp4-ziR9x\nAdministrator / Wz8!kLm2q2\n"
    found = [(m.rule, m.line) for m in SCANNER.scan(text)]
    assert found == [("user-password-pair", 1), ("account-pair", 2)]


def test_a_list_of_service_logins_is_found_item_by_item() -> None:
    # each item's line break is no longer taken by the item above (every other one was lost)
    text = (
        "- Nextcloud admin: fenops / Kx9#fenquay\n"
        "- Gitea admin: fenops / Qz7!heronmarsh\n"
        "- Fernmail: ops@heronledger.es / Lanternwood!\n"
        "- Mattermost: fenops / Lp4$wrenquay\n"
    )
    assert [(m.rule, m.line) for m in SCANNER.scan(text)] == [
        ("service-login-pair", 1),
        ("service-login-pair", 2),
        ("service-address-login-pair", 3),
        ("service-login-pair", 4),
    ]


def test_an_item_whose_label_names_the_login_gives_two_logins_not_a_password() -> None:
    # the account's address and its handle; its password follows on a line of its own
    text = "- **Username:** heron@fernmail.io / HeronLedger22\n- **Password:** Lantern#Quay31\n"
    assert [(m.rule, m.line) for m in SCANNER.scan(text)] == [("password-phrase", 2)]


def test_a_login_item_after_a_long_heading_line_still_gives_two_logins() -> None:
    # the item's line start lies further back than a short window (a second reader's case)
    login = "firstname.lastname@mail.heronledger-holdings.io"
    text = f"# notes\n- **Username:** {login} / HeronLedger22\n- **Password:** Lantern#Quay31\n"
    assert [(m.rule, m.line) for m in SCANNER.scan(text)] == [("password-phrase", 3)]


@pytest.mark.parametrize(
    "text",
    [
        "- relay secret: `RELAY_AUTH=Kx9fenQ2wLm3`",
        "- password: `KEY=Kx9fenQ2wLm3`",
        "- the password is Abc!=x9Kq2w",
    ],
)
def test_a_secret_set_as_a_variable_or_holding_an_unequal_sign_is_still_found(text: str) -> None:
    # a command's environment and a test's comparison are no values; these are
    assert len(SCANNER.scan(text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "- register `fern-bot-2` as the token name in the console",
        "- use `X-Api-Key2` as the API key header name",
        "- Recovery codes regenerated; see error code: E4021-AUTHFAIL",
        "- recovery codes printed. Status code: 429-TooMany",
        "- API key rotated in commit (" + "4f" * 20 + ")",
        "- Fixed API key leak (" + "9c" * 20 + ")",
        "- VMess relay down, trace id: 5443c447-d334-4f8a-a390-69c16d26d6bd",
        "- password validator updated to `zxcvbn-v4`",
        "- Password storage updated to `scrypt-n16`",
        "- auth_bypass: legacy_flow_2024",
    ],
)
def test_what_a_new_rule_s_words_name_besides_a_credential_is_no_value(text: str) -> None:
    # a second reader's cases against the rules of rounds 81-100
    assert SCANNER.scan(text) == []


def test_list_rules_read_windows_line_ends() -> None:
    key = "sk-" + "Kq7vZp2wLm9xRt4bNc8d2A"
    text = f"### API Keys\r\n1. {key}\r\n\r\n- **Fernmail**: heron@fernmail.io / Lanternwood!\r\n"
    assert [m.rule for m in SCANNER.scan(text)] == [
        "section-list-numbered-key",
        "service-address-login-pair",
    ]


def test_the_russian_rules_and_the_classifier_share_the_login_after_a_systems_name() -> None:
    # the rules (config/secret-patterns.md) and the short value's label test (values.py) read
    # ``Пароль SSH root@<host> — `<value>` `` alike: one copy changed alone would make the rule
    # find what the classifier then judges with no label, or the other way round
    rules = {rule.name: rule.regex for rule in bundled_rules().rules}
    for name in ("password-backticked", "password-named-after"):
        assert values._DESTINATION in rules[name], name
    assert values._DESTINATION in values.NAMED_BEFORE
    assert values._DESTINATION in values.NAMED_AFTER


def test_numeric_passwords_chained_before_one_command_are_each_found() -> None:
    # each assignment's closing space is the next one's opening: neither may take it whole
    matches = SCANNER.scan("KELP_KEYRING_PASSWORD=9182 VAULT_PASSCODE=7351 kelp sync\n")
    assert [(m.rule, m.end - m.start) for m in matches] == [("env-password-digits", 4)] * 2
    assert [m.start for m in matches] == [22, 42]
