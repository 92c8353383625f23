"""One factory builds every secret scanner: the configured rules, the gitleaks rules, both
false-positive tables and the salt, whoever asks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memory_audit.secrets.loading import (
    RulesUnavailable,
    ScannerConfig,
    masking_scanner,
    secret_scanner,
)

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "memory_audit"
TOKEN = "fhx_" + "".join(chr(ord("a") + (i * 5) % 26) for i in range(32))
GITLEAKS = "[[rules]]\nid = \"fernhill-any\"\nregex = '''fhx_[a-z]{32}'''\nkeywords = [\"fhx_\"]\n"


def _gitleaks(tmp_path: Path) -> str:
    path = tmp_path / ".gitleaks.toml"
    path.write_text(GITLEAKS)
    return str(path)


def test_only_the_factory_constructs_a_scanner() -> None:
    builders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).as_posix() == "secrets/loading.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Scanner"
            ):
                builders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert builders == []


def test_masking_keeps_the_gitleaks_rules_when_the_patterns_file_is_gone(tmp_path: Path) -> None:
    settings = ScannerConfig(
        patterns=str(tmp_path / "gone.md"),
        gitleaks_config=_gitleaks(tmp_path),
        state_dir=str(tmp_path / "state"),
    )
    with pytest.raises(RulesUnavailable):
        secret_scanner(settings)  # a scan without its rules says so
    text = f"key {TOKEN} and AKIA{'QZ27RT' * 2}{'WXYB'}"
    rules = {m.rule for m in masking_scanner(settings).scan(text)}
    assert "fernhill-any" in rules
    assert "aws-access-key-id" in rules  # the bundled rules stand in for the missing file


def test_masking_keeps_the_patterns_when_the_gitleaks_file_is_gone(tmp_path: Path) -> None:
    patterns = tmp_path / "patterns.md"
    patterns.write_text(
        '# Rules\n\n```json\n[{"name": "teapot-token", "type": "teapot token",\n'
        '  "regex": "tpt_[a-z]{20}", "keywords": ["tpt_"]}]\n```\n'
    )
    settings = ScannerConfig(
        patterns=str(patterns),
        gitleaks_config=str(tmp_path / "gone.toml"),
        state_dir=str(tmp_path / "state"),
    )
    found = masking_scanner(settings).scan("the token tpt_" + TOKEN[4:24])
    assert [m.rule for m in found] == ["teapot-token"]
