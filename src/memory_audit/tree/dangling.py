"""A link to a missing file, and the tree's own file it meant when it was made elsewhere.

A workspace committed from another machine keeps links by that machine's absolute paths
(``C:/Users/<name>/<repo>/AGENTS.md``); here they dangle. When the target's last parts name
a Markdown file of this tree, the fix is a relative link to it, which holds on every
machine, not removing the link. Only existence is asked, never a read, and only inside the
tree: a part that climbs out, a symlinked folder leading outside, a hidden file, a name
every repository has (``README.md``) matched by itself alone: no relink is offered.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
from pathlib import Path

from memory_audit.tree.file_problem import FileProblem, drawn_name_part

DANGLING = "dangling-symlink"
# An absolute target written on another machine: "C:/Users/<name>/<repo>/AGENTS.md",
# "/home/<name>/<repo>/notes/a.md"; its parts split at either separator.
PATH_PARTS = re.compile(r"[\\/]+")
DRIVE = re.compile(r"^[A-Za-z]:$")
MAX_PARTS = 32  # a deeper target is no repository's file: not probed part by part
NAME_MAX = 255  # a longer part is no file's name here (the probe would fail, not miss)
# Names too common to tell one repository's file by themselves
COMMON_NAMES = frozenset({"readme.md", "index.md", "changelog.md", "license.md", "memory.md"})


def dangling_link(link: str, real_root: Path) -> FileProblem:
    """A link to a missing file, with a relative link's fix when its absolute target names
    a file of the tree by its last parts (:func:`same_file_in_tree`)."""
    found = same_file_in_tree(link, real_root)
    if found is None:
        return FileProblem(DANGLING, "symlink to a missing file")
    return FileProblem(
        DANGLING,
        f"symlink to a missing file: an absolute path of another machine, whose last parts"
        f" name `{os.path.relpath(found, real_root)}` of this tree",
        suggestion=f"point the link at the tree's own file by a relative path, which holds"
        f" on every machine: `ln -sfn {relink_target(link, found)} <this link>`",
    )


def relink_target(link: str, found: Path) -> str:
    """The relative target from the link's folder, quoted for a shell (a name may hold a
    space or ``$(...)``)."""
    return shlex.quote(os.path.relpath(found, os.path.realpath(os.path.dirname(link))))


def same_file_in_tree(link: str, real_root: Path) -> Path | None:
    """The tree's Markdown file that the absolute target of ``link`` names by its last
    parts (the most of them that match), or None."""
    parts = _target_parts(link)
    for start in range(len(parts)):
        tail = parts[start:]
        if start == len(parts) - 1 and tail[0].lower() in COMMON_NAMES:
            return None  # one common name alone: any repository's
        candidate = _in_tree(real_root, tail)
        if candidate is not None:
            return candidate
    return None


def _target_parts(link: str) -> list[str]:
    """The parts of the link's absolute target (a drive left out); none for a relative
    target, one that climbs, one too deep, a part no file name can be, or a drawn part (a
    token as a folder's name would be printed whole)."""
    try:
        target = os.readlink(link)
    except (OSError, ValueError):
        return []
    parts = [p for p in PATH_PARTS.split(target) if p and not DRIVE.match(p)]
    absolute = target.startswith(("/", "\\")) or bool(DRIVE.match(target[:2]))
    if not absolute or len(parts) > MAX_PARTS:
        return []
    for part in parts:
        too_long = len(part.encode("utf-8", "surrogateescape")) > NAME_MAX
        if part in (".", "..") or too_long or drawn_name_part(part):
            return []
    return parts


def _in_tree(real_root: Path, tail: list[str]) -> Path | None:
    """``real_root/<tail>`` when it is a regular Markdown file of the tree, reached through
    no link and no hidden part; None otherwise (or when the probe fails)."""
    if not tail[-1].endswith(".md") or any(p.startswith(".") for p in tail):
        return None
    candidate = real_root.joinpath(*tail)
    try:
        if not stat.S_ISREG(os.lstat(candidate).st_mode):
            return None
        real = Path(os.path.realpath(candidate))
    except (OSError, ValueError):
        return None
    return candidate if real == candidate and real.is_relative_to(real_root) else None
