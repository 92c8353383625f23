"""Is a path a memory cites still in its project, and if not, what does git say happened?

A :class:`ProjectView` joins the files on disk with the project's history
(:mod:`memory_audit.sources.git_history`). A path is looked up relative to the project
root, to each folder between the project root and the memory tree (a tree kept
at ``app/docs/memory`` cites ``src/x.py`` meaning ``app/src/x.py``), and, when
that finds nothing, as the unique tracked or removed path that ends with it.
"""

from __future__ import annotations

import dataclasses
import enum
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from memory_audit.analysis.references import has_extension
from memory_audit.sources.git_history import History, Removal


class Status(enum.Enum):
    EXISTS = "exists"
    REMOVED = "removed"  # the history deleted or renamed it
    NEVER = "never"  # unambiguously a project path, and never in its history
    MISSING = "missing"  # not there, and no history to say more
    NOT_A_CLAIM = "not-a-claim"


@dataclass(frozen=True)
class Verdict:
    status: Status
    path: str = ""  # the project path it was matched to
    removal: Removal | None = None
    renamed_to: str | None = None
    moved: bool = False  # renamed_to: the same-named file the deleting commit added (no rename)
    namesake: str | None = None  # the one file with the same name the project has now
    namesake_added: Removal | None = None  # when it was last added


NOT_A_CLAIM = Verdict(Status.NOT_A_CLAIM)
# A bare `config.json` names whatever config the sentence is about, not one project file.
GENERIC_STEMS = frozenset(
    "config settings settings.local secrets credentials .env env data index main app "
    "readme changelog package state cache output result results log".split()
)
EXISTS = Verdict(Status.EXISTS)


def _basename(path: str) -> str:
    return path.rpartition("/")[2]


