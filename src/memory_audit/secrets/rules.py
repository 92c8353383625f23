"""Secret rules from a markdown file: a JSON code block of rules, a false-positive table.

The format is the one ``config/secret-patterns.md`` documents. A rule that
does not compile is left out and named in ``problems``; the others still run.
A rule is compiled once, by RE2 for the bytes the scanner matches (the stdlib
is asked only about a regex RE2 refuses): checking a rule is building it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_audit.analysis.fast_regex import compile_fast
from memory_audit.regular_files import read_regular
from memory_audit.resource_files import read_resource

try:
    import re2 as _re2
except ImportError:  # pragma: no cover - google-re2 is a dependency; a broken wheel: stdlib
    _re2 = None
RE2_ERRORS: tuple[type[Exception], ...] = (_re2.error,) if _re2 is not None else ()
# The combined generic rules thrashed RE2's default 8 MB DFA cache; one rule's rarely does.
DFA_MEMORY = 64 << 20

JSON_FENCE = "```json"
TABLE_ROW = re.compile(r"^\|\s*([0-9a-f]{16,64})\s*\|", re.M)
BUNDLED = ("config", "secret-patterns.md")
# What a generic rule's value must look like (see memory_audit.secrets.values).
VALUE_KINDS = (
    "mixed",
    "strong",
    "symbol",
    "credential",
    "token",
    "known",
    "any",
    "key",
    "digits",
    "pin",
    "letters",
    "mnemonic",
    "bytes",
    "section",
    "token-section",
    "cookie-section",
)


@dataclass(frozen=True)
class Allow:
    """An allowlist (gitleaks' term): a match whose secret fits it is not a secret."""

    regexes: tuple[str, ...] = ()
    stopwords: tuple[str, ...] = ()

    def covers(self, secret: str) -> bool:
        lowered = secret.lower()
        if any(word in lowered for word in self.stopwords):
            return True
        return any(_compiled(regex).search(secret) for regex in self.regexes)


@functools.lru_cache(maxsize=512)
def _compiled(regex: str) -> Any:
    return compile_fast(regex)


@functools.lru_cache(maxsize=1024)
def bytes_pattern(source: str) -> Any:
    """The RE2 pattern of ``source`` for UTF-8 bytes (RE2 reads the pattern as UTF-8 either
    way); raises RE2's error for a regex RE2 refuses."""
    assert _re2 is not None
    options = _re2.Options()
    options.max_mem = DFA_MEMORY
    return _re2.compile(source.encode(), options)


def compile_problem(regex: str) -> str | None:
    """Why ``regex`` compiles in neither engine; None when RE2 or the stdlib takes it."""
    if _re2 is not None:
        with contextlib.suppress(*RE2_ERRORS):
            bytes_pattern(regex)
            return None
    try:
        re.compile(regex)
    except re.error as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class Rule:
    name: str
    label: str
    regex: str
    keywords: tuple[str, ...]
    entropy: float | None = None
    generic: bool = False
    allows: tuple[Allow, ...] = ()
    value: str | None = None  # one of VALUE_KINDS: the shape a generic rule's value has
    # a table rule: ``regex`` names a column in a table's header, its cells are the values
    table: bool = False
    # strings (case-sensitive) of which one must also be in a text for the rule to run
    requires: tuple[str, ...] = ()
    # a regex every text the rule matches in also matches, looser and cheaper than the rule
    # (its keyword and a "/" a few characters on): searched in the keyword pass, it keeps
    # the rule from reading the many texts that hold its keyword and no match
    gate: str | None = None
    # a specific rule whose value a person chooses (a URL's password): a repository may
    # publish it as a demo or default (secrets/published.py), as a generic rule's password
    chosen: bool = False
    # compiled when loaded (a user's rule); the bundled rules, which the test suite compiles
    # in both engines, are compiled when a text first needs them
    checked: bool = True

    def allowed(self, secret: str) -> bool:
        """True when an allowlist of the rule covers ``secret``."""
        return any(allow.covers(secret) for allow in self.allows)


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...]
    false_positives: frozenset[str]
    source: str
    problems: tuple[str, ...] = ()


def bundled_rules() -> RuleSet:
    """The rules shipped in the package. Their regexes are not compiled here: most runs need
    a few of them (compiling all took some 13 ms of every start, one rule a third of it)."""
    return parse_rules(read_resource(*BUNDLED), "bundled secret-patterns.md", check=False)


def load_rules(path: Path) -> RuleSet:
    return parse_rules(read_regular(path).decode("utf-8"), str(path))


