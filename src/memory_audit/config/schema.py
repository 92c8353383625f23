"""Building frozen dataclasses from YAML nodes, with every error naming key and line.

The schema *is* the dataclasses: field names are the keys, annotations the
types (``bool``, ``int``, ``float``, ``str``, ``str | None``, ``Literal[...]``,
``tuple[str, ...]``, nested dataclasses), defaults the defaults. A field's
``metadata`` may add ``range=(low, high)`` or ``check=callable`` returning an
error text or None. Errors are collected, not raised one at a time, so the
user fixes a file in one go.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import yaml

from memory_audit.config import fields

T = TypeVar("T")


@dataclasses.dataclass
class Problems:
    source: str
    messages: list[str] = dataclasses.field(default_factory=list)
    _lines: list[int] = dataclasses.field(default_factory=list)

    def add(self, node: yaml.Node | None, key: str, text: str) -> None:
        where = f"{self.source}:{node.start_mark.line + 1}" if node is not None else self.source
        self.messages.append(f"{where}: {key}: {text}")
        self._lines.append(node.start_mark.line if node is not None else -1)

    def in_line_order(self) -> list[str]:
        """The messages as the file reads (``checks`` is validated last, but not listed so)."""
        order = sorted(range(len(self.messages)), key=self._lines.__getitem__)
        return [self.messages[i] for i in order]


def build(
    cls: type[T],
    node: yaml.Node | None,
    key: str,
    problems: Problems,
    also_valid: tuple[str, ...] = (),
) -> T:
    """An instance of the dataclass ``cls`` from a mapping node (None: all defaults).

    ``also_valid`` names keys the caller reads itself (the top level's ``checks``), so the
    list of valid keys in an error is complete."""
    if node is None or _is_null(node):
        return cls()
    if not isinstance(node, yaml.MappingNode):
        problems.add(node, key or "(top level)", "expected a mapping of options")
        return cls()
    hints = typing.get_type_hints(cls)
    fields = settable_fields(cls)
    values: dict[str, Any] = {}
    for key_node, value_node in node.value:
        name = str(key_node.value)
        full = f"{key}.{name}" if key else name
        if name not in fields:
            valid = ", ".join([*fields, *also_valid])
            problems.add(key_node, full, f"unknown key (valid: {valid})")
            continue
        value = convert(hints[name], value_node, full, problems)
        if value is not _INVALID:
            if error := _field_check(fields[name], value):
                problems.add(value_node, full, error)
            else:
                values[name] = value
    return cls(**values)


_INVALID: Any = object()
INTERNAL = fields.INTERNAL


def settable_fields(cls: type[Any]) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls) if not f.metadata.get("internal")}


def convert(hint: Any, node: yaml.Node, key: str, problems: Problems) -> Any:
    origin = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint):
        return build(typing.cast(type[Any], hint), node, key, problems)
    if origin in (types.UnionType, typing.Union):
        return _optional(hint, node, key, problems)
    if origin is tuple:
        return _sequence(typing.get_args(hint)[0], node, key, problems)
    if origin is Literal:
        return _literal(typing.get_args(hint), node, key, problems)
    return _typed_scalar(hint, node, key, problems)


def _optional(hint: Any, node: yaml.Node, key: str, problems: Problems) -> Any:
    if _is_null(node):
        return None
    present = [a for a in typing.get_args(hint) if a is not type(None)]
    return convert(present[0], node, key, problems)


def _literal(allowed: tuple[Any, ...], node: yaml.Node, key: str, problems: Problems) -> Any:
    value = _scalar(node) if isinstance(node, yaml.ScalarNode) else None
    if value not in allowed:
        problems.add(node, key, f"{value!r} is not one of {', '.join(map(str, allowed))}")
        return _INVALID
    return value


def _sequence(item: Any, node: yaml.Node, key: str, problems: Problems) -> Any:
    if isinstance(node, yaml.ScalarNode) and not _is_null(node):
        nodes: list[yaml.Node] = [node]
    elif isinstance(node, yaml.SequenceNode):
        nodes = list(node.value)
    elif _is_null(node):
        return ()
    else:
        problems.add(node, key, "expected a list")
        return _INVALID
    values = [convert(item, n, f"{key}[{i}]", problems) for i, n in enumerate(nodes)]
    return _INVALID if _INVALID in values else tuple(values)


def _typed_scalar(hint: Any, node: yaml.Node, key: str, problems: Problems) -> Any:
    if not isinstance(node, yaml.ScalarNode):
        problems.add(
            node,
            key,
            f"expected {_name(hint)}, got a {_node_kind(node)}",
        )
        return _INVALID
    value = _scalar(node)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint is str and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, hint) or (hint is int and isinstance(value, bool)):
        problems.add(node, key, f"expected {_name(hint)}, got {value!r}")
        return _INVALID
    return value


def _node_kind(node: yaml.Node) -> str:
    return "list" if isinstance(node, yaml.SequenceNode) else "mapping"


def _scalar(node: yaml.Node) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def _name(hint: Any) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text"}.get(
        hint, str(hint)
    )


def _field_check(field: dataclasses.Field[Any], value: Any) -> str | None:
    low_high = field.metadata.get("range")
    if low_high is not None and isinstance(value, int | float):
        low, high = low_high
        if not low <= value <= high:
            return f"{value} is out of range ({low} to {high})"
    check: Callable[[Any], str | None] | None = field.metadata.get("check")
    return check(value) if check is not None else None


def describe(cls: type[Any], prefix: str = "") -> list[tuple[str, Any]]:
    """(dotted key, default) for every option, for ``config show``."""
    rows: list[tuple[str, Any]] = []
    hints = typing.get_type_hints(cls)
    for field in settable_fields(cls).values():
        key = f"{prefix}{field.name}"
        if dataclasses.is_dataclass(hints[field.name]):
            rows.extend(describe(hints[field.name], key + "."))
        else:
            rows.append((key, field.default if field.default is not dataclasses.MISSING else None))
    return rows
