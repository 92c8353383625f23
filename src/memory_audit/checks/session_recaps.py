"""Session-recap schema: session recaps are episodic records with a fixed shape.

A file is a recap when it lives under ``sessions/``, when its name matches one
of ``recap_globs`` (``session_*.md``, ``*_session_*.md``: real trees keep
recaps at the top level; the default asks for a year after ``_session_``),
or when it says ``type: session-recap``; MEMORY.md never is. Recaps are exempt
from index-drift and orphans. For every recap:

- ``recap-filename`` (under ``sessions/``, the seed's layout): the name is
  not ``YYYY-MM-DD-<slug>.md`` (lower-case slug), or its date does not exist
  (``2026-13-45``);
- ``missing-frontmatter`` / ``unparseable-frontmatter``: no usable frontmatter (a
  suggestion for a file known as a recap by its name alone, outside ``sessions/``: it may
  be the owner's own log);
- ``recap-type`` (under ``sessions/``): ``type`` is missing or not
  ``session-recap``. A recap known by its name elsewhere keeps the type
  Claude gave it: the name already says what it is.

When all of ``sessions/`` (three or more) is named another way, or all its blocks lack the
recap type, that is the convention of what writes them (another tool's session log): one
suggestion for each, not a finding a file.

These are the only checks recaps get: their bodies are stale by nature, so
duplicates, stale references and bloat leave them alone (secrets do not).

Failing::

    sessions/March 3 planning.md   (type: project)

Passing::

    sessions/2026-03-03-planning.md   (type: session-recap)
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

from memory_audit.analysis.file_problems import problem_findings
from memory_audit.analysis.note_conventions import follows_schema
from memory_audit.model.finding import Finding, Skip, examples, make_finding
from memory_audit.tree.file_kinds import DEFAULT_RECAP_GLOBS
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "session-recaps"
RECAP_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}-[a-z0-9][a-z0-9-]*\.md$")
OWN_CONVENTION = 3  # recaps all named (or typed) one other way: their writer's convention
DATE_IN_NAME = re.compile(r"(\d{4})[-_. ]?(\d{2})[-_. ]?(\d{2})")


@dataclass(frozen=True)
class Options:
    # File names (not paths) that mark a session recap wherever it lies.
    recap_globs: tuple[str, ...] = DEFAULT_RECAP_GLOBS


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    for path, problems in sorted(tree.unread.items()):
        if path.startswith("sessions/"):
            yield from problem_findings(ID, path, problems)
    recaps = sorted(tree.recaps, key=lambda m: m.path)
    in_folder = [r for r in recaps if r.path.startswith("sessions/")]
    own_names = _own_names(in_folder)
    own_schema = _own_schema(in_folder)
    if own_names:
        yield _own_convention("recap-filename", own_names, "are named another way, not")
    if own_schema:
        yield _own_convention("recap-type", own_schema, "have blocks of another schema, without")
    for recap in recaps:
        if recap.path.startswith("sessions/") and not own_names:
            yield from _filename(recap)
        yield from problem_findings(ID, recap.path, recap.problems)
        if not recap.frontmatter_present and not recap.problems:
            # Known by its name alone (``session_summaries.md`` at the top level), a file may
            # be the owner's own log, read by their own routine: the recap schema is this
            # tool's convention, not Claude Code's, so the block is worth a look there.
            by_name = not recap.path.startswith("sessions/")
            yield make_finding(
                ID,
                "missing-frontmatter",
                recap.path,
                1,
                "session recap has no frontmatter",
                "add a --- block with `type: session-recap`",
                fix={
                    "action": "set-field",
                    "path": recap.path,
                    "field": "type",
                    "value": "session-recap",
                },
                level="suggestion" if by_name else None,
            )
        elif (
            recap.frontmatter is not None
            and recap.type != "session-recap"
            and recap.path.startswith("sessions/")
            and not own_schema
        ):
            found = f"`{recap.type}`" if recap.type else "missing"
            yield make_finding(
                ID,
                "recap-type",
                recap.path,
                recap.frontmatter_line("type:") or 1,
                f"type is {found}, expected `session-recap`",
                "set `type: session-recap`",
                fix={
                    "action": "set-field",
                    "path": recap.path,
                    "field": "type",
                    "value": "session-recap",
                },
            )


def _own_names(recaps: list[MemoryFile]) -> list[MemoryFile]:
    """All of ``sessions/``, three or more, named another way than ``YYYY-MM-DD-<slug>.md``:
    the convention of what writes them (``<timestamp>--<agent>.md``), not a lapse of each."""
    named = [r for r in recaps if not RECAP_NAME.match(r.path.rpartition("/")[2])]
    return named if len(named) >= OWN_CONVENTION and len(named) == len(recaps) else []


def _own_schema(recaps: list[MemoryFile]) -> list[MemoryFile]:
    """All blocks of ``sessions/``, three or more, of a schema of their own (``sessionId``,
    ``agent``, ``startedAt``: no ``name`` nor ``description``, no ``type: session-recap``)."""
    blocks = [r for r in recaps if r.frontmatter is not None]
    # neither name nor description: not Claude's schema with a wrong type (a lapse to fix)
    other = [r for r in blocks if r.type != "session-recap" and not follows_schema(r)]
    return other if len(other) >= OWN_CONVENTION and len(other) == len(blocks) else []


def _own_convention(code: str, recaps: list[MemoryFile], what: str) -> Finding:
    shown = examples([r.path for r in recaps])
    expected = "`YYYY-MM-DD-<slug>.md`" if code == "recap-filename" else "`type: session-recap`"
    return make_finding(
        ID,
        code,
        recaps[0].path,
        None,
        f"all {len(recaps)} recaps in `sessions/` {what} {expected} (e.g. {shown}): the"
        " convention of what writes them",
        "if Claude Code's sessions should write and read these recaps, follow"
        f" {expected}; if another tool keeps them its way, nothing to do",
        key=f"own-{code}",
        related=tuple(r.path for r in recaps[1:]),
        level="suggestion",
    )


def _filename(recap: MemoryFile) -> Iterator[Finding]:
    folder, _, name = recap.path.rpartition("/")
    if RECAP_NAME.match(name):
        if _date_from(name[:10]) is None:
            yield make_finding(
                ID,
                "recap-filename",
                recap.path,
                None,
                f"`{name[:10]}` in the file name is not a real date",
                "rename with the session's actual date (YYYY-MM-DD)",
            )
        return
    proposed = _proposed_name(recap, name)
    fix = None
    suggestion = "rename to YYYY-MM-DD-<slug>.md (the session's date, a lower-case slug)"
    if proposed:
        suggestion = f"rename to `{folder}/{proposed}`"
        fix = {"action": "rename-file", "path": recap.path, "to": f"{folder}/{proposed}"}
        if recap.frontmatter is not None and recap.type != "session-recap":
            # Named as a recap, it is read as one: its type follows in the same change,
            # or the rename would be the next finding (recap-type).
            suggestion += " and set `type: session-recap`"
            fix["set_type"] = "session-recap"
    yield make_finding(
        ID,
        "recap-filename",
        recap.path,
        None,
        f"file name `{name}` is not YYYY-MM-DD-<slug>.md",
        suggestion,
        fix=fix,
    )


def _proposed_name(recap: MemoryFile, name: str) -> str | None:
    stem = name.removesuffix(".md")
    date = _date_from(stem) or _date_from(recap.meta_text("date"))
    if date is None:
        return None
    rest = DATE_IN_NAME.sub("", stem, count=1)
    slug = re.sub(r"[^a-z0-9]+", "-", rest.lower()).strip("-") or "session"
    return f"{date.isoformat()}-{slug}.md"


def _date_from(text: str) -> dt.date | None:
    match = DATE_IN_NAME.search(text)
    if not match:
        return None
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None