def parse_rules(text: str, source: str, *, check: bool = True) -> RuleSet:
    """The rules of a rules file; with ``check``, a rule whose regex compiles in neither
    engine is left out and named in ``problems``."""
    block = json_block(text)
    if block is None:
        return RuleSet((), _false_positives(text), source, (f"{source}: no ```json block",))
    try:
        raw = json.loads(block)
    except ValueError as exc:
        return RuleSet((), _false_positives(text), source, (f"{source}: invalid JSON: {exc}",))
    rules: list[Rule] = []
    problems: list[str] = []
    for item in raw if isinstance(raw, list) else []:
        rule, problem = _rule(item, check)
        if rule is not None:
            rules.append(rule)
        if problem:
            problems.append(f"{source}: {problem}")
    return RuleSet(tuple(rules), _false_positives(text), source, tuple(problems))


def json_block(text: str) -> str | None:
    """The body of the first ```` ```json ```` block: from the line after its opening fence
    (```` ```json ````, spaces or tabs, a line break) up to the next line that starts with
    ```` ``` ````. Found with ``str.find``: a regex's lazy ``(.*?)^```` took a step per
    character of the 25 KB bundled file, in the stdlib engine (its text is not Latin-1)."""
    at = text.find(JSON_FENCE)
    while at != -1:
        if at == 0 or text[at - 1] == "\n":
            end = at + len(JSON_FENCE)
            while text[end : end + 1] in (" ", "\t"):
                end += 1
            if text[end : end + 1] == "\n":
                closing = text.find("\n```", end)
                return text[end + 1 : closing + 1] if closing != -1 else None
        at = text.find(JSON_FENCE, at + 1)
    return None


def _rule(item: Any, check: bool) -> tuple[Rule | None, str | None]:
    if not isinstance(item, dict) or not all(
        isinstance(item.get(k), str) for k in ("name", "regex")
    ):
        return None, f"rule {item!r:.60} needs a name and a regex"
    name = item["name"]
    keywords = item.get("keywords") or []
    entropy = item.get("entropy")
    problem = compile_problem(item["regex"]) if check else None
    if problem is not None:
        return None, f"rule {name!r}: regex does not compile ({problem})"
    requires = item.get("requires") or []
    problem = _field_problem(item, keywords, requires, check)
    if problem is not None:
        return None, f"rule {name!r}: {problem}"
    rule = Rule(
        name=name,
        label=str(item.get("type") or name),
        regex=item["regex"],
        keywords=tuple(k.lower() for k in keywords),
        entropy=float(entropy) if entropy is not None else None,
        generic=bool(item.get("generic", False)),
        value=item.get("value"),
        table=bool(item.get("table", False)),
        requires=tuple(requires),
        gate=item.get("gate"),
        chosen=bool(item.get("chosen", False)),
        checked=check,
    )
    return rule, None


def _field_problem(item: dict[str, Any], keywords: Any, requires: Any, check: bool) -> str | None:
    """What is wrong with a rule's optional fields; None when nothing is."""
    for field, strings in (("keywords", keywords), ("requires", requires)):
        if not isinstance(strings, list) or not all(isinstance(k, str) for k in strings):
            return f"{field} must be a list of strings"
    entropy = item.get("entropy")
    if entropy is not None and not isinstance(entropy, int | float):
        return "entropy must be a number"
    if item.get("value") not in (None, *VALUE_KINDS):
        return f"value must be one of {', '.join(VALUE_KINDS)}"
    gate = item.get("gate")
    if gate is not None and not isinstance(gate, str):
        return "gate must be a regex"
    # searched with the keywords, in RE2's set when RE2 is present: RE2 must take it
    problem = _gate_problem(gate) if check and gate is not None else None
    return f"gate does not compile ({problem})" if problem is not None else None


def _gate_problem(gate: str) -> str | None:
    if _re2 is None:
        return compile_problem(gate)
    try:
        bytes_pattern(gate)
    except RE2_ERRORS as exc:
        return str(exc)
    return None


def _false_positives(text: str) -> frozenset[str]:
    heading = re.search(r"^#+\s*False positives\s*$", text, re.M | re.I)
    if heading is None:
        return frozenset()
    return frozenset(TABLE_ROW.findall(text, heading.end()))


def false_positive_row(fingerprint: str, rule: str, path: str, note: str) -> str:
    cells = [
        fingerprint,
        rule,
        path.replace("|", "\\|"),
        note.replace("|", "\\|").replace("\n", " "),
    ]
    return "| " + " | ".join(cells) + " |\n"
