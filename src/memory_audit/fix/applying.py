"""Writing one change of a review with its guards, and what a write that cannot be made
says.

A change is built from the tree as it is (a fix's shown, masked paths back to the real
files), and written only when its files still hold what its diff was made from: else the
finding is checked again (:class:`~memory_audit.fix.rematch.FreshFindings`) and asked
again, or dropped when an earlier fix resolved it. Before a fix that touches MEMORY.md,
the file is read again. The journal records the files before and after each write, so
every change can be restored; Ctrl-C is held while a fix is written, so each file is
either untouched or fully fixed. A write that fails (a read-only folder, a full disk) ends
that one fix with a message; a tree moved or swapped for a symlink meanwhile ends the
session, nothing written. A fix that cannot be made automatically is offered to the
user's editor.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sqlite3
import subprocess
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from memory_audit.fix import tree_access
from memory_audit.fix.actions import Action
from memory_audit.fix.console import Console, interrupts_deferred
from memory_audit.fix.edits import Edit, NeedsValue, StaleTarget
from memory_audit.fix.frontmatter_edit import CannotEdit
from memory_audit.fix.outcome import APPLIED, DEFERRED, RESOLVED, Outcome
from memory_audit.fix.rematch import FreshFindings
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.model.visible import visible
from memory_audit.secrets.boundary import Boundary
from memory_audit.tree.index_file import INDEX_NAME


class Applier:
    """Builds and writes the session's changes on the tree held open since it began.

    Given the console, the session's outcome (what was written or failed), its findings
    after a fix, ``names`` (masks a secret in a file or folder name in what a change
    says), ``real_paths`` (shown path -> real path) and ``record`` (the journal's
    recording of files before and after a write)."""

    def __init__(
        self,
        tree: Tree,
        console: Console,
        outcome: Outcome,
        fresh: FreshFindings,
        record: Callable[[list[str]], None],
        *,
        names: Boundary,
        real_paths: Mapping[str, str],
    ) -> None:
        self.tree = tree
        self.root = tree.path
        self.console = console
        self.outcome = outcome
        self.fresh = fresh
        self.record = record
        self.names = names
        self.real_paths = real_paths
        self.wrote_last = False  # whether the last write got as far as writing
        self._index_seen = self.read_index()

    def build_quietly(self, finding: Finding, action: Action) -> Edit | str:
        fix = finding.fix or {}
        try:
            return action.build(self.tree, fix, [d(fix) for _, d in action.questions])
        except (StaleTarget, NeedsValue, CannotEdit) as exc:
            return str(exc)
        except (OSError, UnicodeError) as exc:
            return type(exc).__name__

    def read_or_none(self, rel: str) -> bytes | None:
        try:
            return self.tree.read_if_present(rel)
        except (OSError, tree_access.NotInTree):
            return None

    def propose(self, finding: Finding, action: Action) -> Edit | Finding | str:
        """The change Apply makes, built before asking (nothing written)."""
        fix = finding.fix or {}
        if action.touches_index and self.read_index() != self._index_seen:
            return self.changed_meanwhile(finding, "MEMORY.md changed since the audit")
        answers = [default(fix) for _, default in action.questions]
        return self.build(finding, action, fix, answers)

    def build(
        self, finding: Finding, action: Action, fix: Mapping[str, Any], answers: list[str]
    ) -> Edit | Finding | str:
        try:
            real_answers = [self._real_text(answer) for answer in answers]
            return action.build(self.tree, self._real(fix), real_answers)
        except StaleTarget as exc:
            return self.changed_meanwhile(finding, str(exc))
        except NeedsValue as exc:
            self.console.say(f"  Not applied: {visible(str(exc))}.")
            return finding
        except CannotEdit as exc:
            self.console.say(f"  This fix cannot be made automatically: {exc}. Fix it by hand.")
            return self.offer_manual(finding)
        except (OSError, UnicodeError) as exc:
            return self.failed(finding, exc)

    def write(self, finding: Finding, change: Edit, recheck: bool = True) -> Finding | str:
        changed = change.changed_on_disk()
        if changed is not None:  # another session wrote it since the diff was shown
            return self.changed_meanwhile(finding, f"{changed} changed since the audit")
        touched = [c.after.rel for c in change.changes]
        try:
            self.record(touched)  # the journal holds what is about to change (or go)
        except (OSError, sqlite3.Error) as exc:
            if any(c.delete for c in change.changes):  # the journal is its only way back
                return self.failed(finding, exc)
        self.wrote_last = False
        try:
            with interrupts_deferred():
                change.apply()
                # Ctrl-C held during the write is raised when the block ends: the write is
                # done by then, and is recorded before the interrupt goes on.
                self._applied(change, touched)
        except StaleTarget as exc:
            return self.changed_meanwhile(finding, str(exc))
        except tree_access.Moved as exc:
            return self._tree_moved(exc)
        except (OSError, UnicodeError) as exc:
            return self.failed(finding, exc)
        if recheck:  # one fix: said, and the tree audited again (a batch does both at its end)
            self.console.say(f"  Applied: {visible(self.names.text(change.description))}")
            self.fresh.tree_changed()
        return APPLIED

    def _applied(self, change: Edit, touched: list[str]) -> None:
        self.wrote_last = True
        self.outcome.applied.append(self.names.text(change.description))
        with contextlib.suppress(OSError, sqlite3.Error):  # written: the watcher records it too
            self.record(touched + [c.rename_to for c in change.changes if c.rename_to])
        self._index_seen = self.read_index()

    def failed(self, finding: Finding, exc: Exception) -> str:
        """One fix that could not be made; the session goes on with the next."""
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        name = Path(exc.filename).name if isinstance(exc, OSError) and exc.filename else ""
        where = f" {name}" if name else f" {finding.path}"
        self.console.say(
            f"  Could not write{where}: {why}. The file is unchanged; "
            "this finding is left for later."
        )
        self.outcome.failed.append(f"{finding.path}: {why}")
        return DEFERRED

    def _tree_moved(self, exc: tree_access.Moved) -> str:
        """The tree's folder (or one above it) was moved or swapped for a symlink: what the
        session opened is no longer at its path, so nothing more is written."""
        self.console.say(f"  Refused: {visible(str(exc))}. Review stopped.")
        self.outcome.failed.append(str(exc))
        self.outcome.quit = True
        return DEFERRED

    def changed_meanwhile(self, finding: Finding, why: str) -> Finding | str:
        self.console.say(f"  {visible(why)}; checking this finding again.")
        self._index_seen = self.read_index()
        self.fresh.tree_changed()
        fresh = self.fresh.still_reported(finding)
        if fresh is None:
            self.console.say("  It is no longer reported: nothing to do.")
            return RESOLVED
        return fresh

    def offer_manual(self, finding: Finding) -> str:
        if self.console.choose("  Open it in your editor?", {"y": "yes", "n": "no"}) == "y":
            return self.edit_by_hand(finding)
        return DEFERRED

    def edit_by_hand(self, finding: Finding) -> str:
        path = self.root / self.real_paths.get(finding.path, finding.path)
        editor = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
        line = [f"+{finding.line}"] if finding.line else []
        try:
            subprocess.run([*editor, *line, str(path)], check=False)
        except OSError as exc:
            shown = self.root / finding.path
            self.console.say(
                f"  Could not start the editor ({exc.strerror}); edit {shown} yourself."
            )
        return DEFERRED

    def _real(self, fix: Mapping[str, Any]) -> dict[str, Any]:
        """The fix with every shown (masked) path of the tree back to the real one."""
        return {key: self._real_text(value) for key, value in fix.items()}

    def _real_text(self, value: Any) -> Any:
        """A shown (masked) path of the tree inside ``value`` back to the real one: a fix
        and an answer that took the shown default act on the real file."""
        if not isinstance(value, str):
            return value
        for shown in self._masked_paths:
            value = value.replace(shown, self.real_paths[shown])
        return value

    @cached_property
    def _masked_paths(self) -> list[str]:
        masked = (shown for shown, real in self.real_paths.items() if shown != real)
        return sorted(masked, key=len, reverse=True)

    def read_index(self) -> bytes | None:
        try:
            return self.tree.read_if_present(INDEX_NAME)
        except (OSError, tree_access.NotInTree):
            return None
