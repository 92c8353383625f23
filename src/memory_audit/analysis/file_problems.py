"""Turning read and parse problems into findings, for the dimension that owns a file kind."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from memory_audit.model.finding import Finding, listed, make_finding
from memory_audit.tree.dangling import DANGLING, relink_target, same_file_in_tree
from memory_audit.tree.file_problem import drawn_name_part
from memory_audit.tree.memory_file import FileProblem

SUGGESTIONS = {
    "unparseable-frontmatter": "rewrite the failing line as `key: 'whole value'` (single quotes,"
    " any ' inside doubled)",
    "frontmatter-too-large": "keep frontmatter to a few key: value lines; the body holds detail",
    "frontmatter-not-mapping": "rewrite the frontmatter as key: value lines",
    "unclosed-frontmatter": "add the closing --- line after the last frontmatter field",
    "not-utf8": "re-save the file as UTF-8",
    "binary-file": "remove the file or restore its text from a backup",
    "file-too-large": "split the file into topic files; memory files are read whole into context",
    "symlink-outside-tree": "audit the link's target on its own (`memory-audit audit <target>`):"
    " this audit reads nothing outside the tree; copy the files in only if the link is not"
    " meant to share them",
    "dangling-symlink": "remove the link, or restore its target",
    "not-regular-file": "remove it; only regular .md files are memories",
}

# A file whose frontmatter (or text) cannot be read whole: its dimension's other findings
# about it are moot, so these lead.
UNREADABLE = frozenset(
    {
        "unparseable-frontmatter",
        "frontmatter-not-mapping",
        "unclosed-frontmatter",
        "binary-file",
        "file-too-large",
        "not-utf8",
    }
)

# Louder than their dimension: Claude Code reads nothing of such a file's frontmatter.
SEVERITIES = {"unparseable-frontmatter": "error", "frontmatter-not-mapping": "error"}


def problem_findings(
    dimension: str, path: str, problems: Iterable[FileProblem]
) -> Iterator[Finding]:
    for problem in problems:
        yield make_finding(
            dimension,
            problem.code,
            path,
            problem.line,
            problem.message,
            problem.suggestion or SUGGESTIONS.get(problem.code),
            key=problem.code,
            judgment=problem.code not in SUGGESTIONS,
            severity=SEVERITIES.get(problem.code),
        )


# Files that are one kind of binary (a workspace's Word documents named .md), from this many
# on: one cause, so one finding naming them, not one a file
BINARY_FLOOD = 3
BINARY = "binary-file"


def binary_floods(
    dimension: str, unread: Mapping[str, Sequence[FileProblem]]
) -> tuple[list[Finding], frozenset[str]]:
    """One finding for each kind of binary content that ``BINARY_FLOOD`` files or more share
    (the same message: the same kind), and the paths those findings cover."""
    kinds: dict[tuple[str, str | None], list[str]] = {}
    for path, problems in unread.items():
        for problem in problems:
            if problem.code == BINARY:
                kinds.setdefault((problem.message, problem.suggestion), []).append(path)
    found, covered = [], set()
    for (message, suggestion), paths in kinds.items():
        if len(paths) < BINARY_FLOOD:
            continue
        kind = message.removeprefix("binary content in a .md file").removesuffix("; not read")
        what = f" ({kind.lstrip(': ')})" if kind else ""
        found.append(
            make_finding(
                dimension,
                BINARY,
                paths[0],
                None,
                f"{len(paths)} .md files hold binary content{what}: {listed(paths, 6)}; not read",
                suggestion or SUGGESTIONS[BINARY],
                key=f"{BINARY}s:{message}",
                related=tuple(paths[1:]),
            )
        )
        covered.update(paths)
    return found, frozenset(covered)


# Links to missing files, from this many on: one cause (a folder the links point into that
# this machine lacks: a memory repository's links to its author's home, cloned elsewhere),
# so one finding naming them, not one a link
DANGLING_FLOOD = 3


def dangling_links_finding(dimension: str, root: Path, paths: Sequence[str]) -> Finding:
    """One finding for the links of ``paths`` (relative to ``root``) whose targets are
    missing: the first few named, and the folder all their targets lie in when they share
    one outside the tree (a link's target is read with ``readlink``, never followed)."""
    targets = []
    for path in paths:
        try:
            targets.append(os.readlink(root / path))
        except OSError:  # gone or no longer a link since the walk: named without a target
            targets.append("")
    folders = [os.path.dirname(t) for t in targets if os.path.isabs(t)]
    common = os.path.commonpath(folders) if folders and len(folders) == len(targets) else ""
    # the folder named only when no part of it looks drawn (a token as a folder's name
    # would be printed whole: targets outside the tree are never scanned for secrets)
    shown = common not in ("", os.sep) and not any(map(drawn_name_part, Path(common).parts))
    into = f", all into `{common}`" if shown else ""
    relinks = _relinks(root, paths)
    if relinks:
        return make_finding(
            dimension,
            DANGLING,
            paths[0],
            None,
            f"{len(paths)} symlinks point to missing files: {listed(list(paths), 6)}; each is"
            " an absolute path of another machine whose last parts name a file of this tree",
            "point each at the tree's own file by a relative path, which holds on every"
            f" machine: {'; '.join(relinks[:3])}{'; ...' if len(relinks) > 3 else ''}",
            key="dangling-symlinks",
            related=tuple(paths[1:]),
        )
    return make_finding(
        dimension,
        DANGLING,
        paths[0],
        None,
        f"{len(paths)} symlinks point to missing files{into}: {listed(list(paths), 6)}",
        f"restore {'`' + common + '`' if into else 'their targets'} on this machine, or put"
        " the files themselves in place of the links; a link to nothing is a memory no"
        " session can read",
        key="dangling-symlinks",
        related=tuple(paths[1:]),
    )


def _relinks(root: Path, paths: Sequence[str]) -> list[str]:
    """``ln -sfn <target> <link>`` for each link whose absolute target names a file of the
    tree (:func:`memory_audit.tree.dangling.same_file_in_tree`); empty unless every one does."""
    real_root = Path(os.path.realpath(root))
    commands = []
    for path in paths:
        link = str(root / path)
        found = same_file_in_tree(link, real_root)
        if found is None:
            return []
        commands.append(f"`ln -sfn {relink_target(link, found)} {shlex.quote(path)}`")
    return commands
