"""What to do with a memory that no longer earns its place (``bloat``: finished work,
stale, encoded in a rule): archive it, delete it, or trim it. Demoting (``relevance:
always`` off) is ``demote-relevance`` in fix/actions.py.

Each builds one :class:`Edit` through the tree guard, nothing written here:

- archive: the file moves under the tree's archive folder (an existing ``archive/``,
  ``archived/`` or ``_archive/``, else ``archive/``), and every Markdown link to it in
  the tree (MEMORY.md's line included) follows it;
- delete: the file goes, with its MEMORY.md lines; the journal keeps its last version
  (``memory-audit restore`` brings it back);
- trim: the lines the user picked from a numbered view of the body go.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from memory_audit.fix.edits import Edit, FileChange, NeedsValue, StaleTarget
from memory_audit.fix.text_file import TextFile
from memory_audit.fix.tree_access import NotInTree, Tree
from memory_audit.tree.file_kinds import ARCHIVE_FOLDERS
from memory_audit.tree.index_file import INDEX_NAME


def archive_folder(tree: Tree) -> str:
    """The tree's own archive folder when it has one, else ``archive``."""
    for name in ARCHIVE_FOLDERS:
        try:
            if tree.exists(name) and not tree.exists(f"{name}.md"):
                return name
        except NotInTree:
            continue
    return ARCHIVE_FOLDERS[0]


def archive(tree: Tree, rel: str, files: list[str]) -> Edit:
    """``rel`` under the archive folder; ``files`` (tree-relative ``.md`` paths) are the
    ones whose links may need to follow it."""
    memory = _read(tree, rel)
    folder = archive_folder(tree)
    if rel.startswith(f"{folder}/"):
        raise NeedsValue(f"{rel} is already in {folder}/")
    target = f"{folder}/{posixpath.basename(rel)}"
    if tree.exists(target):
        raise NeedsValue(f"{target} already exists; delete or rename one of them first")
    changes = [FileChange(memory, memory, rename_to=target)]
    for other in files:
        if other == rel:
            continue
        linking = _readable(tree, other)
        changed = _relinked(linking, rel, target) if linking is not None else None
        if changed is not None:
            changes.append(changed)
    moved = len(changes) - 1
    links = f", {moved} file(s) relinked" if moved else ""
    return Edit(f"archived `{rel}` to `{target}`{links}", tuple(changes))


def delete(tree: Tree, rel: str, files: list[str]) -> Edit:
    """The file and the MEMORY.md lines that point at it; a link to it in another file
    (``files``) keeps its text and loses its target, or it would be a broken link."""
    memory = _read(tree, rel)
    changes = [FileChange(memory, memory, delete=True)]
    if rel != INDEX_NAME and tree.exists(INDEX_NAME):
        index = _read(tree, INDEX_NAME)
        kept = [line for line in index.lines if not _links_to(line, "", rel)]
        if len(kept) != len(index.lines):
            changes.append(FileChange(index, index.with_text("\n".join(kept))))
    unlinked = 0
    for other in files:
        if other in (rel, INDEX_NAME):
            continue
        linking = _readable(tree, other)
        changed = _unlinked(linking, rel) if linking is not None else None
        if changed is not None:
            changes.append(changed)
            unlinked += 1
    also = f"; links to it in {unlinked} file(s) kept as text" if unlinked else ""
    return Edit(f"deleted `{rel}` and its index line{also}", tuple(changes))


def numbered_body(tree: Tree, rel: str) -> list[tuple[int, str]]:
    """(line number, text) of every body line: what trim shows and takes numbers from."""
    memory = _read(tree, rel)
    lines = memory.lines
    start = _body_start(lines)
    return [(n + 1, lines[n]) for n in range(start, _end(lines))]


def trim(tree: Tree, rel: str, picked: str) -> Edit:
    """The body lines named in ``picked`` ("3-7, 9") go; the frontmatter never does."""
    memory = _read(tree, rel)
    lines = memory.lines
    start = _body_start(lines)
    chosen = parse_lines(picked, start + 1, _end(lines))
    if not chosen:
        raise NeedsValue("no body line picked (numbers as shown, like 7-12, 15)")
    kept = [line for n, line in enumerate(lines, 1) if n not in chosen]
    if not any(line.strip() for line in kept[start:]):
        raise NeedsValue("that is the whole body; delete the file instead")
    trimmed = FileChange(memory, memory.with_text("\n".join(kept)))
    return Edit(f"{rel}: trimmed {len(chosen)} line(s)", (trimmed,))


