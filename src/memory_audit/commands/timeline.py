"""``memory-audit history [TREE|FILE]``: what happened to memory, newest first, and who did it.

Attribution is best effort and labelled so. ``--diff`` shows each change against
the version before it, as decoded text with control characters escaped; a version
whose content cannot be read (a damaged blob, a journal row that names no content
hash, a blob that inflates past the cap) is said so on its line, and the command
then exits 1. ``--format json`` is for tools; ``--purge FILE`` drops every version
of one file from the journal. Labels pass the redaction boundary again before they
are shown.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from memory_audit.checks import OPTION_TYPES
from memory_audit.commands.confirm import confirmed
from memory_audit.config import settings as config_module
from memory_audit.engine import names_boundary
from memory_audit.errors import UsageError
from memory_audit.journal import lookup
from memory_audit.journal.blobs import CorruptBlob
from memory_audit.journal.content import decoded
from memory_audit.journal.index import Version
from memory_audit.journal.labels import shown
from memory_audit.journal.recorder import masked_history
from memory_audit.journal.store import Journal, why_unreadable
from memory_audit.model.visible import visible
from memory_audit.secrets.loading import masking_scanner
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree import discovery as discover

Shown = Callable[[str], str]  # a path as shown: a secret in a name masked
NOTE = "(who made each change is a best-effort reading of session transcripts)"


class Unreadable(Exception):
    """A version's content that ``--diff`` cannot show; the message says why."""

    def __init__(self, version: Version, reason: str) -> None:
        super().__init__(f"version #{version.id}: {reason}")
        self.version = version


def run(
    *,
    target: str | None,
    since: str | None,
    diff: bool,
    output_format: str,
    purge: str | None,
    config_path: Path | None,
    out: TextIO,
    every: bool = False,
    inp: TextIO | None = None,
    yes: bool = False,
) -> int:
    if target and every:
        raise UsageError("give a tree or file, or --all, not both")
    config = config_module.load(config_path, OPTION_TYPES)
    journal = Journal(config.state_dir, config.settings.journal.max_file_bytes)
    try:
        if purge is not None:
            return _purge(journal, purge, inp or sys.stdin, out, yes, config)
        here = None if target or every else discover.tree_for_folder(Path.cwd())
        tree, file = _scope(journal, target, here)
        start = lookup.parse_when(since) if since else None
        found = journal.index.history(tree, file or None, start) if tree != NOWHERE else []
        if _masked_histories(journal, found, _scanner(config), config):
            found = journal.index.history(tree, file or None, start)
        versions = shown(found, _scanner(config))
        # A secret in a file, folder or project name is masked like one in a file.
        names = [name for v in versions for name in (v.root, v.path)]
        masked = names_boundary(config.check_options("secrets"), names).path
        if output_format == "json":
            out.write(json.dumps([_json(v, masked) for v in versions], ensure_ascii=False) + "\n")
            return 0
        if here is not None:  # chosen for the user, as `audit` does: say so, and how to widen it
            shown_here = visible(masked(str(here)))
            out.write(f"This project's memory: {shown_here}; --all for every tree.\n")
        text, unread = render(versions, journal if diff else None, masked)
        out.write(text)
        return 1 if unread else 0
    finally:
        journal.close()


def _masked_histories(
    journal: Journal, versions: Sequence[Version], scanner: Scanner, config: config_module.Config
) -> bool:
    """Mask each shown tree's kept versions (content, labels) where they repeat a value the
    tree says is a secret; whether any tree had such a value (the rows may have changed)."""
    limit = config.settings.journal.max_file_bytes
    found = [
        masked_history(journal.index, journal.blobs, root, scanner, limit)
        for root in sorted({Path(v.root) for v in versions})
    ]  # every tree, not the first only
    return any(found)


NOWHERE = "\0"  # a tree the journal holds nothing of: no version matches it


def _scope(journal: Journal, target: str | None, here: Path | None) -> tuple[str | None, str]:
    """(tree root or None for every tree, file path or ""): the named tree or file, else the
    tree of the project the command runs in, else every tree."""
    if target:
        root, rel = lookup.locate(journal.index, target)
        return str(root), rel
    if here is None:
        return None, ""
    try:
        root, _ = lookup.locate(journal.index, str(here))
    except UsageError:  # nothing journaled of this project's tree yet
        return NOWHERE, ""
    return str(root), ""


