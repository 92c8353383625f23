"""Rules from a gitleaks configuration (``.gitleaks.toml``), read with the standard library.

Each ``[[rules]]`` entry becomes a :class:`~memory_audit.secrets.rules.Rule`:

- ``regex`` (Go RE2 syntax): a leading ``(?i)`` becomes ``(?i:...)`` so the rule
  can sit inside the combined pattern; named groups become plain groups; the
  group ``secretGroup`` names (default: the first group, if any) becomes the
  ``secret`` group;
- ``keywords``: the prefilter, as in gitleaks (no keywords: the rule always runs);
- ``entropy``: the minimum Shannon entropy of the secret;
- ``allowlist`` / ``allowlists`` of the rule and the global ``[allowlist]`` /
  ``[[allowlists]]``: ``regexes`` (tested against the secret, whatever
  ``regexTarget`` says) and ``stopwords`` (the secret contains one) drop a
  match. ``paths`` and ``commits`` describe a repository, not a memory file,
  and are not used.

A rule without a ``regex`` (a path-only rule) or that does not compile in
the engine here is left out and named in ``problems``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from memory_audit.regular_files import read_regular
from memory_audit.secrets.rules import Allow, Rule, RuleSet

LEADING_FLAGS = re.compile(r"^\(\?([a-zA-Z]+)\)")


def load_gitleaks(path: Path) -> RuleSet:
    """The rules of a gitleaks TOML file (``OSError``/``UnicodeDecodeError`` propagate)."""
    source = str(path)
    try:
        data = tomllib.loads(read_regular(path).decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        return RuleSet((), frozenset(), source, (f"{source}: invalid TOML: {exc}",))
    shared = tuple(_allows(data, "allowlist", "allowlists"))
    rules: list[Rule] = []
    problems: list[str] = []
    for item in data.get("rules", []):
        rule, problem = _rule(item, shared)
        if rule is not None:
            rules.append(rule)
        if problem:
            problems.append(f"{source}: {problem}")
    return RuleSet(tuple(rules), frozenset(), source, tuple(problems))


def _rule(item: Any, shared: tuple[Allow, ...]) -> tuple[Rule | None, str | None]:
    if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
        return None, f"rule {item!r:.60} needs an id"
    name = item["id"]
    if not isinstance(item.get("regex"), str):
        return None, f"rule {name!r}: no regex (path-only rules do not apply to memory)"
    try:
        regex = translate(item["regex"], int(item.get("secretGroup") or 0))
        re.compile(regex)
        allows = (*shared, *_allows(item, "allowlist", "allowlists"))
    except (re.error, ValueError, TypeError) as exc:
        return None, f"rule {name!r}: not usable here ({exc})"
    keywords = item.get("keywords") or []
    entropy = item.get("entropy")
    return Rule(
        name=name,
        label=str(item.get("description") or name),
        regex=regex,
        keywords=tuple(str(k).lower() for k in keywords),
        entropy=float(entropy) if isinstance(entropy, int | float) else None,
        allows=allows,
    ), None


def translate(regex: str, secret_group: int) -> str:
    """A gitleaks regex in the rule syntax here: scoped flags, one ``secret`` group."""
    flags = LEADING_FLAGS.match(regex)
    if flags:
        regex = f"(?{flags.group(1)}:{regex[flags.end() :]})"
    groups = list(_capturing_groups(regex))
    wanted = secret_group or (1 if groups else 0)
    if wanted > len(groups):
        raise ValueError(f"secretGroup {secret_group} but {len(groups)} groups")
    pieces: list[str] = []
    last = 0
    for number, (start, end) in enumerate(groups, start=1):
        pieces.append(regex[last:start])
        pieces.append("(?P<secret>" if number == wanted else "(")
        last = end
    pieces.append(regex[last:])
    return "".join(pieces)


def _capturing_groups(regex: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each capturing group's opening: ``(`` or ``(?P<name>``."""
    escaped = in_class = False
    for i, char in enumerate(regex):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            named = re.match(r"\(\?P?<[A-Za-z_]\w*>", regex[i:])
            if named:
                yield i, i + named.end()
            elif not regex.startswith("(?", i):
                yield i, i + 1


def _allows(table: Mapping[str, Any], single: str, several: str) -> Iterator[Allow]:
    one = table.get(single)
    lists: list[Mapping[str, Any]] = [one] if isinstance(one, Mapping) else []
    lists += [a for a in table.get(several, []) if isinstance(a, Mapping)]
    for allow in lists:
        yield Allow(
            regexes=tuple(str(r) for r in allow.get("regexes", [])),
            stopwords=tuple(str(w).lower() for w in allow.get("stopwords", [])),
        )
