"""Running git read-only: the repository a folder is in, and which commits it has.

Read-only by construction: only ``rev-parse``, ``log``, ``show -s``, ``ls-tree``,
``ls-files``, ``rev-list``, ``cat-file``, ``check-ignore`` and ``config --get-regexp``
(reading a remote's URL, or ``.gitmodules``) run; optional locks are off, hooks and
fsmonitor are disabled, no transport may run (a partial clone never fetches a missing
object), and git's own ``safe.directory`` refusal is respected (such a repository counts
as not located).

The history query itself is in :mod:`memory_audit.sources.git_history`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

TIMEOUT_SECONDS = 60
# No hook, no file-system monitor, and no transport: a partial clone's lookup of an object it
# lacks would fetch it from its promisor remote, running the command its configuration names
SAFE_OPTIONS = (
    *("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"),
    *("-c", "protocol.allow=never"),
)


class GitUnavailable(Exception):
    """git is not installed, or the folder is not a repository git will read."""


@dataclass(frozen=True)
class Repository:
    """A located repository: its folder, HEAD, and what kind of clone it is."""

    path: Path
    head: str
    bare: bool
    shallow: bool


def git_binary() -> str:
    git = shutil.which("git")
    if git is None:
        raise GitUnavailable("git not found on PATH")
    return git


def git_env() -> dict[str, str]:
    return {
        **os.environ,
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_NO_LAZY_FETCH": "1",  # a partial clone's missing object is missing, never fetched
        "LC_ALL": "C",
    }


def run_git(repo: Path, *args: str, stdin: str | None = None, ok: tuple[int, ...] = (0,)) -> str:
    try:
        result = subprocess.run(
            [git_binary(), *SAFE_OPTIONS, "-C", str(repo), *args],
            input=stdin,
            capture_output=True,
            text=True,
            errors="surrogateescape",
            env=git_env(),
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
    out = run_git(folder, "rev-parse", "--is-bare-repository", "--is-shallow-repository").split()
    bare, shallow = out[:1] == ["true"], out[1:2] == ["true"]
    where = ("--absolute-git-dir",) if bare else ("--show-toplevel",)
    try:
        root, head = run_git(folder, "rev-parse", *where, "HEAD^{commit}").split("\n")[:2]
    except (GitUnavailable, ValueError):
        raise GitUnavailable("the repository has no commits") from None
    return Repository(Path(root).resolve(), head, bare, shallow)


def project_listing(folder: Path, *pathspec: str) -> tuple[Path, str] | None:
    """The root of the repository ``folder`` is in and its tracked paths (``ls-files -z
    --full-name``, limited to ``pathspec``); None when git reads no repository there, or it
    is bare, or it is the home folder's (dotfiles, not the project's)."""
    home = Path(os.path.realpath(os.path.expanduser("~")))
    try:
        repo = open_repository(folder)
        if repo.bare or repo.path == home:
            return None
        spec = ("--", *pathspec) if pathspec else ()
        return repo.path, run_git(repo.path, "ls-files", "-z", "--full-name", *spec)
    except GitUnavailable:
        return None


def repository_root(folder: Path) -> Path:
    return Path(run_git(folder, "rev-parse", "--show-toplevel").strip())


def remote_urls(repo: Path) -> list[str]:
    """The fetch URLs of ``repo``'s remotes (none is an empty list)."""
    try:
        output = run_git(repo, "config", "--get-regexp", r"^remote\..*\.url$")
    except GitUnavailable:
        return []  # git exits 1 when no key matches
    return [line.split(" ", 1)[1] for line in output.splitlines() if " " in line]


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
    lines = run_git(repo.path, "cat-file", "--batch-check", stdin=stdin).splitlines()
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
    listed = run_git(repo.path, "rev-list", "--all", "HEAD").split()
    return wanted.intersection(listed)


