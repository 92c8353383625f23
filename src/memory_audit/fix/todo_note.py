"""Capturing a coverage gap as a TODO note: a new memory file the user fills in, and its
line in MEMORY.md.

The ``coverage`` check proposes ``{"action": "capture-todo-note", "area": "src/billing",
"path": "project_src-billing.md"}``. Apply writes, through the tree guard, a ``project``
memory whose name and description say which area it is about and whose body is a TODO
for the user, and adds its index line (MEMORY.md is created when missing). Nothing
about the area is known beyond its name: the note asks, it does not guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import frontmatter as frontmatter_lib

from memory_audit.fix.edits import Edit, FileChange, index_line_added, new_name
from memory_audit.fix.text_file import new_file
from memory_audit.fix.tree_access import Tree


def description(fix: Mapping[str, Any]) -> str:
    return f"TODO: what a session should know before working in {fix['area']}/"


def capture_todo_note(tree: Tree, fix: Mapping[str, Any], answers: list[str]) -> Edit:
    area = str(fix["area"])
    name = (answers[0] if answers else "").strip() or str(fix["path"])
    said = (answers[1] if len(answers) > 1 else "").strip() or description(fix)
    note = new_file(tree, new_name(tree, name), _note_text(area, name, said))
    return Edit(
        f"wrote the TODO note `{name}` for `{area}/` and its MEMORY.md line",
        (FileChange(None, note), index_line_added(tree, f"- [{area}/]({name}) — {said}")),
    )


def _note_text(area: str, name: str, said: str) -> str:
    body = (
        f"TODO: sessions keep working in `{area}/` and no memory says anything about it.\n"
        "Write what a session should know before touching it (the rules, the traps, where "
        "things live), then delete these TODO lines.\n"
    )
    post = frontmatter_lib.Post(body, name=Path(name).stem, description=said, type="project")
    return frontmatter_lib.dumps(post) + "\n"
