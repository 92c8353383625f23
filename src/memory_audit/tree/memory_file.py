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
from functools import cached_property
from typing import Any

from memory_audit.tree.file_problem import FileProblem
from memory_audit.tree.frontmatter_block import Split, split_block
from memory_audit.tree.markdown import (
    Document,
    Link,
    first_paragraph,
    links_and_code,
    parse_markdown,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memory_audit.tree.frontmatter_read import Frontmatter

__all__ = ["FileKind", "FileProblem", "MemoryFile", "Relation", "parse_memory_file", "tags"]

RELATION_TARGET_KEYS = ("target", "path", "to", "file")
# Another schema's id of its target (``targetId``, ``target_id``, ``noteId``, ``uuid``)
OWN_ID_KEY = re.compile(r"[a-z]+Id|[a-z]+_id|uuid|slug")
RECAP_TYPE = "session-recap"
# Where a note without a description says what it is about: its first heading, this near
# the top, cut to a hook's length
HEADING_LINES = 20
HOOK_FROM_HEADING = 150
UNCLOSED = FileProblem(
    "unclosed-frontmatter", "frontmatter opened on line 1 is never closed (no closing ---)", 1
)


class FileKind(enum.Enum):
    MEMORY = "memory"
    RECAP = "session-recap"
    TEAM = "team"  # shared team notes: scanned for secrets only
    NOT_MEMORY = "not-memory"  # README.md, encrypted files: listed as skipped, scanned for secrets


@dataclass(frozen=True)
class Relation:
    type: str
    target: str
    line: int | None


@dataclass(frozen=True)
class MemoryFile:
    """One file's text; everything parsed from it is computed on first use.

    ``--check secrets`` and the service's change scan read ``lines`` only, so
    they never start a YAML parser; the structural checks pay for the parse once.
    """

    path: str
    listed_kind: FileKind  # what the file's place and name say; ``kind`` adds its type
    size: int
    mtime: float
    text: str  # as read; a scan of the whole file needs no lines
    read_problems: tuple[FileProblem, ...] = ()

    @property
    def lines(self) -> tuple[str, ...]:
        """The lines, without the line break that ends the last one: cut from the text on
        first use and kept only while the last few files' are (a tree's lines held as
        strings weighed more than its text; issue 28 item 5): the checks read one file
        after another, each asking a file's lines several times in a row."""
        recent = _RECENT_LINES[0]
        for memory, lines in recent:
            if memory is self:
                return lines
        lines = tuple(_cut_lines(self.text))
        _RECENT_LINES[0] = ((self, lines), *recent[: RECENT_FILES - 1])
        return lines

    @property
    def joined(self) -> str:
        """``"\\n".join(self.lines)``, without splitting the text into lines."""
        return self.text[:-1] if self.text.endswith("\n") else self.text

    @cached_property
    def kind(self) -> FileKind:
        if self.listed_kind is FileKind.MEMORY and self.type == RECAP_TYPE:
            return FileKind.RECAP
        return self.listed_kind

    @cached_property
    def split(self) -> Split:
        # A file that opens with a Markdown rule above its title (``---``, ``# Title``,
        # prose) holds no frontmatter its author wrote: read as one with none, its body
        # from line 1 (the load budget cuts where Claude Code cuts: ``split_block``).
        split = split_block(self.lines)
        return Split(None, False) if split.ruled else split

    @cached_property
    def read(self) -> Frontmatter:
        # The YAML readers load with the first block read: a secrets-only run reads none.
        from memory_audit.tree.frontmatter_read import Frontmatter, read_frontmatter

        block = self.split.block
        return read_frontmatter(block) if block is not None else Frontmatter(None, None)

    @property
    def frontmatter(self) -> Mapping[str, Any] | None:
        return self.read.fields

    @property
    def frontmatter_present(self) -> bool:
        return self.split.block is not None

    @property
    def body_start(self) -> int:
        block = self.split.block
        return block.body_start if block is not None else 1

    @cached_property
    def problems(self) -> tuple[FileProblem, ...]:
        found = list(self.read_problems)
        if self.split.opened and self.split.block is None:
            found.append(UNCLOSED)
        found += self.read.problems
        found += self._relations[2]
        return tuple(found)

    @cached_property
    def markdown(self) -> Document:
        """The body as CommonMark reads it (links, code blocks), parsed once on first use."""
        return links_and_code(parse_markdown(self.body_lines, self.body_start))

    @property
    def links(self) -> tuple[Link, ...]:
        return self.markdown.links

    @property
    def links_unread(self) -> tuple[tuple[int, int], ...]:
        """Line ranges past the Markdown parse budget."""
        return self.markdown.unread

    @cached_property
    def _relations(self) -> tuple[tuple[Relation, ...], bool, tuple[FileProblem, ...]]:
        problems: list[FileProblem] = []
        relations, declared = _relations(self.frontmatter, self.lines, self.body_start, problems)
        return relations, declared, tuple(problems)

    @property
    def relations(self) -> tuple[Relation, ...]:
        return self._relations[0]

    @property
    def relations_declared(self) -> bool:
        return self._relations[1]

    @cached_property
    def superseded_by(self) -> tuple[str, ...]:
        return _superseded_by(self.frontmatter)

    @cached_property
    def first_paragraph(self) -> str:
        return first_paragraph(self.body_lines, self.body_start, self.markdown)

    @cached_property
    def related(self) -> tuple[Relation, ...]:
        """``related:`` / ``relates_to:`` values, typed by key."""
        return _related(self.frontmatter, self.lines, self.body_start)

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

    # Cached: the checks ask a file's type, name and description again and again.
    @cached_property
    def type(self) -> str:
        return self.meta_text("type")

    @cached_property
    def name(self) -> str:
        return self.meta_text("name")

    @cached_property
    def description(self) -> str:
        return self.meta_text("description")

    @property
    def stem(self) -> str:
        return self.path.rsplit("/", 1)[-1].removesuffix(".md")

    def index_pointer(self) -> str:
        """The MEMORY.md line that points here: ``- [Title](path) — description``, one line
        whatever the frontmatter holds (a ``|`` block description, brackets in a name, a
        space in the path, which a link takes only between ``<`` and ``>``)."""
        name = self._as_written("name", self.name)
        title = " ".join((name or self.stem.replace("_", " ").replace("-", " ")).split())
        title = title.replace("[", "\\[").replace("]", "\\]")
        target = f"<{self.path}>" if any(c in self.path for c in " ()<>") else self.path
        description = self._as_written("description", self.description)
        hook = " ".join((description or self._first_heading()).split())
        return f"- [{title}]({target})" + (f" — {hook}" if hook else "")

    def _as_written(self, key: str, value: str) -> str:
        """A value as its author wrote it, when YAML cut it at an unquoted `` #``
        (``Governance PRs (PR #68) merged``): in Markdown the whole text is the hook."""
        cut = next((c for c in self.read.comment_cuts if c.key == key), None)
        return cut.written if cut is not None else value

    def _first_heading(self) -> str:
        """The body's first ``#`` heading, what a note without a description is about
        (``# K8s commands at a glance``): the hook its index line would otherwise lack."""
        for line in self.body_lines[:HEADING_LINES]:
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
                if heading:
                    return heading[:HOOK_FROM_HEADING]
        return ""

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
    def body_lines(self) -> tuple[str, ...]:
        return self.lines[self.body_start - 1 :]

    @property
    def body(self) -> str:
        return "\n".join(self.body_lines)

    @cached_property
    def line_count(self) -> int:
        """``len(self.lines)``, counted in the text (the health line counts every file's) once:
        the health summary asks twice a file, and counting was 4% of a secrets sweep."""
        ends_a_line = not self.text or self.text.endswith("\n")
        return self.text.count("\n") + (0 if ends_a_line else 1)

    def frontmatter_line(self, needle: str) -> int | None:
        """The first frontmatter line that mentions ``needle`` (for pointing at a value)."""
        if not self.frontmatter_present:
            return None
        lines = self.lines
        for number in range(2, self.body_start - 1):
            if needle in lines[number - 1]:
                return number
        return None


RECENT_FILES = 4
# The last files' lines, newest first; replaced whole, never changed in place, so a reader
# on another thread sees one version or the next.
_RECENT_LINES: list[tuple[tuple[MemoryFile, tuple[str, ...]], ...]] = [()]


def _cut_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


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
    return MemoryFile(path, kind, size, mtime, text, tuple(problems))


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


def _names_its_own_target(item: Mapping[Any, Any]) -> bool:
    """A typed entry that names its target by an id of its own schema (a content package's
    ``{type: related, targetId: <id>}``); a note or a misspelt key beside the type is no
    target's name, and stays a malformed entry."""
    return any(
        isinstance(key, str)
        and OWN_ID_KEY.fullmatch(key) is not None
        and isinstance(value, (str, int))
        and not isinstance(value, bool)  # a flag beside the type names nothing
        and str(value).strip()
        for key, value in item.items()
    )


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
            if target is None and _names_its_own_target(item):
                continue  # another schema's entry (``targetId: <id>``): not ours to judge
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
    return _targets(_field_value(frontmatter, key))


def _field_value(frontmatter: Mapping[str, Any] | None, key: str) -> Any:
    """A field's value, from the top level or else from ``metadata``."""
    if not frontmatter:
        return None
    value = frontmatter.get(key)
    if value is None:
        metadata = frontmatter.get("metadata")
        value = metadata.get(key) if isinstance(metadata, Mapping) else None
    return value


def _targets(value: Any) -> tuple[str, ...]:
    values = value if isinstance(value, list) else [value]
    return tuple(t for t in (_target_text(v) for v in values) if t)


RELATED_KEYS = ("related", "relates_to")


def _related(
    frontmatter: Mapping[str, Any] | None, lines: Sequence[str], body_start: int
) -> tuple[Relation, ...]:
    """``related:`` and ``relates_to:`` (a list or one value; file names or memory names;
    one value may list several, ``a.md, b.md``, as people write a list on one line)."""
    found = []
    for key in RELATED_KEYS:
        value = _field_value(frontmatter, key)
        targets = _targets(value)
        if len(targets) == 1 and not isinstance(value, list):  # "a.md, b.md" on one line
            targets = tuple(part.strip() for part in targets[0].split(",") if part.strip())
        for target in targets:
            line = next((n for n in range(2, body_start - 1) if target in lines[n - 1]), None)
            found.append(Relation(key, target, line))
    return tuple(found)