def ignored(repo: Repository, paths: Iterable[str]) -> set[str]:
    """The paths ``.gitignore`` excludes (local or generated files, never in any history)."""
    wanted = sorted(set(paths))
    if repo.bare or not wanted:
        return set()
    stdin = "".join(f"{p}\0" for p in wanted)
    out = run_git(repo.path, "check-ignore", "-z", "--stdin", "--no-index", stdin=stdin, ok=(0, 1))
    return {p for p in out.split("\0") if p}


# ---- submodules ------------------------------------------------------------------------


def submodule_paths(repo: Repository) -> list[str]:
    """The folders of the repository's submodules, relative to its root: the paths
    ``.gitmodules`` names that the index records as submodules (gitlinks). A stale entry, a
    path that is a file, or one that leads out of the project is none (none without the
    file, or in a bare repository)."""
    if repo.bare or not (repo.path / ".gitmodules").is_file():
        return []
    try:
        output = run_git(
            repo.path, "config", "-f", ".gitmodules", "--get-regexp", r"^submodule\..*\.path$"
        )
    except GitUnavailable:
        return []  # no key matches (git exits 1), or the file is no configuration
    named = [line.split(" ", 1)[1].strip().rstrip("/") for line in output.splitlines()]
    inside = [p for p in named if p and not p.startswith("/") and ".." not in p.split("/")]
    if not inside:
        return []
    try:
        listed = run_git(
            repo.path, "ls-files", "-s", "-z", "--", *(f":(literal){p}" for p in inside)
        )
    except GitUnavailable:
        return []
    gitlinks = {
        entry.split("\t", 1)[1] for entry in listed.split("\0") if entry.startswith("160000 ")
    }
    return [p for p in inside if p in gitlinks]


def checked_out_submodules(repo: Repository) -> tuple[list[Repository], list[str]]:
    """The project's submodules (:func:`submodule_paths`) as repositories of their own, those
    checked out inside ``repo``'s folder with their git directory among the project's (under
    its git directory's ``modules/``, or in the submodule's folder); and the paths of the
    others: an empty folder (a clone made without ``--recurse-submodules``), one that cannot
    be read, a path that leads out of the project, or a ``.git`` file that points elsewhere."""
    checked_out: list[Repository] = []
    not_checked_out: list[str] = []
    modules: Path | None = None  # the project's own, read once and only if needed
    for relative in submodule_paths(repo):
        folder = _submodule_folder(repo, relative)
        if folder is not None and modules is None:
            modules = _modules_folder(repo)
        found = _own_repository(folder, modules) if folder and modules else None
        if found is None:
            not_checked_out.append(relative)
        else:
            checked_out.append(found)
    return checked_out, not_checked_out


def _submodule_folder(repo: Repository, relative: str) -> Path | None:
    """The folder at ``relative`` when it lies inside the project and holds a ``.git``."""
    try:
        folder = (repo.path / relative).resolve()
        if folder.is_relative_to(repo.path) and (folder / ".git").exists():
            return folder
    except (OSError, RuntimeError, ValueError):
        pass  # a link loop, a name too long, a folder that cannot be entered
    return None


def _modules_folder(repo: Repository) -> Path | None:
    """Where the project keeps its submodules' git directories (``<git dir>/modules``)."""
    try:
        common = run_git(repo.path, "rev-parse", "--path-format=absolute", "--git-common-dir")
        return Path(common.strip()).resolve() / "modules"
    except (GitUnavailable, OSError, RuntimeError):
        return None


def _own_repository(folder: Path, modules: Path) -> Repository | None:
    """The repository ``folder`` is the root of, complete, with its git directory under
    ``modules`` or inside ``folder``; None otherwise."""
    try:
        submodule = open_repository(folder)
        own = Path(run_git(folder, "rev-parse", "--absolute-git-dir").strip()).resolve()
    except (GitUnavailable, OSError, RuntimeError):
        return None
    if submodule.path != folder or submodule.shallow:
        return None
    return submodule if own.is_relative_to(modules) or own.is_relative_to(folder) else None
