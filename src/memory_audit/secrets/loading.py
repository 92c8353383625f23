"""The one place a secret scanner is built: from the configured rules, the false-positive
tables and the salt.

Every part that scans or masks (the secrets check, the engine's redaction boundary, the
daemon's alerts and journal, review, restore, timeline) calls :func:`secret_scanner` or
:func:`masking_scanner` with the ``checks.secrets`` options, so they all know the same
rules.

Rules come from the configured patterns file, else the bundled one, plus the
rules of a gitleaks configuration when one is configured. False
positives are the union of the rules file's table and the user's own table in
the state folder (where ``memory-audit review`` records them). Scanners are
cached by file identity, so the daemon pays for compilation once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from memory_audit.config.paths import default_state_dir
from memory_audit.secrets.redact import load_salt
from memory_audit.secrets.rules import RuleSet, bundled_rules, load_rules, parse_rules
from memory_audit.secrets.scanner import Scanner

FALSE_POSITIVES_NAME = "secret-false-positives.md"
FALSE_POSITIVES_HEADER = """# Secret false positives

Matches marked "not a secret". Fingerprints are salted hashes; the secret itself is never stored.

## False positives

| fingerprint | pattern | file | note |
|---|---|---|---|
"""


class RulesUnavailable(Exception):
    """The configured patterns file cannot be used; the message says why."""


def false_positives_path(state_dir: Path) -> Path:
    return state_dir / FALSE_POSITIVES_NAME


class ScannerSettings(Protocol):
    """What a scanner is built from: the ``checks.secrets`` options satisfy it."""

    @property
    def patterns(self) -> str | None: ...

    @property
    def gitleaks_config(self) -> str | None: ...

    @property
    def state_dir(self) -> str | None: ...


@dataclass(frozen=True)
class ScannerConfig:
    """Scanner settings outside a configuration (tests, benchmarks): the bundled rules."""

    patterns: str | None = None
    gitleaks_config: str | None = None
    state_dir: str | None = None


def secret_scanner(settings: ScannerSettings | None) -> Scanner:
    """The scanner of the configured rules: the patterns file (else the bundled rules), a
    gitleaks configuration's rules, both false-positive tables and the salt of the state
    folder. Raises :class:`RulesUnavailable` when a configured file cannot be used: a scan
    without its rules must say it did not run."""
    settings = settings or ScannerConfig()
    return _load(settings.patterns, settings.state_dir, settings.gitleaks_config)


def masking_scanner(settings: ScannerSettings | None) -> Scanner:
    """The scanner for masking text, which never turns itself off: a patterns file that
    cannot be used is replaced by the bundled rules, and a gitleaks configuration that
    cannot be read is left out (each as little as it must)."""
    settings = settings or ScannerConfig()
    patterns, state_dir, gitleaks = settings.patterns, settings.state_dir, settings.gitleaks_config
    for chosen in ((patterns, gitleaks), (None, gitleaks), (patterns, None)):
        try:
            return _load(chosen[0], state_dir, chosen[1])
        except RulesUnavailable:
            continue
    return _load(None, state_dir, None)


def _load(patterns: str | None, state_dir: str | None, gitleaks: str | None) -> Scanner:
    rules = Path(patterns).expanduser() if patterns else None
    extra = Path(gitleaks).expanduser() if gitleaks else None
    return _load_paths(rules, Path(state_dir or default_state_dir()).expanduser(), extra)


def _load_paths(patterns: Path | None, state_dir: Path, gitleaks: Path | None) -> Scanner:
    return _cached(
        patterns,
        _identity(patterns),
        state_dir,
        _identity(false_positives_path(state_dir)),
        gitleaks,
        _identity(gitleaks),
    )


def _identity(path: Path | None) -> tuple[int, int] | None:
    if path is None:
        return None
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


@functools.lru_cache(maxsize=8)
def _cached(
    patterns: Path | None,
    patterns_identity: tuple[int, int] | None,
    state_dir: Path,
    false_positives_identity: tuple[int, int] | None,
    gitleaks: Path | None = None,
    gitleaks_identity: tuple[int, int] | None = None,
) -> Scanner:
    rules = _rules(patterns)
    if gitleaks is not None:
        extra_rules = _gitleaks_rules(gitleaks)
        rules = replace(
            rules,
            rules=rules.rules + extra_rules.rules,
            problems=rules.problems + extra_rules.problems,
        )
    extra = _user_false_positives(state_dir) if false_positives_identity else frozenset()
    rules = replace(rules, false_positives=rules.false_positives | extra)
    return Scanner(rules, load_salt(state_dir))


def _gitleaks_rules(path: Path) -> RuleSet:
    # imported here: only a configured gitleaks file needs it (and TOML's reader), which
    # cost every other scan some 0.8% of a secrets sweep
    from memory_audit.secrets.gitleaks import load_gitleaks

    try:
        return load_gitleaks(path)
    except FileNotFoundError:
        raise RulesUnavailable(f"gitleaks config {path} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesUnavailable(f"gitleaks config {path} unreadable ({exc})") from None


def _rules(patterns: Path | None) -> RuleSet:
    if patterns is None:
        return bundled_rules()
    try:
        return load_rules(patterns)
    except FileNotFoundError:
        raise RulesUnavailable(f"patterns file {patterns} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesUnavailable(f"patterns file {patterns} unreadable ({exc})") from None


def _user_false_positives(state_dir: Path) -> frozenset[str]:
    try:
        text = false_positives_path(state_dir).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return frozenset()
    return parse_rules(text, "false positives").false_positives
