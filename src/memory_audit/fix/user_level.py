"""``move-to-user-level``: a note kept in several projects' stores goes to the user level.

Apply writes the note's body once to ``~/.claude/CLAUDE.md`` (or a file under
``~/.claude/rules/``: Edit asks where), unless that file already holds it word for word
(an earlier store's decision wrote it), then moves this store's copy into the store's
``.trash/`` and removes its MEMORY.md line. Each store is its own decision; the diff shows
every file it touches, and the copy stays in ``.trash/`` to be restored by moving it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from memory_audit.config.paths import claude_home
from memory_audit.fix import tree_access
from memory_audit.fix.actions import Action
from memory_audit.fix.edits import Edit, FileChange, StaleTarget
from memory_audit.fix.text_file import TextFile, new_file
from memory_audit.fix.tree_access import Tree
from memory_audit.tree.discovery import TRASH
from memory_audit.tree.index_file import INDEX_NAME

NAME = "move-to-user-level"
USER_FILE = "CLAUDE.md"
RULES = "rules"
MARK = "<!-- moved here from project memory by memory-audit: {name} -->"
QUESTION = "Write it to (under ~/.claude: CLAUDE.md or rules/<name>.md)"


@dataclass(frozen=True)
class UserLevelEdit(Edit):
    """An edit that first makes the folders its files go into (``.trash/``, ``rules/``)."""

    folders: tuple[tuple[Tree, str], ...] = ()

    def apply(self) -> None:
        for tree, rel in self.folders:
            tree.make_folders(rel)
        super().apply()


def move_to_user_level(tree: Tree, fix: Mapping[str, Any], answers: list[str]) -> Edit:
    rel = str(fix["path"])
    target = _user_file(answers[0] if answers and answers[0].strip() else USER_FILE)
    memory = _read(tree, rel)
    body = _body(memory.text)
    if not body:
        raise StaleTarget(f"{rel} has no note to move")
    home = Tree.open(claude_home())
    changes: list[FileChange] = []
    written = _user_level_change(home, target, body, PurePosixPath(rel).stem)
    if written is not None:
        changes.append(written)
    changes += _index_without(tree, rel)
    trashed = _trash_name(tree, rel)
    changes.append(FileChange(memory, memory, rename_to=trashed))
    where = f"~/.claude/{target}: added the note; " if written else ""
    folders = [(tree, TRASH)]
    if "/" in target:
        folders.append((home, target.rpartition("/")[0]))
    return UserLevelEdit(
        f"{where}{rel} moved to {trashed} and its MEMORY.md line removed",
        tuple(changes),
        folders=tuple(folders),
    )


def _user_file(answer: str) -> str:
    path = PurePosixPath(answer.strip().removeprefix("~/.claude/"))
    if str(path) == USER_FILE:
        return USER_FILE
    rule = path.parent == PurePosixPath(RULES) and path.suffix == ".md"
    if rule and not path.name.startswith("."):
        return str(path)
    raise StaleTarget(f"`{answer}` is neither CLAUDE.md nor rules/<name>.md under ~/.claude")


def _read(tree: Tree, rel: str) -> TextFile:
    try:
        return TextFile.read_in(tree, rel)
    except (tree_access.NotInTree, OSError) as exc:
        raise StaleTarget(str(exc)) from None


def _body(text: str) -> str:
    """The note without its frontmatter block."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            text = text[end + 4 :].partition("\n")[2]
    return text.strip()


def _user_level_change(home: Tree, target: str, body: str, name: str) -> FileChange | None:
    block = f"{MARK.format(name=name)}\n{body}\n"
    try:
        present = home.exists(target)
        existing = TextFile.read_in(home, target) if present else None
    except (tree_access.NotInTree, OSError) as exc:
        raise StaleTarget(str(exc)) from None
    if existing is None:
        return FileChange(None, new_file(home, target, block))
    if body in existing.text:
        return None  # an earlier store's decision already put it there
    text = existing.text.rstrip("\n") + "\n\n" + block if existing.text.strip() else block
    return FileChange(existing, existing.with_text(text))


def _index_without(tree: Tree, rel: str) -> list[FileChange]:
    if not tree.exists(INDEX_NAME):
        return []
    index = _read(tree, INDEX_NAME)
    links = (f"]({rel})", f"]({rel}#", f"](<{rel}>)")
    lines = index.lines
    kept = [line for line in lines if not any(link in line for link in links)]
    return [] if kept == lines else [FileChange(index, index.with_text("\n".join(kept)))]


def _trash_name(tree: Tree, rel: str) -> str:
    stem = PurePosixPath(rel).name
    for number in range(1, 1000):
        name = f"{TRASH}/{stem}" if number == 1 else f"{TRASH}/{number}-{stem}"
        if not tree.exists(name):
            return name
    raise StaleTarget(f"{TRASH} is full of copies of {stem}")


ACTION = Action(move_to_user_level, ((QUESTION, lambda fix: USER_FILE),), touches_index=True)
