"""Loading untrusted YAML with bounded cost.

PyYAML's safe loader already refuses tags that build Python objects and caps
nesting depth. What it does not bound is the *size* of the result: an alias
bomb loads instantly because aliases share one object, and only explodes when
something walks it. So every loaded value is copied into plain data under a
node budget before anything else looks at it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import yaml

# libyaml's loader is several times faster; pure Python where libyaml is missing.
_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[valid-type,misc]
    """The safe loader, except that an impossible date stays a string.

    PyYAML raises on ``review_by: 2026-13-45``, which would make the whole
    frontmatter unusable; the date checks report the bad value instead.
    """


def _timestamp(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    try:
        return loader.construct_yaml_timestamp(node)  # type: ignore[arg-type]
    except ValueError:
        return loader.construct_scalar(node)  # type: ignore[arg-type]


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)

MAX_NODES = 10_000
MAX_TEXT = 64 * 1024
# Python refuses to print an int of over 4,300 digits (ValueError); YAML reads ``0xfff…``
# of any length. Past this many bits (about 4,000 digits) a number stays a short text.
MAX_INT_BITS = 13_000
HUGE_NUMBER = "<a number too long to show>"


class YAMLProblem(Exception):
    """YAML that cannot be used; ``line`` is 1-based within the given text."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def load(text: str) -> Any:
    """Parse one YAML document and return it as plain, bounded data."""
    if len(text) > MAX_TEXT:
        raise YAMLProblem(
            f"YAML block is {len(text) // 1024} KB, over the {MAX_TEXT // 1024} KB limit"
        )
    try:
        value = yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise YAMLProblem(_describe(exc), line) from None
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        raise YAMLProblem(f"invalid YAML: {type(exc).__name__}") from None
    return plain(value)


def plain(value: Any) -> Any:
    """Copy ``value`` into fresh dicts, lists and scalars, at most MAX_NODES of them."""
    budget = [MAX_NODES]
    try:
        return _copy(value, budget)
    except RecursionError:
        raise YAMLProblem("YAML is nested too deeply; not used") from None


def _copy(value: Any, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise YAMLProblem(
            f"YAML expands to more than {MAX_NODES} values (an alias bomb?); not used"
        )
    if isinstance(value, dict):
        return {_key(k): _copy(v, budget) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_copy(v, budget) for v in value]
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        return HUGE_NUMBER
    if value is None or isinstance(value, str | bool | int | float | dt.date):
        return value
    if isinstance(value, bytes):
        return f"<{len(value)} bytes of binary>"
    return str(value)


def _key(key: Any) -> Any:
    # Keys must stay hashable scalars; YAML allows lists as keys, we do not.
    if isinstance(key, int) and key.bit_length() > MAX_INT_BITS:
        return HUGE_NUMBER
    if key is None or isinstance(key, str | bool | int | float | dt.date):
        return key
    return str(key)


def _describe(exc: yaml.MarkedYAMLError) -> str:
    problem = exc.problem or "invalid YAML"
    if exc.context:
        return f"invalid YAML: {problem} ({exc.context})"
    return f"invalid YAML: {problem}"
