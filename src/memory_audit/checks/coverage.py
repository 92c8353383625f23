"""Coverage gaps: parts of the project sessions keep working in that no memory mentions.

From the session transcripts: the project folders each of the last ``window``
sessions (default 30) read, edited or ran commands in, down to ``depth`` levels
(default 2: ``src/billing``). A folder worked in during at least ``min_sessions``
of them (default 5) is a gap when no memory, MEMORY.md line or rule names the
folder or any file sessions touched in it. Build output, vendored and generated
folders, and anything under ``.git``, are never areas. One finding per area (the
deepest qualifying folder), for the user to judge: a memory is worth writing
when there is something a session should know before touching that code.

Failing::

    MEMORY.md — sessions worked in `src/billing/` in 9 of the last 30 sessions (last
    2026-11-27); no memory mentions it (user judgment required).

Passing: a memory that says "invoices are built in src/billing/…".

``memory-audit review`` offers, for each gap, to capture a TODO note: a new
``project`` memory named after the area (``project_src-billing.md``) whose
description says which area it is about and whose body is a TODO for the user to
fill, plus its MEMORY.md line; shown as a diff and written only when confirmed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.analysis.session_use import AGENT_STORE, too_few, window_sessions
from memory_audit.config.fields import INTERNAL
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.sources.rule_files import instruction_files, rule_files
from memory_audit.sources.sessions import SessionActivity
from memory_audit.tree.snapshot import MemoryTree

ID = "coverage"
NOT_AREAS = frozenset(
    """.git .hg .svn node_modules vendor third_party build dist out target coverage .venv venv
    __pycache__ .mypy_cache .pytest_cache .ruff_cache .tox .next .nuxt generated gen .cache
    .idea .vscode .claude""".split()
)
MAX_AREA = 120  # characters of an area name review writes into a note's name


@dataclass(frozen=True)
class Options:
    window: int = field(default=30, metadata={"range": (1, 10_000)})
    min_sessions: int = field(default=5, metadata={"range": (1, 10_000)})
    depth: int = field(default=2, metadata={"range": (1, 10)})
    max_transcript_mb: int = field(default=1024, metadata={"range": (1, 1_000_000)})
    state_dir: str | None = field(default=None, metadata=INTERNAL)


@dataclass
class Area:
    sessions: int = 0
    last: float = 0.0
    files: set[str] = field(default_factory=set)


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    folder, project = tree.location.transcripts_dir, tree.location.project_path
    if tree.location.agent is not None:
        yield Skip(ID, AGENT_STORE)
        return
    if folder is None:
        return  # no transcripts: nothing to judge, silently
    if project is None:
        yield Skip(ID, "sessions' project folder not located")
        return
    activity = window_sessions(tree, options.window, options.state_dir, options.max_transcript_mb)
    reason = too_few(len(activity), options.min_sessions)
    if reason:
        yield Skip(ID, reason)
        return
    areas = worked_areas(activity, project, options.depth)
    busy = {name: a for name, a in areas.items() if a.sessions >= options.min_sessions}
    text = _mentions(tree, project)
    for name in _deepest(busy):
        area = busy[name]
        if not _mentioned(name, area, text):
            yield _gap(name, area, len(activity), _todo_fix(tree, name))


def worked_areas(sessions: Iterable[SessionActivity], project: Path, depth: int) -> dict[str, Area]:
    areas: dict[str, Area] = {}
    prefix = project.as_posix().rstrip("/") + "/"
    known: dict[str, list[tuple[str, str]]] = {}  # sessions touch the same paths again
    for session in sessions:
        seen = set()
        for path in session.touched:
            if path not in known:
                known[path] = list(_areas_of(path, prefix, depth))
            for name, file in known[path]:
                seen.add(name)
                area = areas.setdefault(name, Area())
                if file:
                    area.files.add(file)
        for name in seen:
            areas[name].sessions += 1
            areas[name].last = max(areas[name].last, session.started)
    return areas


def _areas_of(path: str, prefix: str, depth: int) -> Iterator[tuple[str, str]]:
    """The folders (down to ``depth``) a path under the project (``prefix``: its path and
    a slash) lies in, each with the path's file name ("" for a folder)."""
    if not path.startswith(prefix):
        return
    parts = [p for p in path[len(prefix) :].split("/") if p]
    if not parts or any(p in NOT_AREAS or p.startswith(".") for p in parts):
        return
    is_file = "." in parts[-1]
    folders = parts[:-1] if is_file else parts
    for level in range(1, min(depth, len(folders)) + 1):
        yield "/".join(folders[:level]), parts[-1] if is_file else ""


def _deepest(areas: dict[str, Area]) -> list[str]:
    """Areas with no busy area below them: ``src`` goes when ``src/billing`` is reported."""
    return sorted(a for a in areas if not any(b.startswith(a + "/") for b in areas))


def _mentions(tree: MemoryTree, project: Path) -> str:
    texts = [m.joined for m in tree.memories + tree.recaps]
    if tree.index is not None:
        texts.append("\n".join(tree.index.lines))
    texts += [r.text for r in instruction_files(project) + rule_files(project)]
    return "\n".join(texts).lower()


def _mentioned(name: str, area: Area, text: str) -> bool:
    if name.lower() in text:
        return True
    return any(file.lower() in text for file in area.files if len(file) > 3)


def _todo_fix(tree: MemoryTree, name: str) -> dict[str, str] | None:
    """Review's offer: a TODO note for the area (fix/todo_note.py); none for a folder
    name that could not be written plainly into a file name and a Markdown line."""
    if len(name) > MAX_AREA or not all(c.isascii() and (c.isalnum() or c in "/_.-") for c in name):
        return None
    stem = "project_" + name.replace("/", "-")
    path, number = f"{stem}.md", 1
    while path in tree.files:
        number += 1
        path = f"{stem}-{number}.md"
    return {"action": "capture-todo-note", "area": name, "path": path}


def _gap(name: str, area: Area, window: int, fix: dict[str, str] | None) -> Finding:
    last = dt.datetime.fromtimestamp(area.last).date().isoformat() if area.last else "unknown"
    return make_finding(
        ID,
        "coverage-gap",
        "MEMORY.md",
        None,
        f"sessions worked in `{name}/` in {area.sessions} of the last {window} sessions "
        f"(last {last}); no memory mentions it",
        f"if a session should know something before touching `{name}/`, capture it in a memory "
        "(review offers a TODO note)",
        key=name,
        judgment=True,
        fix=fix,
    )
