"""One memory file, parsed: frontmatter (either layout), body, links, relations.

Claude Code writes two frontmatter layouts and real trees mix them:

- old: top-level ``name``, ``description``, ``type``;
- current: ``name``, ``description`` and ``metadata: {type, node_type, originSessionId, modified}``.

``MemoryFile.meta(key)`` reads a key from the top level first, then from
``metadata``, so checks never need to know which layout a file uses.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memory_audit.tree import bounded_yaml as safe_yaml
from memory_audit.tree.markdown import Document, Link, first_paragraph, parse_markdown

RELATION_TARGET_KEYS = ("target", "path", "to", "file")


class FileKind(enum.Enum):
    MEMORY = "memory"
    RECAP = "session-recap"
    TEAM = "team"  # shared team notes: scanned for secrets only


@dataclass(frozen=True)
class FileProblem:
    """Something that kept (part of) a file from being understood."""

    code: str
    message: str
    line: int | None = None


@dataclass(frozen=True)
class Relation:
    type: str
    target: str
    line: int | None


@dataclass(frozen=True)
class MemoryFile:
    path: str
    kind: FileKind
    size: int
    mtime: float
    lines: tuple[str, ...]
    frontmatter: Mapping[str, Any] | None
    frontmatter_present: bool
    body_start: int
    problems: tuple[FileProblem, ...]
    markdown: Document  # the body as CommonMark reads it (links, code blocks)
    links: tuple[Link, ...]
    links_unread: tuple[tuple[int, int], ...]  # line ranges past the Markdown parse budget
    relations: tuple[Relation, ...]
    relations_declared: bool
    superseded_by: tuple[str, ...]
    first_paragraph: str
    related: tuple[Relation, ...] = ()  # ``related:`` / ``relates_to:`` values, typed by key

    def meta(self, key: str) -> Any:
        fm = self.frontmatter or {}
        if key in fm:
            return fm[key]
        metadata = fm.get("metadata")
        if isinstance(metadata, Mapping):
            return metadata.get(key)
        return None

    def meta_text(self, key: str) -> str:
        """A frontmatter value as stripped text; empty when absent or not a scalar."""
        value = self.meta(key)
        if value is None or isinstance(value, Mapping | list):
            return ""
        return str(value).strip()

    @property
    def type(self) -> str:
        return self.meta_text("type")

    @property
    def name(self) -> str:
        return self.meta_text("name")

    @property
    def description(self) -> str:
        return self.meta_text("description")

    @property
    def stem(self) -> str:
        return self.path.rsplit("/", 1)[-1].removesuffix(".md")

    @property
    def scope(self) -> frozenset[str]:
        return tags(self.meta("scope"))

    @property
    def always_loaded(self) -> bool:
        """``relevance: always`` (alone or in a list): loaded into every session."""
        value = self.meta("relevance")
        values = value if isinstance(value, list) else [value]
        return any(str(v).strip().lower() == "always" for v in values if v is not None)

    @property
    def body_lines(self) -> Sequence[str]:
        return self.lines[self.body_start - 1 :]

    @property
    def body(self) -> str:
        return "\n".join(self.body_lines)

    @property
    def line_count(self) -> int:
        return len(self.lines)

    def frontmatter_line(self, needle: str) -> int | None:
        """The first frontmatter line that mentions ``needle`` (for pointing at a value)."""
        if not self.frontmatter_present:
            return None
        for number in range(2, self.body_start - 1):
            if needle in self.lines[number - 1]:
                return number
        return None


def tags(value: Any) -> frozenset[str]:
    """Scope-like values as a set of lower-case tags (list, or comma/space separated)."""
    if isinstance(value, list):
        return frozenset(str(v).strip().lower() for v in value if str(v).strip())
    if isinstance(value, str):
        return frozenset(t.lower() for t in re.split(r"[,\s]+", value) if t)
    return frozenset()


def parse_memory_file(
    path: str,
    kind: FileKind,
    text: str,
    size: int,
    mtime: float,
    problems: Sequence[FileProblem] = (),
) -> MemoryFile:
    lines = tuple(text.split("\n"))
    if lines and lines[-1] == "":
        lines = lines[:-1]
    found = list(problems)
    fm_lines, body_start, split_problem = split_frontmatter(lines)
    if split_problem:
        found.append(split_problem)
    frontmatter = _load_frontmatter(fm_lines, found) if fm_lines is not None else None
    relations, declared = _relations(frontmatter, lines, body_start, found)
    body = lines[body_start - 1 :]
    document = parse_markdown(body, body_start)
    return MemoryFile(
        path=path,
        kind=kind,
        size=size,
        mtime=mtime,
        lines=lines,
        frontmatter=frontmatter,
        frontmatter_present=fm_lines is not None,
        body_start=body_start,
        problems=tuple(found),
        markdown=document,
        links=document.links,
        links_unread=document.unread,
        relations=relations,
        relations_declared=declared,
        superseded_by=_superseded_by(frontmatter),
        first_paragraph=first_paragraph(body, body_start),
        related=_related(frontmatter, lines, body_start),
    )


def split_frontmatter(
    lines: Sequence[str],
) -> tuple[Sequence[str] | None, int, FileProblem | None]:
    """Return (frontmatter lines or None, 1-based first body line, problem)."""
    if not lines or lines[0].rstrip() != "---":
        return None, 1, None
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ("---", "..."):
            return lines[1:index], index + 2, None
    problem = FileProblem(
        "unclosed-frontmatter", "frontmatter opened on line 1 is never closed (no closing ---)", 1
    )
    return None, 1, problem


def _load_frontmatter(
    fm_lines: Sequence[str], problems: list[FileProblem]
) -> Mapping[str, Any] | None:
    try:
        value = safe_yaml.load("\n".join(fm_lines))
    except safe_yaml.YAMLProblem as exc:
        line = exc.line + 1 if exc.line is not None else 1
        problems.append(FileProblem("unparseable-frontmatter", exc.message, line))
        return None
    if value is None:
        return {}
    if not isinstance(value, dict):
        kind = "a list" if isinstance(value, list) else f"a {type(value).__name__} scalar"
        problems.append(
            FileProblem(
                "frontmatter-not-mapping", f"frontmatter is {kind}, not key: value pairs", 1
            )
        )
        return None
    return value


def _relations(
    frontmatter: Mapping[str, Any] | None,
    lines: Sequence[str],
    body_start: int,
    problems: list[FileProblem],
) -> tuple[tuple[Relation, ...], bool]:
    raw = (frontmatter or {}).get("relations")
    if raw in (None, "", [], {}):
        return (), False

    def line_of(needle: str) -> int | None:
        for number in range(2, body_start - 1):
            if needle and needle in lines[number - 1]:
                return number
        return None

    relations = []
    for rel_type, target in _relation_pairs(raw):
        if target is None:
            problems.append(
                FileProblem(
                    "malformed-relation",
                    f"relation entry {rel_type!r} has no target",
                    line_of("relations"),
                )
            )
            continue
        relations.append(Relation(rel_type, target, line_of(target) or line_of("relations")))
    return tuple(relations), True


def _relation_pairs(raw: Any) -> Iterator[tuple[str, str | None]]:
    """Accept the shapes seen in the wild: a list of {type, target} mappings,
    a list of {type: target} pairs, a mapping of type -> target(s), or bare targets."""
    if isinstance(raw, Mapping):
        for rel_type, targets in raw.items():
            for target in targets if isinstance(targets, list) else [targets]:
                yield str(rel_type), _target_text(target)
        return
    for item in raw if isinstance(raw, list) else [raw]:
        if isinstance(item, Mapping) and "type" in item:
            target = next((item[k] for k in RELATION_TARGET_KEYS if k in item), None)
            yield str(item["type"]), _target_text(target)
        elif isinstance(item, Mapping):
            yield from _relation_pairs(item)
        else:
            yield "", _target_text(item)


def _target_text(value: Any) -> str | None:
    if value is None or isinstance(value, Mapping | list):
        return None
    text = str(value).strip()
    return text or None


def _superseded_by(frontmatter: Mapping[str, Any] | None) -> tuple[str, ...]:
    return _field_targets(frontmatter, "superseded_by")


def _field_targets(frontmatter: Mapping[str, Any] | None, key: str) -> tuple[str, ...]:
    """A scalar or list field's targets, from the top level or from ``metadata``."""
    if not frontmatter:
        return ()
    value = frontmatter.get(key)
    if value is None:
        metadata = frontmatter.get("metadata")
        value = metadata.get(key) if isinstance(metadata, Mapping) else None
    values = value if isinstance(value, list) else [value]
    return tuple(t for t in (_target_text(v) for v in values) if t)


RELATED_KEYS = ("related", "relates_to")


def _related(
    frontmatter: Mapping[str, Any] | None, lines: Sequence[str], body_start: int
) -> tuple[Relation, ...]:
    """``related:`` and ``relates_to:`` (a list or one value; file names or memory names)."""
    found = []
    for key in RELATED_KEYS:
        for target in _field_targets(frontmatter, key):
            line = next((n for n in range(2, body_start - 1) if target in lines[n - 1]), None)
            found.append(Relation(key, target, line))
    return tuple(found)
