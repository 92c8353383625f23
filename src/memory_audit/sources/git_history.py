"""What a project's history says: every path it deleted or renamed, newest removal first,
and when each file tracked now was last added.

The history query is ONE streamed ``git log --all -M --name-status --diff-filter=ADR
-z`` for the whole tree. Its answer, with the files tracked at HEAD, is cached in the
state folder keyed by HEAD and the refs' tips: an unchanged project costs two
``rev-parse``; a project that moved on reads only its new commits.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from memory_audit.atomic import ensure_private_dir, write_atomic
from memory_audit.sources.git import (
    SAFE_OPTIONS,
    TIMEOUT_SECONDS,
    GitUnavailable,
    Repository,
    git_binary,
    git_env,
    run_git,
)

CACHE_VERSION = 3
COMMIT_START = "\x01"  # starts each commit header in the log stream


@dataclass(frozen=True)
class Removal:
    """The newest commit that deleted or renamed a path; ``renamed_to`` when git saw a rename."""

    commit: str
    date: str
    renamed_to: str | None = None


@dataclass
class History:
    """Tracked paths at HEAD, every path the history removed (newest removal wins), and when
    each tracked path was last added."""

    tracked: frozenset[str]
    removed: dict[str, Removal] = field(default_factory=dict)
    renames_complete: bool = True  # False when objects were missing for rename detection
    tips: tuple[str, ...] = ()  # every ref's commit when it was read: where to resume
    # tracked path -> (commit, date) of the newest commit that added it (a move git saw as
    # delete + add adds the new path in the commit that deletes the old one). Pairs, not
    # Removals: one per tracked file, and building that many objects from the cache costs
    # more than the rest of reading it; see added_by.
    added: dict[str, Sequence[str]] = field(default_factory=dict)

    def added_by(self, path: str) -> Removal | None:
        """The newest commit that added ``path`` (tracked now), as a Removal without a name."""
        try:
            commit, date = self.added[path]
        except (KeyError, TypeError, ValueError):
            return None
        return Removal(str(commit), str(date))

    def final_name(self, path: str) -> str | None:
        """Where a renamed path lives now (following rename chains), or None."""
        seen = {path}
        current = path
        while (removal := self.removed.get(current)) is not None and removal.renamed_to:
            current = removal.renamed_to
            if current in self.tracked:
                return current
            if current in seen:
                return None
            seen.add(current)
        return None


def history(
    repo: Repository, cache_dir: Path | None, storable: Callable[[list[str]], bool] | None = None
) -> History:
    """The repository's history. Cached by HEAD and the refs' tips; when they moved, only the
    commits added since the cached tips are read (a rebase is read in full). ``storable``
    says whether the paths may be written to the cache: a path whose name holds a secret
    may not (no stored file holds one), and the history is then read each time."""
    tips = tuple(sorted(set(run_git(repo.path, "rev-parse", "--all").split())))
    cache = _cache_file(repo, cache_dir) if cache_dir is not None else None
    cached = _load(cache) if cache is not None else None
    if cached is not None and cached[0] == repo.head and cached[1].tips == tips:
        return cached[1]
    found = History(_tracked(repo), tips=tips)
    if cached is not None:
        try:
            found.renames_complete = _read(repo, found, cached[1].tips)
            found.renames_complete &= cached[1].renames_complete
            found.removed = {**cached[1].removed, **found.removed}  # the newer removal wins
            found.added = {**cached[1].added, **found.added}
        except GitUnavailable:
            cached = None  # a cached tip is gone (gc after a rebase): read it all
            found.removed, found.added = {}, {}
    if cached is None:
        found.renames_complete = _read(repo, found, ())
    found.added = {p: a for p, a in found.added.items() if p in found.tracked}
    if cache is not None and (storable is None or storable(_paths(found))):
        _save(cache, repo.head, found)
    elif cache is not None:
        with contextlib.suppress(OSError):
            cache.unlink()  # an older cache may hold them
    return found


def _paths(found: History) -> list[str]:
    """Every path the cache would hold."""
    renamed = (r.renamed_to for r in found.removed.values() if r.renamed_to)
    return sorted({*found.tracked, *found.removed, *renamed})


def _read(repo: Repository, into: History, known: Iterable[str]) -> bool:
    """Removals and additions in commits not reachable from ``known``; False when renames
    were not read."""
    try:
        _collect(into, _removals(repo, known, renames=True))
        return True
    except GitUnavailable:
        # Rename detection reads file contents; a clone missing some objects cannot give
        # them. What was read stands; the rest of the history is read without renames.
        _collect(into, _removals(repo, known, renames=False))
        return False


def _tracked(repo: Repository) -> frozenset[str]:
    out = run_git(repo.path, "ls-tree", "-r", "-z", "--name-only", repo.head)
    return frozenset(p for p in out.split("\0") if p)


# A change in the log: (status "A", "D" or "R", path, commit, date, new path or "").
Change = tuple[str, str, str, str, str]


def _collect(into: History, changes: Iterable[Change]) -> None:
    for status, path, commit, date, new in changes:
        # newest first: the first seen is the last made
        if status == "A":
            into.added.setdefault(path, (commit, date))
        elif path not in into.removed:
            into.removed[path] = Removal(commit, date, new or None)


def _removals(repo: Repository, known: Iterable[str], *, renames: bool) -> Iterator[Change]:
    """Stream the one history query (newest commit first), excluding ``known`` commits."""
    rename = "-M" if renames else "--no-renames"
    args = [git_binary(), *SAFE_OPTIONS, "-C", str(repo.path), "log", "--all", "--stdin"]
    args += [rename, "--name-status", "--diff-filter=ADR", "-z"]
    args += [f"--format={COMMIT_START}%H %cs"]
    try:
        process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=git_env(),
        )
    except OSError as exc:
        raise GitUnavailable(f"git failed: {type(exc).__name__}") from None
    assert process.stdin is not None
    assert process.stdout is not None
    with contextlib.suppress(OSError):  # git reads every revision before it starts walking
        process.stdin.write("".join(f"^{tip}\n" for tip in known).encode())
        process.stdin.close()
    try:
        yield from _parse_log(process.stdout)
    finally:
        process.stdout.close()
        if process.wait(timeout=TIMEOUT_SECONDS) != 0:
            raise GitUnavailable("git log failed")


def _parse_log(stream: IO[bytes]) -> Iterator[Change]:
    """Fields of ``log -z --name-status``: headers, then ``A path`` / ``D path`` /
    ``R<n> old new`` (plain tuples: one per file the history ever added)."""
    commit, date = "", ""
    fields = _fields(stream)
    for field_text in fields:
        item = field_text.lstrip("\n")  # a header's line break precedes its first status
        if item.startswith(COMMIT_START):
            commit, _, date = item.lstrip(COMMIT_START).partition(" ")
            date = date.strip()
        elif item in ("A", "D"):
            yield item, next(fields, ""), commit, date, ""
        elif item.startswith("R"):
            old, new = next(fields, ""), next(fields, "")
            yield "R", old, commit, date, new
            yield "A", new, commit, date, ""  # the new path arrived with the rename


def _fields(stream: IO[bytes]) -> Iterator[str]:
    """NUL-separated fields, read in chunks (paths may hold any byte but NUL)."""
    pending = b""
    while chunk := stream.read(1 << 16):
        parts = (pending + chunk).split(b"\0")
        pending = parts.pop()
        for part in parts:
            yield part.decode("utf-8", "surrogateescape")
    if pending:
        yield pending.decode("utf-8", "surrogateescape")


# ---- the cache -----------------------------------------------------------------------


def _cache_file(repo: Repository, cache_dir: Path) -> Path:
    key = hashlib.sha256(str(repo.path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return cache_dir / f"git-history-{key}.json"


def _load(path: Path) -> tuple[str, History] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != CACHE_VERSION:
            return None
        removed = {p: Removal(c, d, r or None) for p, (c, d, r) in data["removed"].items()}
        found = History(
            frozenset(data["tracked"]),
            removed,
            bool(data["renames_complete"]),
            tuple(data["tips"]),
        )
        commits = data["added_commits"]  # [commit, date] pairs, checked when used (added_by)
        found.added = {
            p: commits[i] for p, i in zip(data["tracked"], data["added"], strict=True) if i >= 0
        }
        return str(data["head"]), found
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _save(path: Path, head: str, found: History) -> None:
    tracked = sorted(found.tracked)
    # Additions as a number per tracked path (-1: not seen) into a list of commits: the
    # paths are written once, and a list of numbers reads many times faster than a map.
    commits: dict[tuple[str, ...], int] = {}
    added = [
        commits.setdefault(tuple(pair), len(commits)) if (pair := found.added.get(p)) else -1
        for p in tracked
    ]
    document = {
        "version": CACHE_VERSION,
        "head": head,
        "tips": list(found.tips),
        "tracked": tracked,
        "renames_complete": found.renames_complete,
        "removed": {p: [r.commit, r.date, r.renamed_to or ""] for p, r in found.removed.items()},
        "added_commits": list(commits),
        "added": added,
    }
    try:
        ensure_private_dir(path.parent)
        write_atomic(path, json.dumps(document, ensure_ascii=False, separators=(",", ":")))
    except (OSError, UnicodeError):
        pass  # a cache that cannot be written costs time, not correctness
