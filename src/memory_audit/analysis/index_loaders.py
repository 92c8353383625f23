"""Whether the project loads the tree's MEMORY.md itself, past auto memory's cut-off.

Auto memory hands a session the first 200 lines / 25,000 characters of MEMORY.md
(:mod:`memory_audit.tree.load_budget`). A project can load its index another way:

- an **import**: a CLAUDE.md line ``@.claude/memory/MEMORY.md``. Claude Code inlines the
  imported file in full when the session starts. The path is resolved from the folder of
  the file that holds it (``~/`` is the home folder); an ``@`` inside a code span or a
  code block is no import; imported files are read for imports too, up to five hops.
- an **instruction to read it**: "read `.claude/MEMORY.md` at the start of every session".
  The session opens it with the Read tool, which returns the first 2,000 lines. Narrow
  on purpose: one line of an instruction file must name a path resolving to the index
  (from the project or from the file's folder) and hold a reading verb ("read", "load",
  "open", "lesen", "lire", "leer", "ler", "đọc", "oku", "читай", "読", "讀", "读", "읽").
  A line in a code block counts: a startup checklist in a fence is followed like prose.
- an **instruction to read its folder** at a session's start: "at session start, read the
  files in `.claude/memory/`" (a reading verb, a session-start phrase, a path resolving to
  the tree's folder): the session reads the index with the rest, the Read tool's 2,000
  lines of it.
- its **own line**: the part of MEMORY.md auto memory loads tells the session to read
  this file before it starts working (:mod:`memory_audit.analysis.self_instruction`);
  the Read tool returns the rest, as for an instruction in CLAUDE.md. The project's
  files come first: what they say is the more deliberate loader.

The files read are the project's ``CLAUDE.md``, ``.claude/CLAUDE.md`` and
``CLAUDE.local.md`` (what Claude Code loads at the project root) and the files they
import: regular files whose real path is inside the project, at most ``MAX_FILES`` of
``MAX_BYTES`` each, never written. Each line is scanned twice at most, in linear time;
at most ``MAX_PATHS`` paths of a line and ``MAX_IMPORTS`` imports of a file are resolved.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import cast
from unicodedata import normalize

from memory_audit.analysis.self_instruction import (
    at_session_start,
    folder_paths,
    index_paths,
    self_instruction,
)
from memory_audit.tree.index_file import INDEX_NAME, LIST_ITEM
from memory_audit.tree.load_budget import LoadedIndex, load_index
from memory_audit.tree.markdown import parse_markdown
from memory_audit.tree.markdown_spans import without_code_spans
from memory_audit.tree.real_folder import RealFolder
from memory_audit.tree.snapshot import MemoryTree
from memory_audit.tree.walk import read_text

TOP_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
MAX_HOPS = 5  # Claude Code follows imports five files deep
MAX_FILES = 32
MAX_BYTES = 256 * 1024
MAX_PATHS = 16  # imports, or index paths, looked at on one line: real lines hold one or two
# Imports looked at in one file: real files hold a handful; a file of thousands of `@`
# words (mentions, not imports) would otherwise cost two real-path walks each.
MAX_IMPORTS = 64
MAX_INDEX_BYTES = 64 * 1024 * 1024  # the index the service reads (daemon.alerts)
READ_LINES = 2_000  # what the Read tool returns when no range is asked for
READ_WORDS = frozenset(
    {"read", "reads", "reading", "load", "loads", "loading", "open", "opens"}
    | {"lies", "lesen", "lire", "lis", "lisez", "lee", "leer", "lea", "ler", "leia"}
    | {"đọc", "oku", "okuyun", "читай", "читайте", "прочитай", "прочитайте", "прочти"}
)
READ_CHARACTERS = ("読", "讀", "读", "읽")  # CJK: no spaces between words


@dataclass(frozen=True)
class IndexLoader:
    file: str  # the instruction file, relative to the project
    line: int
    imported: bool  # an @ import (in full at start); else an instruction to read it
    itself: bool = False  # the instruction is the index's own line (``file`` is MEMORY.md)

    def reads_all(self, index_lines: int) -> bool:
        return self.imported or index_lines <= READ_LINES

    def describe(self) -> str:
        if self.itself:
            return f"its own line {self.line} tells sessions to read it first"
        how = "imports it" if self.imported else "tells sessions to read it"
        return f"{self.file} (line {self.line}) {how}"


def index_loader(tree: MemoryTree) -> IndexLoader | None:
    """The first import of the tree's MEMORY.md in the project's instruction files, else
    the first instruction there to read it, else the index's own line telling sessions to
    read it; None when none is there. Read once per snapshot: index-budget, the health
    line and ``loaded`` all ask."""
    if tree.index is None:
        return None
    key = "index-loader"
    if key not in tree.scratch:
        project = tree.location.project_path
        tree.scratch[key] = project_index_loader(project, tree.root, tree.index_load)
    return cast(IndexLoader | None, tree.scratch[key])


def whole_index_loader(tree: MemoryTree) -> IndexLoader | None:
    """What loads the tree's whole MEMORY.md itself, when something does: then no line of
    it is cut (index-budget, the health line and ``loaded`` all ask this)."""
    loader = index_loader(tree)
    if loader is None or tree.index is None or not loader.reads_all(len(tree.index.lines)):
        return None
    return loader


def cut_line(tree: MemoryTree) -> int | None:
    """The index's first line no session sees whole, unless the project loads the whole
    index itself (its CLAUDE.md imports it, or it or the index's own loaded lines tell
    sessions to read it): then nothing is cut, as index-budget reports."""
    loaded = tree.index_load
    if loaded is None or loaded.first_hidden is None:
        return None
    return None if whole_index_loader(tree) is not None else loaded.first_hidden


def project_index_loader(
    project: Path | None, root: Path, loaded: LoadedIndex | None = None
) -> IndexLoader | None:
    """:func:`index_loader` for the index of the tree at ``root`` (the daemon has no
    snapshot, only the tree's folder and its located project): ``loaded``, what a session
    receives of it, is read from the folder when not given."""
    found = _instruction_files_loader(project, root) if project is not None else None
    if found is not None:
        return found
    if loaded is None:
        loaded = _load(root / INDEX_NAME)
    return None if loaded is None else own_index_loader(loaded, root, project)


def own_index_loader(loaded: LoadedIndex, root: Path, project: Path | None) -> IndexLoader | None:
    """The index's own line, in the part a session receives, telling it to read the index
    before working; a path on it is resolved from the tree's folder or the project."""
    index = os.path.realpath(root / INDEX_NAME)
    bases = (root,) if project is None else (root, project)

    def names_index(path: str) -> bool:
        return any(os.path.realpath(_resolve(path, base)) == index for base in bases)

    at = self_instruction(loaded.received_lines, names_index)
    if at is None:
        return None
    return IndexLoader(INDEX_NAME, loaded.loaded_file_lines[at], imported=False, itself=True)


def _load(path: Path) -> LoadedIndex | None:
    result = read_text(path, MAX_INDEX_BYTES)
    return None if result.text is None else load_index(result.disk_text)


def _instruction_files_loader(project: Path, root: Path) -> IndexLoader | None:
    """An import of the index, else an instruction to read it, in the project's files."""
    index = os.path.realpath(root / INDEX_NAME)
    inside = RealFolder(project)
    queue = deque((project / name, 0) for name in TOP_FILES)
    seen: set[str] = set()
    instruction: IndexLoader | None = None
    while queue and len(seen) < MAX_FILES:
        path, hops = queue.popleft()
        real = os.path.realpath(path)
        if real in seen or not inside.holds_real(real) or not os.path.isfile(real):
            continue
        seen.add(real)
        shown = Path(real).relative_to(inside.path).as_posix()
        found = _InstructionFile(Path(real), shown, project)
        imports = found.imports(index, may_import=hops < MAX_HOPS)
        if isinstance(imports, IndexLoader):
            return imports
        queue.extend((target, hops + 1) for target in imports if hops < MAX_HOPS)
        instruction = instruction or found.instruction(index)
    return instruction


@dataclass(frozen=True)
class _InstructionFile:
    path: Path  # its real path
    shown: str  # relative to the project
    project: Path

    @cached_property
    def lines(self) -> list[str]:
        text = read_text(self.path, MAX_BYTES).text
        return text.splitlines() if text else []

    def imports(self, index: str, *, may_import: bool) -> IndexLoader | list[Path]:
        """The import of the index, or the files this one imports. Code is no import."""
        code = parse_markdown(self.lines).code_lines if self.lines else frozenset()
        targets: list[Path] = []
        for number, line in enumerate(self.lines, 1):
            if number in code:
                continue
            for target in _imports(line, self.path.parent):
                if may_import and os.path.realpath(target) == index:
                    return IndexLoader(self.shown, number, imported=True)
                targets.append(target)
                if len(targets) == MAX_IMPORTS:
                    return targets
        return targets

    def instruction(self, index: str) -> IndexLoader | None:
        """A line telling the session to read the index: a startup checklist in a code
        block is read and followed like prose, so code counts here. So does an item of a
        list whose heading or lead-in line says to read it ("## Key files (READ FIRST)",
        then "1. `docs/MEMORY.md` — the project's memory")."""
        bases = (self.project, self.path.parent)
        heading_reads = lead_reads = False
        for number, line in enumerate(self.lines, 1):
            item = LIST_ITEM.match(line) is not None
            if (
                _tells_to_read(line, index, bases)
                or _tells_to_read_folder(line, index, bases)
                or (item and (heading_reads or lead_reads) and _names_index(line, index, bases))
            ):
                return IndexLoader(self.shown, number, imported=False)
            if line.lstrip().startswith("#"):
                heading_reads, lead_reads = _has_reading_verb(line), False
            elif line.strip() and not item and not line[:1].isspace():
                # a paragraph line: it leads the list below when it ends with a colon
                lead_reads = line.rstrip().endswith(":") and _has_reading_verb(line)
        return None


def _imports(line: str, folder: Path) -> list[Path]:
    """``@path`` words outside code spans, resolved as Claude Code resolves them."""
    if "@" not in line:
        return []
    words = without_code_spans(line).split()
    targets = [w[1:].partition("#")[0] for w in words if len(w) > 1 and w[0] == "@"]
    # a NUL names no file (and makes a path call raise): odd bytes are no import
    return [_resolve(t, folder) for t in targets[:MAX_PATHS] if t and "\0" not in t]


def _tells_to_read(line: str, index: str, bases: tuple[Path, ...]) -> bool:
    return INDEX_NAME in line and _has_reading_verb(line) and _names_index(line, index, bases)


def _tells_to_read_folder(line: str, index: str, bases: tuple[Path, ...]) -> bool:
    """ "At session start, read the files in `.claude/memory/`": the index is one of them."""
    if "/" not in line or not _has_reading_verb(line) or not at_session_start(line):
        return False
    folder = os.path.dirname(index)
    return any(
        os.path.realpath(_resolve(path, base)) == folder
        for path in folder_paths(line)[:MAX_PATHS]
        for base in bases
    )


def _names_index(line: str, index: str, bases: tuple[Path, ...]) -> bool:
    if INDEX_NAME not in line:
        return False
    return any(
        os.path.realpath(_resolve(path, base)) == index
        for path in index_paths(line)[:MAX_PATHS]
        for base in bases
    )


def _has_reading_verb(line: str) -> bool:
    if any(c in line for c in READ_CHARACTERS):
        return True
    # NFC: a Vietnamese "đọc" typed with combining marks is still one word
    words = "".join(c.lower() if c.isalpha() else " " for c in normalize("NFC", line)).split()
    return not READ_WORDS.isdisjoint(words)


def _resolve(target: str, folder: Path) -> Path:
    if target.startswith("~/"):
        return Path.home() / target[2:]
    return folder / target