def _purge(
    journal: Journal, given: str, inp: TextIO, out: TextIO, yes: bool, config: config_module.Config
) -> int:
    """What is dropped (how many versions, from when to when, whether the journal holds the
    only copy), then the question; ``--yes`` answers it, no terminal refuses it."""
    root, rel = lookup.locate(journal.index, given)
    versions = journal.index.history(str(root), rel)
    if not versions:
        out.write("the journal holds no version of that file; nothing to drop\n")
        return 0
    first, last = versions[-1].at, versions[0].at
    # A secret in a file, folder or project name is masked like one in a file.
    name_of = names_boundary(config.check_options("secrets"), [rel, str(root)]).path
    out.write(
        f"--purge drops {len(versions)} version(s) of {visible(name_of(rel))} in "
        f"{visible(name_of(str(root)))}, kept from {_when(first)} to {_when(last)}.\n"
    )
    if versions[0].is_tombstone:
        out.write("The file is deleted: these versions are its only copy.\n")
    if not confirmed(inp, out, "Drop them?", yes=yes):
        out.write("Nothing was dropped.\n")
        return 1
    count = journal.purge(str(root), rel)
    out.write(f"dropped {count} version(s) of {visible(name_of(rel))} from the journal\n")
    return 0


def _when(at: float) -> str:
    return dt.datetime.fromtimestamp(at).astimezone().strftime("%Y-%m-%d %H:%M")


def _scanner(config: config_module.Config) -> Scanner:
    return masking_scanner(config.check_options("secrets"))


def _json(version: Version, name_of: Shown = str) -> dict[str, Any]:
    return {
        "id": version.id,
        "root": name_of(version.root),
        "path": name_of(version.path),
        "at": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(version.at)),
        "kind": version.kind,
        "size": version.size,
        "kept": version.kept,
        "actor": version.actor.kind,
        "session": version.actor.session,
        "by": version.actor.describe(),
        "note": version.note,
        "secrets_masked": version.masked,
    }


def render(
    versions: Sequence[Version], journal: Journal | None, name_of: Shown = str
) -> tuple[str, int]:
    """The listing (with diffs when given the journal), and how many versions' content
    could not be shown; ``name_of`` shows a path (a secret in a name masked)."""
    if not versions:
        return "The journal holds nothing for that yet.\n", 0
    lines = [NOTE]
    unread: set[int] = set()
    days = Counter((v.root, _day(v)) for v in versions)  # per tree: a header counts its own
    current_root = current_day = None
    for version in versions:
        if version.root != current_root:
            current_root, current_day = version.root, None
            lines += ["", f"Memory tree: {visible(name_of(version.root))}"]
        if _day(version) != current_day:
            current_day = _day(version)
            lines.append(f"{current_day}: {days[version.root, current_day]} change(s)")
        lines.append(_line(version, name_of))
        if journal is not None:
            lines += _diff_lines(journal, version, unread)
    if unread:
        lines += ["", f"{len(unread)} version(s) could not be shown (marked !)."]
    return "\n".join(lines) + "\n", len(unread)


def _day(version: Version) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(version.at))


def _line(version: Version, name_of: Shown = str) -> str:
    """One line per version: its path, note and attribution come from files and
    transcripts, so the line is escaped whole (a newline in a name cannot start a line)."""
    clock = time.strftime("%H:%M:%S", time.localtime(version.at))
    size = "" if version.is_tombstone else f"{version.size:,} B"
    note = f" — {version.note}" if version.note else ""
    return visible(
        f"  {clock}  #{version.id:<6} {version.kind:<9} {name_of(version.path)}  {size}  "
        f"{version.actor.by()}{note}"
    )


def _diff_lines(journal: Journal, version: Version, unread: set[int]) -> list[str]:
    earlier = journal.index.history(version.root, version.path)
    previous = next((v for v in earlier if v.id < version.id and v.kept), None)
    try:
        after = _text(journal, version) if version.kept else []
        before = _text(journal, previous) if previous else []
    except Unreadable as exc:
        unread.add(exc.version.id)
        return [f"      ! {exc}; no diff"]
    diff = difflib.unified_diff(before, after, "before", f"#{version.id}", lineterm="")
    return [f"      {visible(line)}" for line in diff]


def _text(journal: Journal, version: Version) -> list[str]:
    """A version's lines as a person reads them (UTF-16 decoded; escaped when shown)."""
    try:
        data = journal.content(version)
    except CorruptBlob as exc:
        raise Unreadable(version, why_unreadable(exc, journal.blobs.max_inflated)) from None
    lines = decoded(data).replace("\r\n", "\n").split("\n")
    return lines[:-1] if lines[-1] == "" else lines
