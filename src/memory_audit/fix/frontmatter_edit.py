"""Editing frontmatter line by line, so the rest of the user's YAML stays as written.

Dumping the whole block again would reorder keys, drop comments and restyle
values. These helpers change only the lines they must; a shape they do not
understand raises :class:`CannotEdit` and the session offers a manual fix.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import yaml

from memory_audit.tree import bounded_yaml as safe_yaml

TOP_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\s*:(?P<rest>.*)$")
ITEM = re.compile(r"^(?P<indent>\s+)-\s")


class CannotEdit(Exception):
    """The file's shape is not one these helpers can change safely."""


def scalar(value: Any) -> str:
    """A YAML flow rendering of ``value`` for one line (quoted only when needed)."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return text.removesuffix("\n...\n").strip()


def parses(line: str) -> bool:
    """Whether ``line`` alone is a YAML mapping of one key (a field as written is kept)."""
    try:
        loaded = yaml.safe_load(line)
    except (yaml.YAMLError, RecursionError):  # "key: [[[[…": deeper than the parser goes
        return False
    return isinstance(loaded, dict) and len(loaded) == 1


def span(lines: list[str]) -> tuple[int, int]:
    """Indexes of the opening and closing ``---`` lines."""
    if not lines or lines[0].rstrip() != "---":
        raise CannotEdit("the file has no frontmatter")
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ("---", "..."):
            return 0, index
    raise CannotEdit("the frontmatter is not closed")


def _top_level(lines: list[str], key: str) -> tuple[int, int] | None:
    """(line of ``key:``, line after its value block) for a top-level key."""
    start, end = span(lines)
    for index in range(start + 1, end):
        match = TOP_KEY.match(lines[index])
        if match and match.group("key") == key:
            stop = index + 1
            while stop < end and (lines[stop].startswith((" ", "\t")) or not lines[stop].strip()):
                stop += 1
            return index, stop
    return None


def _nested(lines: list[str], parent: str, key: str) -> int | None:
    block = _top_level(lines, parent)
    if block is None:
        return None
    for index in range(block[0] + 1, block[1]):
        if re.match(rf"^\s+{re.escape(key)}\s*:", lines[index]):
            return index
    return None


def set_value(lines: list[str], key: str, value: Any) -> list[str]:
    """Set ``key`` at the top level, or under ``metadata:`` where the file keeps it there."""
    found = _top_level(lines, key)
    if found is not None:
        return [*lines[: found[0]], f"{key}: {scalar(value)}", *lines[found[1] :]]
    nested = _nested(lines, "metadata", key)
    if nested is not None:
        indent = lines[nested][: len(lines[nested]) - len(lines[nested].lstrip())]
        return [*lines[:nested], f"{indent}{key}: {scalar(value)}", *lines[nested + 1 :]]
    _, end = span(lines)
    return [*lines[:end], f"{key}: {scalar(value)}", *lines[end:]]


def remove_key(lines: list[str], key: str) -> list[str]:
    found = _top_level(lines, key)
    if found is not None:
        return lines[: found[0]] + lines[found[1] :]
    nested = _nested(lines, "metadata", key)
    if nested is not None:
        return lines[:nested] + lines[nested + 1 :]
    raise CannotEdit(f"no `{key}` to remove")


def value_of(lines: list[str], key: str) -> Any:
    found = _top_level(lines, key)
    if found is None:
        return None
    text = "\n".join(lines[found[0] : found[1]])
    loaded = safe_yaml.load(text)
    return loaded.get(key) if isinstance(loaded, dict) else None


def add_list_value(lines: list[str], key: str, value: str) -> list[str]:
    """Make ``key`` hold ``value`` too: set it, or turn a scalar into a list, or append."""
    current = value_of(lines, key)
    if current in (None, "", []):
        return set_value(lines, key, value)
    values = current if isinstance(current, list) else [current]
    if value in values:
        return lines
    return set_value(lines, key, [*values, value])


def add_relation(lines: list[str], relation_type: str, target: str) -> list[str]:
    item = {"type": relation_type, "target": target}
    found = _top_level(lines, "relations")
    if found is None:
        _, end = span(lines)
        return [
            *lines[:end],
            "relations:",
            f"  - type: {scalar(relation_type)}",
            f"    target: {scalar(target)}",
            *lines[end:],
        ]
    head, stop = found
    if TOP_KEY.match(lines[head]).group("rest").strip():  # type: ignore[union-attr]
        current = value_of(lines, "relations")
        if not isinstance(current, list):
            raise CannotEdit("`relations:` is not a list")
        return [*lines[:head], f"relations: {scalar([*current, item])}", *lines[stop:]]
    block_end = stop
    while block_end > head + 1 and not lines[block_end - 1].strip():
        block_end -= 1
    first = next(
        (ITEM.match(lines[i]) for i in range(head + 1, block_end) if ITEM.match(lines[i])), None
    )
    indent = first.group("indent") if first else "  "
    return [
        *lines[:block_end],
        f"{indent}- type: {scalar(relation_type)}",
        f"{indent}  target: {scalar(target)}",
        *lines[block_end:],
    ]


def remove_relation(lines: list[str], relation_type: str, target: str) -> list[str]:
    found = _top_level(lines, "relations")
    if found is None:
        raise CannotEdit("no `relations:` in the frontmatter")
    head, stop = found
    current = value_of(lines, "relations")
    if TOP_KEY.match(lines[head]).group("rest").strip() or not isinstance(current, list):  # type: ignore[union-attr]
        kept = _without(current, relation_type, target)
        return [*lines[:head], f"relations: {scalar(kept)}", *lines[stop:]]
    items = _block_items(lines, head + 1, stop)
    doomed = [(a, b) for a, b in items if _matches(_load_item(lines[a:b]), relation_type, target)]
    if not doomed:
        raise CannotEdit(f"no relation to `{target}` found")
    result = list(lines)
    for a, b in reversed(doomed):
        del result[a:b]
    return result


def _block_items(lines: list[str], start: int, stop: int) -> list[tuple[int, int]]:
    starts = [i for i in range(start, stop) if ITEM.match(lines[i])]
    return [(a, starts[n + 1] if n + 1 < len(starts) else stop) for n, a in enumerate(starts)]


def _load_item(item_lines: list[str]) -> Any:
    loaded = safe_yaml.load(textwrap.dedent("\n".join(item_lines)))
    return loaded[0] if isinstance(loaded, list) and loaded else loaded


def _matches(item: Any, relation_type: str, target: str) -> bool:
    if isinstance(item, dict) and "type" in item:
        found = next((item[k] for k in ("target", "path", "to", "file") if k in item), None)
        return str(item["type"]) == relation_type and str(found) == target
    if isinstance(item, dict) and len(item) == 1:
        ((key, value),) = item.items()
        return str(key) == relation_type and str(value) == target
    return str(item) == target and not relation_type


def _without(current: Any, relation_type: str, target: str) -> Any:
    if isinstance(current, list):
        return [item for item in current if not _matches(item, relation_type, target)]
    if isinstance(current, dict):
        kept: dict[str, Any] = {}
        for key, value in current.items():
            values = value if isinstance(value, list) else [value]
            rest = [v for v in values if not (str(key) == relation_type and str(v) == target)]
            if rest:
                kept[key] = rest if isinstance(value, list) else rest[0]
        return kept
    raise CannotEdit("`relations:` has a shape this fix does not know")
