"""Stores orphaned by a moved or renamed project folder, and where the project went.

Claude Code keys a project's store by its path: rename or move the folder and the
next session starts an empty store under a new slug while the old one sits unused.
A store is orphaned when every ``cwd`` its transcripts record is gone.

Where the project went: another store whose sessions are newer and run in a folder
that exists, with one of these clues (each named in the finding):

- the same git repository: a commit of its history, or its git remote
  (``github.com/me/app``), is named in the old sessions' transcripts (a commit made,
  a ``git log``, a push). The old folder is gone, so its repository cannot be read:
  what the old sessions printed is the only trace of it;
- the same folder name (a moved parent: ``~/work/app`` became ``~/src/app``).

Two or more candidates are all named; the user decides (no automatic choice).
The transcripts are scanned newest first up to ``SCAN_BYTES`` in all, only their
lines that can hold git's output, with RE2 (linear time); at most ``MAX_MATCHES``
matches are looked at and ``MAX_CLUES`` distinct hashes and remotes kept.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_audit.analysis.fast_regex import compile_fast, compile_fast_bytes
from memory_audit.sources.git import GitUnavailable, Repository, look_up_objects, remote_urls
from memory_audit.sources.transcripts import chunks, recent_transcripts
from memory_audit.tree.discovery import projects_dir, transcript_cwds

SCAN_BYTES = 32 * 1024 * 1024
MAX_CLUES = 5000
MAX_MATCHES = 10_000  # each match costs the RE2 wrapper ~20 µs: 0.2 s at most
# Only records that can show a commit or a remote are searched: git's own output
# ("[main 1a2b3c4] ...", "commit <hash>", "N files changed", "To github.com:me/app.git").
GIT_WORDS = (b"git", b"commit", b"changed")
TRANSCRIPTS_TO_SCAN = 50
CACHE_ENTRIES = 64
# A commit abbreviation or full hash, as git prints it.
_HASH = compile_fast_bytes(rb"\b[0-9a-f]{7,40}\b")
# host/owner/name or host:owner/name, as in remote URLs, push output and web links.
_REMOTE_TEXT = r"\b([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)[:/]([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)"
_REMOTE = compile_fast(_REMOTE_TEXT)
_REMOTE_BYTES = compile_fast_bytes(_REMOTE_TEXT.encode())


@dataclass(frozen=True)
class Candidate:
    slug: str  # the store's folder name under ~/.claude/projects
    path: Path  # the folder its sessions run in
    clues: tuple[str, ...]  # why it may be where the project went, for the finding


@dataclass(frozen=True)
class MovedProject:
    old_path: Path
    candidates: tuple[Candidate, ...]


@dataclass
class _Traces:
    """What the old sessions printed that can name a repository."""

    hashes: set[str]
    remotes: set[str]
    matches: int = 0


_CACHE: dict[tuple[tuple[str, int, int], ...], _Traces] = {}


class _LazyTraces:
    """The old transcripts are scanned once, and only if some candidate is a repository."""

    def __init__(self, transcripts_dir: Path) -> None:
        self.folder = transcripts_dir
        self.found: _Traces | None = None

    def get(self) -> _Traces:
        if self.found is None:
            self.found = _traces(self.folder)
        return self.found


def moved_project(transcripts_dir: Path, home: Path | None = None) -> MovedProject | None:
    """None unless this store's project folder is gone; then where it may have gone."""
    cwds = list(transcript_cwds(transcripts_dir))
    if not cwds or any(cwd.is_dir() for cwd in cwds):
        return None
    old = cwds[0]
    since = _newest_mtime(transcripts_dir)
    traces = _LazyTraces(transcripts_dir)
    found = []
    for slug, live in _live_stores(home or projects_dir(), transcripts_dir, since):
        clues = _repository_clues(live, traces) if _in_git(live) else []
        if live.name == old.name:
            clues.append("a folder of the same name")
        if clues:
            found.append(Candidate(slug, live, tuple(clues)))
    return MovedProject(old, tuple(found))


def _live_stores(base: Path, own: Path, since: float) -> Iterator[tuple[str, Path]]:
    """Other stores with sessions newer than ours, and the existing folder they run in."""
    with contextlib.suppress(OSError):
        for store in sorted(base.iterdir()):
            if store == own or not store.is_dir() or _newest_mtime(store) <= since:
                continue
            live = next((c for c in transcript_cwds(store) if c.is_dir()), None)
            if live is not None:
                yield store.name, live


