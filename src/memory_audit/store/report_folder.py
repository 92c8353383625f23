"""Which folder, and which files in it, the report store may touch.

``reports.dir`` can point anywhere, including a folder full of the user's own
files. The store therefore owns a folder only when it carries the store's
marker file (``.memory-audit-reports``, 0600), written when the store creates
the folder or adopts an empty one. An existing folder with other content is
refused, never written into. The marker says whether the store created the
folder: only a folder it created is made private (0700); an adopted one keeps
the mode the user gave it (every run folder inside is 0700 anyway).

A folder full of run folders from a version that wrote no marker is adopted
too, when every entry in it is one the store writes.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from memory_audit.atomic import PRIVATE_DIR, PRIVATE_FILE
from memory_audit.errors import UsageError

MARKER = ".memory-audit-reports"
CREATED, ADOPTED = "created", "adopted"
RUN_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{6})(?:-(\d+))?$")
LATEST = "latest"
TEMP_RUN = re.compile(r"^\.tmp-\d{4}-\d{2}-\d{2}T\d{6}(?:-\d+)?-\d+$")
TEMP_LATEST = re.compile(r"^\.latest-\d+$")
SUMMARY = "summary.json"


class ReportsDirRefused(UsageError):
    """``reports.dir`` is a folder the tool did not create and that holds other files."""


def claim(root: Path) -> None:
    """Make ``root`` the store's folder, or raise :class:`ReportsDirRefused`."""
    try:
        root.mkdir(parents=True, mode=PRIVATE_DIR)
    except FileExistsError:
        _claim_existing(root)
        return
    _write_marker(root, CREATED)
    os.chmod(root, PRIVATE_DIR)  # mkdir's mode went through the umask


def _claim_existing(root: Path) -> None:
    if not root.is_dir():
        raise ReportsDirRefused(f"reports.dir {root} exists and is not a folder")
    how = owner_mark(root)
    if how == CREATED:
        os.chmod(root, PRIVATE_DIR)  # ours: kept private even if loosened since
    elif how is None:
        if any(not _written_by_store(entry) for entry in root.iterdir()):
            raise ReportsDirRefused(
                f"reports.dir {root} is a folder memory-audit did not create and it is not "
                "empty; choose an empty or new folder (memory-audit never writes among "
                "files it did not write)"
            )
        _write_marker(root, ADOPTED)


def owner_mark(root: Path) -> str | None:
    """``created``/``adopted`` when ``root`` carries our marker (a regular file of ours)."""
    marker = root / MARKER
    try:
        info = os.lstat(marker)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            return None
        text = marker.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    return text if text in (CREATED, ADOPTED) else None


def _write_marker(root: Path, how: str) -> None:
    fd = os.open(root / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PRIVATE_FILE)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(f"{how}\n")


def _written_by_store(entry: Path) -> bool:
    """An entry any version of the store writes (for adopting a marker-less folder)."""
    if entry.name == LATEST:
        return is_own_latest(entry)
    if TEMP_RUN.match(entry.name) or TEMP_LATEST.match(entry.name):
        return True
    return is_run_folder(entry)


def is_run_folder(path: Path) -> bool:
    """A run folder the store wrote: its name, a real folder, and its ``summary.json``."""
    if not RUN_NAME.match(path.name):
        return False
    try:
        folder = os.lstat(path)
        summary = os.lstat(path / SUMMARY)
    except OSError:
        return False
    return stat.S_ISDIR(folder.st_mode) and stat.S_ISREG(summary.st_mode)


def is_own_latest(path: Path) -> bool:
    """``latest`` as the store makes it: a symlink to a run folder's bare name."""
    try:
        target = os.readlink(path)
    except OSError:
        return False
    return RUN_NAME.match(target) is not None


def may_replace_latest(path: Path) -> bool:
    """Absent, or the store's own symlink: never a user's file called ``latest``."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    return is_own_latest(path)
