"""gitleaks rules as an input: regex translation, keywords, entropy and allowlists honoured."""

from __future__ import annotations

import random
import string
from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.secrets.gitleaks import load_gitleaks, translate
from memory_audit.secrets.scanner import Scanner
from tests.harness import findings, memory, write_tree

_rng = random.Random(7)
TOKEN = "".join(_rng.choice(string.ascii_letters + string.digits) for _ in range(32))
TOML = r"""
title = "team rules"

[allowlist]
description = "global"
stopwords = ["fernhilltest"]

[[rules]]
id = "fernhill-api-key"
description = "Fernhill API key"
regex = '''(?i)(?:fernhill)(?:[0-9a-z\-_\t .]{0,20})(?:=|:)\s*['"]?(fh_[a-z0-9]{32})'''
secretGroup = 1
keywords = ["fernhill"]
entropy = 3.5

  [rules.allowlist]
  regexes = ['''fh_0{32}''']

[[rules]]
id = "fernhill-any"
regex = '''(?P<prefix>fhx)_(?P<body>[A-Za-z0-9]{32})'''
secretGroup = 2
keywords = ["fhx_"]

[[rules]]
id = "pem-files"
path = '''\.pem$'''
"""


def _rules(tmp_path: Path) -> Path:
    path = tmp_path / ".gitleaks.toml"
    path.write_text(TOML, encoding="utf-8")
    return path


def test_gitleaks_rules_translate_and_report_path_only_rules(tmp_path: Path) -> None:
    rules = load_gitleaks(_rules(tmp_path))
    assert [r.name for r in rules.rules] == ["fernhill-api-key", "fernhill-any"]
    assert rules.rules[0].keywords == ("fernhill",)
    assert rules.rules[0].entropy == 3.5
    assert rules.rules[0].label == "Fernhill API key"
    assert "'pem-files': no regex" in rules.problems[0]
    assert translate("(?i)a(b)(c)", 2) == "(?i:a(b)(?P<secret>c))"
    assert translate(r"x[(]y(z)", 0) == r"x[(]y(?P<secret>z)"


def test_gitleaks_keywords_entropy_and_allowlists_are_honoured(tmp_path: Path) -> None:
    scanner = Scanner(load_gitleaks(_rules(tmp_path)), b"salt")
    secret = "fh_" + TOKEN.lower()
    [hit] = scanner.scan(f"FERNHILL_KEY = '{secret}'\n")
    assert (hit.rule, hit.end - hit.start) == ("fernhill-api-key", len(secret))
    assert scanner.scan(f"key = '{secret}'\n") == []  # no keyword
    assert scanner.scan("fernhill: fh_" + "ab" * 16 + "\n") == []  # entropy below 3.5
    assert scanner.scan("fernhill: fh_" + "0" * 32 + "\n") == []  # the rule's allowlist
    assert scanner.scan("fernhill: fh_fernhilltest" + TOKEN.lower()[:21] + "\n") == []  # stopword
    [other] = scanner.scan(f"fhx_{TOKEN}\n")
    assert other.end - other.start == 32


def test_secrets_check_reads_the_configured_gitleaks_file(tree_dir: Path, tmp_path: Path) -> None:
    write_tree(tree_dir, {"a.md": memory("a", body=f"the fernhill key: fh_{TOKEN.lower()}")})
    options = {
        "secrets": Options(gitleaks_config=str(_rules(tmp_path)), state_dir=str(tmp_path / "s"))
    }
    [finding] = findings(tree_dir, "secrets", options=options)
    assert "(pattern: fernhill-api-key)" in finding.message
    assert TOKEN.lower() not in finding.message
