"""Moving an orphaned store into its project's new store, in three steps.

What the user sees: README, "Moving a store whose project moved".

1. **Copy** every memory file the new store lacks, byte for byte. A file of the same
   name is never overwritten: with the same bytes it is already there; with other
   content the old one is copied as ``<stem>-moved.md`` (``-moved-2``, ...), so both
   stay and ``duplicates`` can compare them. Each copy is read back and compared; if
   one fails, this step's copies are removed again.
2. **Index**: the old MEMORY.md's entries whose targets are now in the new store and
   that the new index does not link yet are appended (a renamed copy's link follows
   it); a line already there is not repeated. Other lines of the old index (notes,
   headings) are not merged: they stay in ``.trash``.
3. **Trash**: only when every copied file still has the same bytes in both stores,
   the old memory folder is renamed to ``<old store>/.trash/memory`` (``memory-2``, ...)
   beside its transcripts: nothing is deleted, and no tree or session loads it.

Everything goes through :mod:`memory_audit.fix.tree_access` (no symlink followed,
regular files only, a write never over a file that changed since it was read), and
nothing is written outside the two stores: the old tree is the one the review holds
open, the new store's memory folder (or the store, while it has none) and the old
store (for ``.trash``) are held open from the plan on, and a write into any of them
is refused once its path no longer leads to the folder held.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from memory_audit.fix import tree_access
from memory_audit.fix.edits import Edit, FileChange
from memory_audit.fix.text_file import TextFile, new_file
from memory_audit.fix.tree_access import Tree
from memory_audit.tree.discovery import TRASH
from memory_audit.tree.index_file import INDEX_NAME, LineKind, parse_index
from memory_audit.tree.load_budget import LINE_LIMIT
from memory_audit.tree.walk import list_tree

RENAMED_SUFFIX = "-moved"
MAX_RENAMINGS = 100
REFUSED = b"\0refused"  # compared by identity: no file's bytes are this object


class MoveStopped(Exception):
    """A step that could not be made safely; the message says why, nothing was lost."""


@dataclass(frozen=True)
class Copy:
    source: str  # path in the old tree
    target: str  # path in the new tree: the same, or the renamed copy
    data: bytes
    mode: int


@dataclass(frozen=True)
class MovePlan:
    old: Tree  # the tree under review
    new: Tree  # the new store's memory folder, created by step 1 when missing
    store: Tree  # the old store, where .trash goes
    copies: tuple[Copy, ...]
    present: tuple[tuple[str, str], ...]  # (old path, new path): there with the same bytes
    left: tuple[str, ...]  # not copied (not a memory file, or refused): kept in .trash

    @property
    def old_root(self) -> Path:
        return self.old.path

    @property
    def new_root(self) -> Path:
        return self.new.path

    def close(self) -> None:
        """The folders this plan opened (the old tree is the review's own)."""
        self.new.close()
        self.store.close()

    @property
    def renamed(self) -> dict[str, str]:
        pairs = [(c.source, c.target) for c in self.copies] + list(self.present)
        return {source: target for source, target in pairs if source != target}

    @property
    def targets(self) -> set[str]:
        return {c.target for c in self.copies} | {target for _, target in self.present}


@dataclass(frozen=True)
class IndexMerge:
    edit: Edit
    added: int
    not_merged: int  # entries whose target is absent or already indexed, notes, headings
    lines_after: int


def plan_move(old: Tree, new_root: Path) -> MovePlan:
    """What step 1 would copy, read now (nothing written); the plan holds the new store
    and the old one open until :meth:`MovePlan.close`."""
    try:
        new = Tree.open(new_root)
    except tree_access.NotInTree as exc:
        raise MoveStopped(str(exc)) from None
    try:
        store = Tree.open(old.path.parent)
    except tree_access.NotInTree as exc:
        new.close()
        raise MoveStopped(str(exc)) from None
    try:
        copies, present, left = _plan_copies(old, new)
    except BaseException:
        new.close()
        store.close()
        raise
    return MovePlan(old, new, store, copies, present, left)


def _plan_copies(
    old: Tree, new: Tree
) -> tuple[tuple[Copy, ...], tuple[tuple[str, str], ...], tuple[str, ...]]:
    listing = list_tree(old.path)
    copies: list[Copy] = []
    present: list[tuple[str, str]] = []
    left = [p for p in sorted(listing.present) if _is_other_file(old.path, p)]
    taken: set[str] = set()
    for candidate in listing.candidates:
        try:
            data, mode = old.read_bytes(candidate.path)
        except tree_access.NotInTree:
            left.append(candidate.path)
            continue
        there = _already_there(new, candidate.path, data)
        if there is not None:
            present.append((candidate.path, there))
            continue
        theirs = _read_or_none(new, candidate.path)
        target = candidate.path if theirs is None else _free_name(new, candidate.path, taken)
        taken.add(target)
        copies.append(Copy(candidate.path, target, data, mode))
    return tuple(copies), tuple(present), tuple(sorted(left))


def _is_other_file(root: Path, rel: str) -> bool:
    return not rel.endswith(".md") and not (root / rel).is_dir()


def _read_or_none(tree: Tree, rel: str) -> bytes | None:
    """The file's bytes; None when nothing has that name (or a folder on the way is
    missing); REFUSED when something is there that review does not read (a symlink, a
    folder): never written over."""
    try:
        return tree.read_if_present(rel)
    except tree_access.NotInTree:
        return REFUSED


def _already_there(root: Tree, rel: str, data: bytes) -> str | None:
    """Where the new store holds these very bytes: the same name, or a copy an earlier
    move made under another name (so a move run twice copies nothing twice)."""
    for name in (rel, *_renamings(rel)):
        theirs = _read_or_none(root, name)
        if theirs is None:
            return None
        if theirs == data and theirs is not REFUSED:
            return name
    return None


def _renamings(rel: str) -> list[str]:
    path = PurePosixPath(rel)
    suffixes = [RENAMED_SUFFIX, *(f"{RENAMED_SUFFIX}-{n}" for n in range(2, MAX_RENAMINGS))]
    return [str(path.with_name(f"{path.stem}{suffix}{path.suffix}")) for suffix in suffixes]


def _free_name(root: Tree, rel: str, taken: set[str]) -> str:
    for name in _renamings(rel):
        if name not in taken and _read_or_none(root, name) is None:
            return name
    raise MoveStopped(f"no free name for a copy of {rel}")


# ---- step 1: copy --------------------------------------------------------------------


def copy_files(plan: MovePlan) -> None:
    """Each file as it was shown, read back after writing; on a failure the copies of
    this step are removed, so the new store is as it was."""
    made: list[Copy] = []
    try:
        plan.new.create_root()
        for copy in plan.copies:
            _copy_one(plan, copy)
            made.append(copy)
    except tree_access.NotInTree as exc:
        _remove(plan.new, made)
        raise MoveStopped(str(exc)) from None
    except BaseException:
        _remove(plan.new, made)
        raise


def _copy_one(plan: MovePlan, copy: Copy) -> None:
    if plan.old.read_bytes(copy.source)[0] != copy.data:
        raise MoveStopped(f"{copy.source} changed since it was shown; nothing copied")
    folder = str(PurePosixPath(copy.target).parent)
    if folder != ".":
        plan.new.make_folders(folder)
    plan.new.replace(copy.target, copy.data, copy.mode, None)
    if plan.new.read_bytes(copy.target)[0] != copy.data:
        raise MoveStopped(f"the copy of {copy.source} does not read back the same")


def _remove(tree: Tree, made: list[Copy]) -> None:
    for copy in made:
        try:
            tree.remove(copy.target, copy.data)
        except (OSError, tree_access.NotInTree):
            continue  # changed meanwhile by someone else: theirs now, left alone


# ---- step 2: index -------------------------------------------------------------------


def merge_index(plan: MovePlan) -> IndexMerge | None:
    """The new MEMORY.md with the old entries appended; None when nothing is to add."""
    old = _read_or_none(plan.old, INDEX_NAME)
    if not old:
        return None
    old_index = parse_index(old.decode("utf-8", errors="replace"), len(old), 0, [])
    existing = _new_index(plan.new)
    index = existing or new_file(plan.new, INDEX_NAME, "# Memory index\n")
    lines = index.text.rstrip("\n").split("\n")
    linked = _linked(index.text)
    added = 0
    for entry in old_index.entries:
        line = _merged_line(plan, entry.kind, old_index.lines[entry.line - 1], entry.target)
        if line is None or line in lines or _target(line) in linked:
            continue
        lines.append(line)
        linked.add(_target(line))
        added += 1
    if not added:
        return None
    counted = [k for k in old_index.line_kinds if k not in (LineKind.BLANK, LineKind.HEADING)]
    change = FileChange(existing, index.with_text("\n".join([*lines, ""])))
    edit = Edit(f"MEMORY.md: merged {added} entries of the moved store's index", (change,))
    return IndexMerge(edit, added, len(counted) - added, len(lines))


def _new_index(tree: Tree) -> TextFile | None:
    try:
        if not tree.exists(INDEX_NAME):
            return None
        return TextFile.read_in(tree, INDEX_NAME)
    except (tree_access.NotInTree, UnicodeError) as exc:
        raise MoveStopped(f"the new store's MEMORY.md cannot be merged into: {exc}") from None


def _linked(text: str) -> set[str]:
    index = parse_index(text, len(text), 0, [])
    return {entry.target for entry in index.entries}


def _merged_line(plan: MovePlan, kind: LineKind, line: str, target: str) -> str | None:
    """The old entry as it reads in the new store: its link following a renamed copy;
    None when its target is not there (or a wikilink cannot follow the rename)."""
    if kind != LineKind.POINTER:
        return None
    renamed = plan.renamed.get(target)
    if renamed is not None:
        for form in (f"]({target}", f"](./{target}"):
            if form in line:
                return line.replace(form, f"]({renamed}", 1)
        return None
    return line if target in plan.targets else None


def _target(line: str) -> str:
    entries = parse_index(line, len(line), 0, []).entries
    return entries[0].target if entries else line


def over_budget(merge: IndexMerge) -> str | None:
    if merge.lines_after <= LINE_LIMIT:
        return None
    return (
        f"MEMORY.md will have {merge.lines_after} lines; Claude Code loads only the first "
        f"{LINE_LIMIT}: move detail into topic files afterwards (index-budget will say which)"
    )


# ---- step 3: trash -------------------------------------------------------------------


def trash_name(plan: MovePlan) -> str:
    for number in range(1, 1000):
        name = plan.old_root.name if number == 1 else f"{plan.old_root.name}-{number}"
        if not plan.store.exists(f"{TRASH}/{name}"):
            return f"{TRASH}/{name}"
    raise MoveStopped(f"{plan.store.path / TRASH} is full")


def trash_old(plan: MovePlan) -> Path:
    """Rename the old memory folder into the old store's ``.trash/``, once every copy is
    verified: the same bytes in both stores right now."""
    for copy in plan.copies:
        _same(plan, copy.source, copy.target)
    for source, target in plan.present:
        _same(plan, source, target)
    to = trash_name(plan)
    try:
        plan.old.check_in_place()
        if not plan.store.holds(plan.old_root.name, plan.old):
            raise MoveStopped(f"{plan.old_root} is no longer the folder reviewed; nothing moved")
        plan.store.make_folders(TRASH, 0o700)
        plan.store.rename(plan.old_root.name, to)
    except tree_access.NotInTree as exc:
        raise MoveStopped(str(exc)) from None
    return plan.store.path / to


def _same(plan: MovePlan, source: str, target: str) -> None:
    try:
        mine = plan.old.read_bytes(source)[0]
        theirs = plan.new.read_bytes(target)[0]
    except tree_access.NotInTree as exc:
        raise MoveStopped(f"{exc}; the old store is kept") from None
    if mine != theirs:
        raise MoveStopped(f"{source} differs from its copy {target}; the old store is kept")
