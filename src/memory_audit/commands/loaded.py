"""``memory-audit loaded [PROJECT]``: what a session of a project receives from memory.

Prints MEMORY.md exactly as Claude Code hands it to a session (cut to 200 lines
and 25,000 characters, Claude Code's warning line appended when it cuts), then
an account: lines and characters against the limits, the index entries past
the cut, the topic files the index points to, and the recall scan (MEMORY.md
first, then memories newest first, capped at 200: those past the 200th are
never candidates for recall). Reads the tree; never writes to it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TextIO

from memory_audit.analysis.loaded_view import LoadedAccount, loaded_account
from memory_audit.analysis.recall import RECALL_CAP
from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.engine import load_ref, redaction_boundary
from memory_audit.model.undecodable import escaped_all
from memory_audit.tree import discovery
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.load_budget import CHAR_LIMIT, LINE_LIMIT
from memory_audit.tree.settle import settled

# Terminal control characters in memory text are shown, not obeyed (DESIGN §6.8).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
RULE = "─" * 60


def run(*, project: str | None, output_format: str, config_path: Path | None, out: TextIO) -> int:
    config = config_module.load(config_path, OPTION_TYPES)
    tree = settled(load_ref(_target(project), config))  # a file no reader can parse: an error
    boundary = redaction_boundary(tree, config.check_options("secrets"))
    account = escaped_all(loaded_account(tree, boundary.text))
    if output_format == "json":
        out.write(json.dumps(account.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(render_text(account))
    return 0


def _target(project: str | None) -> TreeRef:
    """A tree or project folder, a project slug, or (none given) this folder's project."""
    if project is None:
        return discovery.tree_for_path(Path.cwd())
    if Path(project).expanduser().is_dir():
        return discovery.tree_for_path(Path(project))
    return discovery.tree_for_project(project)


def render_text(account: LoadedAccount) -> str:
    lines = [_shown(account.text) if account.text else "(no MEMORY.md: nothing is loaded)"]
    lines += ["", RULE, f"What a session receives from {account.root}/MEMORY.md", RULE]
    lines += _budget(account) + _pointers(account) + _recall(account) + _errors(account)
    return "\n".join(lines) + "\n"


def _errors(account: LoadedAccount) -> list[str]:
    if not account.errors:
        return []
    lines = [f"Not read ({len(account.errors)}):"]
    return lines + [f"  {_shown(path)}: {_shown(error)}" for path, error in account.errors]


def _budget(account: LoadedAccount) -> list[str]:
    index = account.index
    if index is None:
        return ["No MEMORY.md."]
    lines = [
        f"Lines:      {index.lines} counted, {index.kept_lines} loaded (limit {LINE_LIMIT})",
        f"Characters: {index.chars:,} counted, {index.loaded_chars:,} loaded "
        f"(limit {CHAR_LIMIT:,}, UTF-16 code units as Claude Code counts)",
    ]
    if not index.cut:
        return [*lines, "Loaded whole: no warning was appended."]
    lines.append(f"Cut at file line {index.first_hidden}; Claude Code appended its warning.")
    if account.loaded_by is not None:
        shown = _shown(account.loaded_by)
        return [*lines, f"Loaded in full all the same: {shown}, so no entry is hidden."]
    past = account.past_cut
    lines.append(f"Index entries past the cut ({len(past)}):")
    lines += [f"  line {p.line}: [{_shown(p.title)}]({_shown(p.target)})" for p in past]
    return lines


def _pointers(account: LoadedAccount) -> list[str]:
    lines = [f"Topic files the index points to ({len(account.pointers)}):"]
    for pointer in account.pointers:
        notes = [] if pointer.loaded else ["past the cut"]
        if not pointer.exists:
            notes.append("missing")
        if pointer.path is None:
            notes.append("outside the tree")
        where = pointer.path or pointer.target
        suffix = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"  line {pointer.line}: {_shown(where)}{suffix}")
    return lines


def _recall(account: LoadedAccount) -> list[str]:
    total = len(account.recall_order)
    lines = [
        f"Recall scan: MEMORY.md, then {total} memories newest first "
        f"(a `modified:` stamp stands in for the file time; ties in path order)."
    ]
    lines += [
        f"  note: {_shown(path)} has `modified: {_shown(value)}`, not a date: file time used"
        for path, value in account.recall_not_dates
    ]
    past = account.past_recall_cap
    if not past:
        return [*lines, f"Recall sees all {total}."]
    lines.append(f"Recall sees {RECALL_CAP} of {total}; never candidates ({len(past)}):")
    return lines + [f"  {_shown(path)}" for path in past]


def _shown(text: str) -> str:
    return CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)
