"""What a project's git history says: which paths it deleted or renamed, which commits it has.

Read-only by construction: only ``rev-parse``, ``log``, ``ls-tree``, ``rev-list``
and ``cat-file`` run, optional locks are off, hooks and fsmonitor are disabled,
and git's own ``safe.directory`` refusal is respected (such a repository counts
as not located).

The history query is ONE streamed ``git log --all -M --name-status
--diff-filter=DR -z`` for the whole tree; its answer (with the tracked files at
HEAD) is cached in the state folder, keyed by HEAD, so that an unchanged
project costs one ``rev-parse``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from memory_audit.atomic import ensure_private_dir, write_atomic

TIMEOUT_SECONDS = 60
SAFE_OPTIONS = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null")
CACHE_VERSION = 1
COMMIT_START = "\x01"  # starts each commit header in the log stream


class GitUnavailable(Exception):
    """git is not installed, or the folder is not a repository git will read."""


@dataclass(frozen=True)
class Removal:
    """The newest commit that deleted or renamed a path; ``renamed_to`` when git saw a rename."""

    commit: str
    date: str
    renamed_to: str | None = None


@dataclass(frozen=True)
class Repository:
    """A located repository: its folder, HEAD, and what kind of clone it is."""

    path: Path
    head: str
    bare: bool
    shallow: bool


@dataclass
class History:
    """Tracked paths at HEAD, and every path the history removed (newest removal wins)."""

    tracked: frozenset[str]
    removed: dict[str, Removal] = field(default_factory=dict)
    renames_complete: bool = True  # False when objects were missing for rename detection

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


def _git_binary() -> str:
    git = shutil.which("git")
    if git is None:
        raise GitUnavailable("git not found on PATH")
    return git


def _env() -> dict[str, str]:
    return {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}


def _git(repo: Path, *args: str, stdin: str | None = None, ok: tuple[int, ...] = (0,)) -> str:
    try:
        result = subprocess.run(
            [_git_binary(), *SAFE_OPTIONS, "-C", str(repo), *args],
            input=stdin,
            capture_output=True,
            text=True,
            errors="surrogateescape",
            env=_env(),
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitUnavailable(f"git failed: {type(exc).__name__}") from None
    if result.returncode not in ok:
        lines = result.stderr.strip().splitlines()
        raise GitUnavailable(lines[-1] if lines else "git failed")
    return result.stdout


def open_repository(folder: Path) -> Repository:
    """The repository ``folder`` is (or is in): raises GitUnavailable when there is none."""
    out = _git(folder, "rev-parse", "--is-bare-repository", "--is-shallow-repository").split()
    bare, shallow = out[:1] == ["true"], out[1:2] == ["true"]
    where = ("--absolute-git-dir",) if bare else ("--show-toplevel",)
    try:
        root, head = _git(folder, "rev-parse", *where, "HEAD^{commit}").split("\n")[:2]
    except (GitUnavailable, ValueError):
        raise GitUnavailable("the repository has no commits") from None
    return Repository(Path(root).resolve(), head, bare, shallow)


def repository_root(folder: Path) -> Path:
    return Path(_git(folder, "rev-parse", "--show-toplevel").strip())


def remote_urls(repo: Path) -> list[str]:
    """The fetch URLs of ``repo``'s remotes (none is an empty list)."""
    try:
        output = _git(repo, "config", "--get-regexp", r"^remote\..*\.url$")
    except GitUnavailable:
        return []  # git exits 1 when no key matches
    return [line.split(" ", 1)[1] for line in output.splitlines() if " " in line]


def history(repo: Repository, cache_dir: Path | None) -> History:
    """The repository's history, from the cache when HEAD has not moved."""
    cache = _cache_file(repo, cache_dir) if cache_dir is not None else None
    if cache is not None and (cached := _load(cache, repo.head)) is not None:
        return cached
    found = History(_tracked(repo))
    try:
        _collect(found.removed, _removals(repo, renames=True))
    except GitUnavailable:
        # Rename detection reads file contents; a clone missing some objects cannot give
        # them. What was read stands; the rest of the history is read without renames.
        found.renames_complete = False
        _collect(found.removed, _removals(repo, renames=False))
    if cache is not None:
        _save(cache, repo.head, found)
    return found


def _tracked(repo: Repository) -> frozenset[str]:
    out = _git(repo.path, "ls-tree", "-r", "-z", "--name-only", repo.head)
    return frozenset(p for p in out.split("\0") if p)