def parse_lines(picked: str, first: int, last: int) -> set[int]:
    """``3-7, 9`` as a set of line numbers within first..last; anything else refused."""
    chosen: set[int] = set()
    for part in picked.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise NeedsValue(f"`{part}` is not a line number or a range like 7-12")
        a, b = int(low), int(high) if dash else int(low)
        if not first <= a <= b <= last:
            raise NeedsValue(f"`{part}` is outside the body (lines {first}–{last})")
        chosen.update(range(a, b + 1))
    return chosen


def _end(lines: list[str]) -> int:
    """How many lines there are to show: a final newline ends the last one, no line after."""
    return len(lines) - 1 if lines and lines[-1] == "" else len(lines)


def _body_start(lines: list[str]) -> int:
    """The 0-based index of the first body line (after a closed ``---`` block)."""
    if lines and lines[0].strip() == "---":
        for n in range(1, len(lines)):
            if lines[n].strip() == "---":
                return n + 1
    return 0


def _read(tree: Tree, rel: str) -> TextFile:
    try:
        return TextFile.read_in(tree, rel)
    except NotInTree as exc:
        raise StaleTarget(str(exc)) from None


def _readable(tree: Tree, rel: str) -> TextFile | None:
    """Another file whose links may need to follow; one that cannot be read as text (not
    UTF-8, too large, no longer a regular file) is left as it is."""
    try:
        return _read(tree, rel)
    except (StaleTarget, OSError, UnicodeError):
        return None


def _relinked(file: TextFile, old: str, new: str) -> FileChange | None:
    """``file`` with each Markdown link that leads to ``old`` leading to ``new``."""
    here = posixpath.dirname(file.rel)
    return _each_line(file, lambda line: _replace_links(line, here, old, new))


def _unlinked(file: TextFile, rel: str) -> FileChange | None:
    """``file`` with each ``[text](rel)`` written as ``text``."""
    here = posixpath.dirname(file.rel)
    return _each_line(file, lambda line: _drop_marked(_replace_links(line, here, rel, UNLINK)))


def _each_line(file: TextFile, rewrite: Callable[[str], str]) -> FileChange | None:
    """``file`` with ``rewrite`` applied to each line; None when no line changed."""
    lines = [rewrite(line) for line in file.lines]
    return FileChange(file, file.with_text("\n".join(lines))) if lines != file.lines else None


UNLINK = "\x00unlink"  # what _replace_links writes for a link to drop, then _drop_marked


def _drop_marked(line: str) -> str:
    """``[text](\x00unlink)`` → ``text`` (a hand scanner, linear in the line)."""
    out: list[str] = []
    at = 0
    while (end := line.find(f"]({UNLINK}", at)) != -1:
        start = line.rfind("[", at, end)
        close = line.find(")", end)
        if start == -1 or close == -1:
            break
        out.append(line[at:start] + line[start + 1 : end])
        at = close + 1
    out.append(line[at:])
    return "".join(out)


def _links_to(line: str, here: str, rel: str) -> bool:
    return _replace_links(line, here, rel, UNLINK) != line


def _replace_links(line: str, here: str, old: str, new: str) -> str:
    """Each ``](target)`` / ``](<target>)`` of ``line`` resolving (from folder ``here``)
    to ``old``, rewritten to lead to ``new``. A hand scanner: linear in the line."""
    out: list[str] = []
    at = 0
    while (start := line.find("](", at)) != -1:
        open_at = start + 2
        angled = line.startswith("<", open_at)
        close = line.find(">)" if angled else ")", open_at)
        if close == -1:
            break
        body = line[open_at + angled : close]
        target, hash_, anchor = body.partition("#")
        if target and posixpath.normpath(posixpath.join(here, target)) == old:
            if "\x00" in new:  # a marker, not a path: the link is dropped or only noticed
                out.append(line[at:open_at] + new + ")")
                at = close + (2 if angled else 1)
                continue
            moved = posixpath.relpath(new, here or ".")
            out.append(line[at:open_at] + ("<" if angled else "") + moved + hash_ + anchor)
        else:
            out.append(line[at:close])
        at = close
    out.append(line[at:])
    return "".join(out)
