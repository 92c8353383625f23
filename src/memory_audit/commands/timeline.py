"""``memory-audit history [TREE|FILE]``: what happened to memory, newest first, and who did it.

Attribution is best effort and labelled so. ``--diff`` shows each change against
the version before it; ``--format json`` is for tools; ``--purge FILE`` drops every
version of one file from the journal.
"""

from __future__ import annotations

import difflib
import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.engine import names_boundary
from memory_audit.journal import lookup
from memory_audit.journal.blobs import CorruptBlob
from memory_audit.journal.index import Version
from memory_audit.journal.store import Journal

Shown = Callable[[str], str]  # a path as shown: a secret in a name masked
NOTE = "(who made each change is a best-effort reading of session transcripts)"


def run(
    *,
    target: str | None,
    since: str | None,
    diff: bool,
    output_format: str,
    purge: str | None,
    config_path: Path | None,
    out: TextIO,
) -> int:
    config = config_module.load(config_path, OPTION_TYPES)
    journal = Journal(config.state_dir)
    try:
        if purge is not None:
            root, rel = lookup.locate(journal.index, purge)
            count = journal.purge(str(root), rel)
            dropped = names_boundary(config.check_options("secrets"), [rel]).path(rel)
            out.write(f"dropped {count} version(s) of {dropped} from the journal\n")
            return 0
        root, rel = lookup.locate(journal.index, target) if target else (Path(), "")
        start = lookup.parse_when(since) if since else None
        versions = journal.index.history(str(root) if target else None, rel or None, start)
        # A secret in a file, folder or project name is masked like one in a file.
        names = [name for v in versions for name in (v.root, v.path)]
        shown = names_boundary(config.check_options("secrets"), names).path
        if output_format == "json":
            out.write(json.dumps([_json(v, shown) for v in versions], ensure_ascii=False) + "\n")
        else:
            out.write(render(versions, journal if diff else None, shown))
    finally:
        journal.close()
    return 0


def _json(version: Version, shown: Shown = str) -> dict[str, Any]:
    return {
        "id": version.id,
        "root": shown(version.root),
        "path": shown(version.path),
        "at": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(version.at)),
        "kind": version.kind,
        "size": version.size,
        "kept": version.kept,
        "actor": version.actor.kind,
        "session": version.actor.session,
        "by": version.actor.describe(),
        "note": version.note,
    }


def render(versions: Sequence[Version], journal: Journal | None, shown: Shown = str) -> str:
    if not versions:
        return "The journal holds nothing for that yet.\n"
    lines = [NOTE]
    days = Counter(_day(v) for v in versions)
    current_root = current_day = None
    for version in versions:
        if version.root != current_root:
            current_root, current_day = version.root, None
            lines += ["", f"Memory tree: {shown(version.root)}"]
        if _day(version) != current_day:
            current_day = _day(version)
            lines.append(f"{current_day}: {days[current_day]} change(s)")
        lines.append(_line(version, shown))
        if journal is not None:
            lines += _diff_lines(journal, version)
    return "\n".join(lines) + "\n"


def _day(version: Version) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(version.at))


def _line(version: Version, shown: Shown = str) -> str:
    clock = time.strftime("%H:%M:%S", time.localtime(version.at))
    size = "" if version.is_tombstone else f"{version.size:,} B"
    note = f" — {version.note}" if version.note else ""
    return (
        f"  {clock}  #{version.id:<6} {version.kind:<9} {shown(version.path)}  {size}  "
        f"by {version.actor.describe()}{note}"
    )


def _diff_lines(journal: Journal, version: Version) -> list[str]:
    earlier = journal.index.history(version.root, version.path)
    previous = next((v for v in earlier if v.id < version.id and v.kept), None)
    try:
        after = journal.content(version).decode("utf-8", "replace") if version.kept else ""
        before = journal.content(previous).decode("utf-8", "replace") if previous else ""
    except CorruptBlob:
        return ["      (content damaged in the journal: no diff)"]
    diff = difflib.unified_diff(
        before.splitlines(), after.splitlines(), "before", f"#{version.id}", lineterm=""
    )
    return [f"      {line}" for line in diff]