@dataclass
class ProjectView:
    """The project as a memory sees it: folders on disk plus (when there is one) its history."""

    root: Path
    history: History | None
    prefixes: tuple[str, ...] = ("",)  # project folders a relative path may start from
    disk_bases: tuple[Path, ...] = ()
    check_disk: bool = True  # False for a bare repository: it has no working tree
    report_never: bool = False  # paths never in the history: see Options.never_existed

    @cached_property
    def _tracked_dirs(self) -> frozenset[str]:
        return _directories(self.history.tracked) if self.history else frozenset()

    @cached_property
    def _tracked_by_name(self) -> Mapping[str, list[str]]:
        return _by_name(self.history.tracked if self.history else ())

    @cached_property
    def _removed_by_name(self) -> Mapping[str, list[str]]:
        return _by_name(self.history.removed if self.history else ())

    @cached_property
    def _removed_dirs(self) -> Mapping[str, tuple[str, Removal]]:
        """Removed folder -> its newest removed file and that removal."""
        found: dict[str, tuple[str, Removal]] = {}
        for path, removal in (self.history.removed if self.history else {}).items():
            parent = path.rpartition("/")[0]
            while parent:
                if parent not in found or found[parent][1].date < removal.date:
                    found[parent] = (path, removal)
                parent = parent.rpartition("/")[0]
        return found

    def verdict(self, text: str, extra_bases: Iterable[Path] = ()) -> Verdict:
        """What the project says about ``text`` (``extra_bases``: more folders it may be in)."""
        candidates = [p + text for p in self.prefixes]
        history = self.history
        if history is not None and any(
            c in history.tracked or c in self._tracked_dirs for c in candidates
        ):
            return EXISTS  # the common case, answered without touching the disk
        bases = (*extra_bases, *self.disk_bases)
        if any(os.path.lexists(base / text) for base in bases) or (
            self.check_disk and any(os.path.lexists(self.root / c) for c in candidates)
        ):
            return EXISTS
        if self.history is None:
            return self._without_history(candidates)
        if "/" not in text and has_extension(text):  # `old/` arrives as `old`: a folder
            return self._by_file_name(text, candidates)
        return self._removed(candidates) or self._by_suffix(text) or self._never(candidates)

    def _through_tracked_file(self, path: str) -> bool:
        assert self.history is not None
        parent = path.rpartition("/")[0]
        while parent:
            if parent in self.history.tracked:
                return True
            parent = parent.rpartition("/")[0]
        return False

    def _without_history(self, candidates: list[str]) -> Verdict:
        for candidate in candidates:
            if has_extension(candidate) and "/" in candidate.strip("/"):
                parent = (self.root / candidate).parent
                if parent != self.root and parent.is_dir():
                    return Verdict(Status.MISSING, candidate)
        return NOT_A_CLAIM

    def _by_file_name(self, name: str, candidates: list[str]) -> Verdict:
        if name.rpartition(".")[0].lower() in GENERIC_STEMS:
            return EXISTS
        # A file renamed from where the name points (the project root, the tree's folders)
        # is that file, even when a file of its old name exists elsewhere now.
        renamed = self._renamed_from(candidates)
        if renamed is not None:
            return renamed
        if self._tracked_by_name.get(name):
            return EXISTS
        # Gone from every folder the history had it in (a component moved between folders,
        # then deleted): the newest removal says when the name left the project.
        removed = self._removed_by_name.get(name, [])
        history = self.history
        if not removed or history is None:
            return NOT_A_CLAIM
        # the newest removal; of one day's, a deletion before a rename (the rename came first)
        newest = max(
            removed, key=lambda p: (history.removed[p].date, history.removed[p].renamed_to is None)
        )
        return self._removed([newest]) or NOT_A_CLAIM

    def _removed(self, candidates: list[str]) -> Verdict | None:
        assert self.history is not None
        for candidate in candidates:
            if self._through_tracked_file(candidate):
                return NOT_A_CLAIM  # under a tracked symlink: the files live where it points
            removal = self.history.removed.get(candidate)
            if removal is not None:
                return self._removed_file(candidate, removal)
            if candidate in self._removed_dirs and candidate not in self._tracked_dirs:
                file, removal = self._removed_dirs[candidate]
                moved = self._new_dir(candidate, file)
                if moved is not None and moved.endswith("/" + candidate):
                    return EXISTS
                return Verdict(Status.REMOVED, candidate, removal, moved)
        return None

    def _removed_file(self, path: str, removal: Removal) -> Verdict:
        assert self.history is not None
        moved = self.history.final_name(path)
        if moved is not None and moved.endswith("/" + path):
            return EXISTS  # the project moved into a subfolder: cited from there
        if moved is None:
            # renamed, perhaps again, then deleted: the deletion is what the memory missed
            last, gone = self._last_name(path, removal)
            if gone.renamed_to is None:
                return dataclasses.replace(self._deleted(last, gone), path=path)
        return Verdict(Status.REMOVED, path, removal, moved)

    def _last_name(self, path: str, removal: Removal) -> tuple[str, Removal]:
        """Where a chain of renames from ``path`` ends, and that name's removal."""
        assert self.history is not None
        seen = {path}
        while removal.renamed_to and removal.renamed_to not in seen:
            following = self.history.removed.get(removal.renamed_to)
            if following is None:
                break
            path, removal = removal.renamed_to, following
            seen.add(path)
        return path, removal

    def _renamed_from(self, candidates: list[str]) -> Verdict | None:
        assert self.history is not None
        for candidate in candidates:
            removal = self.history.removed.get(candidate)
            if (
                removal is not None
                and removal.renamed_to
                and not self._through_tracked_file(candidate)
            ):
                moved = self.history.final_name(candidate)
                if moved is None or _basename(moved) == _basename(candidate):
                    return None  # moved into a folder under its name: the name still finds it
                return Verdict(Status.REMOVED, candidate, removal, moved)
        return None

    def _deleted(self, path: str, removal: Removal) -> Verdict:
        """A deletion git saw no rename in. When the deleting commit deleted this one file of
        its name and added one, the file moved (its content changed too much for git to pair
        them); otherwise the one same-named file the project has now is a likely successor."""
        assert self.history is not None
        history = self.history
        name = _basename(path)
        namesakes = self._tracked_by_name.get(name, [])
        arrived = [
            p for p in namesakes if (a := history.added_by(p)) and a.commit == removal.commit
        ]
        left = [
            p for p in self._removed_by_name[name] if history.removed[p].commit == removal.commit
        ]
        if len(arrived) == 1 and len(left) == 1:
            return Verdict(Status.REMOVED, path, removal, arrived[0], moved=True)
        if len(namesakes) == 1 and name.rpartition(".")[0].lower() not in GENERIC_STEMS:
            found = namesakes[0]
            return Verdict(
                Status.REMOVED,
                path,
                removal,
                namesake=found,
                namesake_added=history.added_by(found),
            )
        return Verdict(Status.REMOVED, path, removal)

    def _new_dir(self, folder: str, file: str) -> str | None:
        assert self.history is not None
        moved = self.history.final_name(file)
        rest = file[len(folder) :]
        if moved and moved.endswith(rest) and moved[: -len(rest)] in self._tracked_dirs:
            return moved[: -len(rest)]
        return None

    def _by_suffix(self, text: str) -> Verdict | None:
        tail = "/" + text
        name = _basename(text)
        if any(p.endswith(tail) for p in self._tracked_by_name.get(name, ())):
            return EXISTS
        removed = [p for p in self._removed_by_name.get(name, ()) if p.endswith(tail)]
        return self._removed(removed) if len(removed) == 1 else None

    def _never(self, candidates: list[str]) -> Verdict:
        if not self.report_never:
            return NOT_A_CLAIM
        for candidate in candidates:
            parent = candidate.rpartition("/")[0]
            if has_extension(candidate) and parent and parent in self._tracked_dirs:
                return Verdict(Status.NEVER, candidate)
        return NOT_A_CLAIM


def _directories(paths: Iterable[str]) -> frozenset[str]:
    found: set[str] = set()
    for path in paths:
        parent = path.rpartition("/")[0]
        while parent and parent not in found:
            found.add(parent)
            parent = parent.rpartition("/")[0]
    return frozenset(found)


def _by_name(paths: Iterable[str]) -> Mapping[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for path in paths:  # every tracked path: the base name cut here, not by a call
        found[path[path.rfind("/") + 1 :]].append(path)
    return found


def tree_prefixes(tree_root: Path, project: Path, repo_root: Path) -> tuple[str, ...]:
    """Where relative paths may start: the project's folder in the repository, each folder
    from the repository root down to the tree (innermost first), and the root itself."""
    found = [_folders(project, repo_root)[0], *_folders(tree_root, repo_root)]
    return tuple(dict.fromkeys([*found, ""]))


def _folders(inner: Path, outer: Path) -> list[str]:
    try:
        parts = inner.resolve().relative_to(outer.resolve()).parts
    except (ValueError, OSError):
        return [""]
    return [("/".join(parts[:n]) + "/") for n in range(len(parts), 0, -1)] or [""]
