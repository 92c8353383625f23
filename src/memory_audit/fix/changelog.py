"""The structural changelog: why the memory changed, not only what.

Why it exists: docs/dimensions.md, "Fixing and the changelog".

One append-only markdown file per tree under the changelog folder; each
applied review session adds an entry: date, trigger, changes, the user's
reason, and the tree's metrics before and after.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memory_audit.atomic import ensure_private_dir


@dataclass(frozen=True)
class Metrics:
    index_lines: int
    files: int
    findings: int


def changelog_path(folder: Path, root: Path, shown: str | None = None) -> Path:
    """One file per tree, named from its full path: two trees both called ``memory``
    never share one (the readable tail, then a hash of the whole path). The readable
    tail is of ``shown``, the path as shown (a secret in a folder's name masked)."""
    full = str(root.absolute())
    tail = shown if shown is not None else full
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", tail).strip(".-")[-80:].lstrip(".-") or "tree"
    digest = hashlib.sha256(full.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return folder / f"{readable}-{digest}.md"


def entry(
    when: dt.datetime,
    trigger: str,
    changes: Sequence[str],
    why: str,
    before: Metrics | None = None,
    after: Metrics | None = None,
) -> str:
    """One review session's entry; without metrics (a tree another tree's review wrote
    to, e.g. a store moved into it) the table is left out."""
    lines = [
        f"## {when:%Y-%m-%d %H:%M} — review session",
        "",
        "### Trigger",
        trigger,
        "",
        "### Changes",
        *[f"- {c}" for c in changes],
        "",
        "### Why",
        why or "(not given)",
        "",
    ]
    if before is None or after is None:
        return "\n".join(lines) + "\n"
    lines += [
        "### Metrics",
        "| | Before | After |",
        "|---|---|---|",
        f"| index lines | {before.index_lines} | {after.index_lines} |",
        f"| memory files | {before.files} | {after.files} |",
        f"| findings | {before.findings} | {after.findings} |",
        "",
    ]
    return "\n".join(lines) + "\n"


def append(path: Path, title: str, text: str) -> None:
    """Append-only: opened with O_APPEND, never rewritten."""
    ensure_private_dir(path.parent)
    fresh = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        if fresh:
            handle.write(f"# Memory changelog: {title}\n\n")
        handle.write(text + "\n")