def _newest_mtime(folder: Path) -> float:
    newest = recent_transcripts(folder, 1)
    with contextlib.suppress(OSError):
        return newest[0].stat().st_mtime if newest else 0.0
    return 0.0


def _in_git(folder: Path) -> bool:
    return any((parent / ".git").exists() for parent in (folder, *folder.parents))


def _repository_clues(live: Path, traces: _LazyTraces) -> list[str]:
    """Two git calls at most, run in the session's folder (git finds the repository)."""
    seen = traces.get()
    clues = []
    try:
        if seen.hashes:
            repo = Repository(live, "", bare=False, shallow=False)
            shared = sorted(set(look_up_objects(repo, seen.hashes).commits.values()))
            if shared:
                more = f" and {len(shared) - 1} more" if len(shared) > 1 else ""
                clues.append(f"its commit {shared[0][:10]}{more} is named in the old sessions")
        found = _remote_keys(remote_urls(live)) if seen.remotes else set()
        remotes = sorted(seen.remotes.intersection(found))
    except GitUnavailable:
        return clues
    if remotes:
        clues.append(f"its git remote {remotes[0]} is named in the old sessions")
    return clues


def _remote_keys(urls: Iterable[str]) -> set[str]:
    """``host/owner/name`` of each remote URL (scp-like, ssh://, https://), lowercase."""
    keys = set()
    for url in urls:
        match = _REMOTE.search(url.replace("://", " ").split("@")[-1])
        if match:
            keys.add(_remote_key(match.group(1), match.group(2), match.group(3)))
    return keys


def _remote_key(host: str, owner: str, name: str) -> str:
    return f"{host}/{owner}/{name.removesuffix('.git')}".lower()


def _traces(transcripts_dir: Path) -> _Traces:
    """Cached in the process by the transcripts' size and mtime: an orphaned store's
    transcripts no longer change, and one run may ask about them more than once."""
    transcripts = recent_transcripts(transcripts_dir, TRANSCRIPTS_TO_SCAN)
    key = tuple(_stamp(t) for t in transcripts)
    if key not in _CACHE:
        if len(_CACHE) >= CACHE_ENTRIES:
            _CACHE.clear()
        _CACHE[key] = _read_traces(transcripts)
    return _CACHE[key]


def _stamp(path: Path) -> tuple[str, int, int]:
    try:
        info = path.stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path), info.st_size, info.st_mtime_ns)


def _read_traces(transcripts: list[Path]) -> _Traces:
    found = _Traces(set(), set())
    budget = SCAN_BYTES
    for transcript in transcripts:
        budget = _scan(transcript, found, budget)
        if budget <= 0:
            break
    return found


def _scan(transcript: Path, found: _Traces, budget: int) -> int:
    with contextlib.suppress(OSError), transcript.open("rb") as handle:
        for block in chunks(handle):
            for line in block[:budget].split(b"\n"):
                if found.matches >= MAX_MATCHES:
                    return 0
                if any(word in line for word in GIT_WORDS):
                    _take(line, found)
            budget -= len(block)
            if budget <= 0 or found.matches >= MAX_MATCHES:
                return 0
    return budget


def _take(data: bytes, found: _Traces) -> None:
    for match in _HASH.finditer(data):
        found.matches += 1
        if found.matches > MAX_MATCHES:
            return
        token, start, end = match.group(0), match.start(), match.end()
        # A UUID's groups are hex too: a hash is never joined to its neighbours by "-".
        joined = data[start - 1 : start] == b"-" or data[end : end + 1] == b"-"
        hashlike = not joined and not token.isdigit() and not token.isalpha()
        if hashlike and len(found.hashes) < MAX_CLUES:
            found.hashes.add(token.decode("ascii"))
    for match in _REMOTE_BYTES.finditer(data):
        found.matches += 1
        if found.matches > MAX_MATCHES:
            return
        if len(found.remotes) < MAX_CLUES:
            parts = (match.group(n).decode("ascii") for n in (1, 2, 3))
            found.remotes.add(_remote_key(*parts))


def moved_into(projects: Path, slug: str) -> Path | None:
    """The memory root of the store ``slug`` (it may not exist yet), or None for a name
    that is not one store folder under ``projects``."""
    if not slug or "/" in slug or slug in (".", "..") or os.sep in slug:
        return None
    store = projects / slug
    return store / "memory" if store.is_dir() and not store.is_symlink() else None