def _collect(into: dict[str, Removal], removals: Iterable[tuple[str, Removal]]) -> None:
    for path, removal in removals:
        into.setdefault(path, removal)  # newest first: the first seen is the last made


def _removals(repo: Repository, *, renames: bool) -> Iterator[tuple[str, Removal]]:
    """Stream the one history query (newest commit first)."""
    rename = "-M" if renames else "--no-renames"
    args = [_git_binary(), *SAFE_OPTIONS, "-C", str(repo.path), "log", "--all", rename]
    args += ["--name-status", "--diff-filter=DR", "-z", f"--format={COMMIT_START}%H %cs"]
    try:
        process = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env()
        )
    except OSError as exc:
        raise GitUnavailable(f"git failed: {type(exc).__name__}") from None
    assert process.stdout is not None
    try:
        yield from _parse_log(process.stdout)
    finally:
        process.stdout.close()
        if process.wait(timeout=TIMEOUT_SECONDS) != 0:
            raise GitUnavailable("git log failed")


def _parse_log(stream: IO[bytes]) -> Iterator[tuple[str, Removal]]:
    """Fields of ``log -z --name-status``: headers, then ``D path`` / ``R<n> old new``."""
    commit, date = "", ""
    fields = _fields(stream)
    for field_text in fields:
        item = field_text.lstrip("\n")  # a header's line break precedes its first status
        if item.startswith(COMMIT_START):
            commit, _, date = item.lstrip(COMMIT_START).partition(" ")
            date = date.strip()
        elif item == "D":
            yield next(fields, ""), Removal(commit, date)
        elif item.startswith("R"):
            old, new = next(fields, ""), next(fields, "")
            yield old, Removal(commit, date, new)


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


def _load(path: Path, head: str) -> History | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != CACHE_VERSION or data.get("head") != head:
            return None
        removed = {p: Removal(c, d, r or None) for p, (c, d, r) in data["removed"].items()}
        return History(frozenset(data["tracked"]), removed, bool(data["renames_complete"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(path: Path, head: str, found: History) -> None:
    document = {
        "version": CACHE_VERSION,
        "head": head,
        "tracked": sorted(found.tracked),
        "renames_complete": found.renames_complete,
        "removed": {p: [r.commit, r.date, r.renamed_to or ""] for p, r in found.removed.items()},
    }
    try:
        ensure_private_dir(path.parent)
        write_atomic(path, json.dumps(document, ensure_ascii=False, separators=(",", ":")))
    except (OSError, UnicodeError):
        pass  # a cache that cannot be written costs time, not correctness


# ---- commits ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CommitAnswers:
    """For each hash asked about: the full commit it names, another object type, or nothing."""

    commits: dict[str, str]  # asked -> full hash
    other_objects: dict[str, str]  # asked -> object type ("blob", "tree", "tag")


def look_up_objects(repo: Repository, hashes: Iterable[str]) -> CommitAnswers:
    """One ``cat-file --batch-check``: ``h^{commit}`` then ``h`` for each hash."""
    wanted = sorted(set(hashes))
    commits: dict[str, str] = {}
    others: dict[str, str] = {}
    if not wanted:
        return CommitAnswers(commits, others)
    stdin = "".join(f"{h}^{{commit}}\n{h}\n" for h in wanted)
    lines = _git(repo.path, "cat-file", "--batch-check", stdin=stdin).splitlines()
    for asked, as_commit, as_object in zip(wanted, lines[0::2], lines[1::2], strict=False):
        peeled, plain = as_commit.split(" "), as_object.split(" ")
        if len(peeled) == 3 and peeled[1] == "commit":
            commits[asked] = peeled[0]
        elif len(plain) == 3:
            others[asked] = plain[1]
    return CommitAnswers(commits, others)


def reachable(repo: Repository, commits: Iterable[str]) -> set[str]:
    """The subset of full commit hashes reachable from a branch, tag or HEAD."""
    wanted = set(commits)
    if not wanted:
        return set()
    listed = _git(repo.path, "rev-list", "--all", "HEAD").split()
    return wanted.intersection(listed)


def ignored(repo: Repository, paths: Iterable[str]) -> set[str]:
    """The paths ``.gitignore`` excludes (local or generated files, never in any history)."""
    wanted = sorted(set(paths))
    if repo.bare or not wanted:
        return set()
    stdin = "".join(f"{p}\0" for p in wanted)
    out = _git(repo.path, "check-ignore", "-z", "--stdin", "--no-index", stdin=stdin, ok=(0, 1))
    return {p for p in out.split("\0") if p}
