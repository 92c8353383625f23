"""The propose-confirm-commit session: one finding, one decision, at a time.

What the user sees: README, "Fixing: one decision at a time".

Each finding with a concrete fix first states the one change Apply makes and
shows its diff, then asks 1 Apply / 2 Skip / 3 Edit / 4 View detail (the
numbers or the letters), q to quit. Edit is the alternative (another value,
or for a dead index link, another path instead of removing the line). A
judgment finding asks skip / manual fix (``$EDITOR`` at the line) / capture as
TODO. Before each finding the tree is checked again when a fix was applied
since: a finding an earlier fix resolved is dropped, not asked. Before a fix
that touches MEMORY.md, the file is read again: if someone changed it since the
audit, the finding is checked again and the question asked again. A write that
fails (a read-only folder, a full disk) ends that one fix with a message; the
session goes on. Every read and write goes through the tree held open since the
session began (fix/tree_access.py): a tree whose folder, or a folder above it, was
moved or swapped for a symlink meanwhile is refused and the session stops, nothing
written. Ctrl-C is deferred while a fix is being written, so every file
is either untouched or fully fixed; at a question, Ctrl-C or a closed terminal
ends the session (``interrupted``) and the caller records what was done.

A fix whose value only the user knows (a missing required field) asks for it: Apply never
writes a blank value. Several findings of one code with the same kind of fix can be
decided at once ("apply to all N", fix/batch.py). A memory that no longer earns its place
offers demote / trim / archive / delete (fix/dead_weight.py); a body to recompress is
left to the /memory-audit skill, and said so. A finding an earlier fix seems to have
resolved is matched again by what it says before it is counted as resolved.
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

from memory_audit.fix import batch, dead_weight, move_dialog, tree_access
from memory_audit.fix.actions import Action
from memory_audit.fix.console import Console, Quit, interrupts_deferred
from memory_audit.fix.edits import Edit, NeedsValue, StaleTarget
from memory_audit.fix.frontmatter_edit import CannotEdit
from memory_audit.fix.outcome import APPLIED, DEFERRED, RESOLVED, SKIPPED, Outcome
from memory_audit.fix.rematch import FreshFindings, Recheck
from memory_audit.fix.screen import Preview, ReviewScreen
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.model.visible import visible
from memory_audit.report import wording
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.index_file import INDEX_NAME

CONCRETE = {"a": "Apply", "s": "Skip", "e": "Edit", "v": "View detail"}
SECRET = {"a": "Apply (redact)", "s": "Skip", "f": "False positive", "v": "View detail"}
JUDGMENT = {"s": "skip", "m": "manual fix", "t": "capture as TODO", "v": "view detail"}
QUIT = {"q": "quit"}
# A memory that no longer earns its place (bloat): one decision among these.
DEAD_WEIGHT = frozenset(
    {"always-on-stale", "finished-work", "stale-as-of", "encoded-in-rule", "warning-dead-target"}
)
DEAD = {
    "d": "demote",
    "t": "trim",
    "a": "archive",
    "x": "delete",
    "s": "skip",
    "v": "view detail",
}
# A body to rewrite (bloat): Claude's job, in a session with the /memory-audit skill.
RECOMPRESS = frozenset({"narrative-body", "why-restates-rule", "long-file"})
ALL = "all"  # "apply to all N": one decision for every finding of this code in the tree
MOVE_STORE = "move-store"  # an orphaned store: its own dialog, steps in fix/store_move.py
# Edit's alternative when the proposal itself takes no answer: a dead index link can
# point at another file instead of being removed.
EDIT_INSTEAD: dict[str, tuple[str, Callable[[Mapping[str, Any]], dict[str, Any]]]] = {
    "remove-index-line": (
        "update-index-path",
        lambda fix: {"old": fix["target"], "new": fix["target"], "line": fix["line"]},
    ),
}


class Session:
    def __init__(
        self,
        tree: Tree,
        console: Console,
        actions: dict[str, Action],
        scanner: Scanner,
        recheck: Recheck,
        *,
        names: Boundary | None = None,
        real_paths: Mapping[str, str] | None = None,
    ) -> None:
        self.tree = tree  # held open from the start: every read and write goes through it
        self.root = tree.path
        self.console = console
        self.actions = actions
        self.scanner = scanner
        # Findings show a secret in a file or folder name masked; a fix acts on the real
        # file (real_paths: shown path -> path), and what it says is masked again (names).
        self.names = names or Boundary(())
        self.real_paths = real_paths or {}
        self.outcome = Outcome()
        self.screen = ReviewScreen(console, tree, scanner, self.names, self.real_paths)
        self._index_seen = self._read_index()
        self.fresh = FreshFindings(recheck)  # the tree's findings after a fix
        self._pending: list[Finding] = []  # the findings not asked yet
        self.todo_file: Path | None = None  # where captured TODOs go (said at capture)
        self._handled: dict[str, str] = {}  # queued findings decided with an earlier one
        self.wrote_last = False  # whether the last _write got as far as writing
        # Records files in the journal (before and after each fix): every change restorable.
        self.journal: Callable[[list[str]], None] | None = None
        # The findings a change would make (fix/preview.py): said before the question.
        self.preview: Preview | None = None

    def run(self, findings: list[Finding]) -> Outcome:
        queue = list(findings)
        for number, finding in enumerate(queue, 1):
            self._pending = queue[number:]
            if finding.fingerprint in self._handled:  # decided with others ("apply to all")
                self._count(self._handled.pop(finding.fingerprint))
                continue
            if self.outcome.quit:
                self._count(DEFERRED)
                continue
            if self.outcome.moved_to is not None:  # its findings went with the store
                self._count(RESOLVED)
                continue
            try:
                self._count(self._next(finding, f"[{number}/{len(queue)}]"))
            except Quit:  # `q` at a yes/no question: as the menu's quit
                self._count(self._quit())
            except (KeyboardInterrupt, EOFError):
                self.console.say(
                    "\nStopped. Nothing half-written: each file is as it was or fully fixed."
                )
                self.outcome.quit = self.outcome.interrupted = True
                self._count(self._handled.pop(finding.fingerprint, DEFERRED))
        return self.outcome

    def _count(self, result: str) -> None:
        self.outcome.counts[result] += 1

    def _next(self, finding: Finding, counter: str) -> str:
        current = self._still_reported(finding)
        if current is None:
            return RESOLVED
        return self._decide(current, counter)

    def _still_reported(self, finding: Finding) -> Finding | None:
        return self.fresh.still_reported(finding, {f.fingerprint for f in self._pending})

    def _tree_changed(self) -> None:
        self.fresh.tree_changed()

    # ---- one finding ----------------------------------------------------------------------

    def _decide(self, finding: Finding, counter: str) -> str:
        current: Finding | None = finding
        while current is not None:
            self.screen.heading(current, counter)
            name = str((current.fix or {}).get("action", ""))
            action = self.actions.get(name)
            if name == MOVE_STORE:
                result = self._move_store(current)
            elif current.dimension == "bloat" and current.code in DEAD_WEIGHT:
                result = self._dead_weight(current)
            else:
                result = self._concrete(current, action) if action else self._judgment(current)
            if isinstance(result, str):
                return result
            current = result
        return SKIPPED  # pragma: no cover - the loop only ends through a return

    def _concrete(self, finding: Finding, action: Action) -> Finding | str:
        fix = finding.fix or {}
        defaults = [default(fix) for _, default in action.questions]
        if defaults and not defaults[0].strip() and action.required(fix):
            return self._asks_value(finding, action)
        proposal = self._propose(finding, action)
        if not isinstance(proposal, Edit):
            return proposal
        shown = self.names.text(proposal.description)
        self.console.say(f"  Apply makes one change: {visible(shown)}")
        self.console.say(self.screen.redacted_diff(proposal).rstrip())
        self.screen.warn_new(proposal, self.preview)
        choices = SECRET if finding.dimension == "secrets" else CONCRETE
        group = self._same_code(finding)
        every = {ALL: f"apply to all {len(group)}"} if len(group) > 1 else {}
        key = self.console.choose("Action?", {**choices, **every, **QUIT}, numbered=True)
        handlers: dict[str, Callable[[], Finding | str]] = {
            ALL: lambda: self._apply_all(finding, action, group),
            "v": lambda: self._view(finding),
            "a": lambda: self._write(finding, proposal),
            "e": lambda: self._edit(finding, action),
            "f": lambda: self._false_positive(finding),
            "s": lambda: self._skip(finding),
            "q": self._quit,
        }
        return handlers[key]()

    # ---- apply to all --------------------------------------------------------------------

    def _same_code(self, finding: Finding) -> list[Finding]:
        """This finding and every queued one of its code with the same kind of fix, as the
        tree has them now (a secret is decided one by one)."""
        if finding.dimension == "secrets":
            return [finding]
        name = (finding.fix or {}).get("action")
        group = [finding]
        for other in self._pending:
            current = self.fresh.current(other)
            if (
                current is not None
                and other.fingerprint not in self._handled
                and (current.dimension, current.code) == (finding.dimension, finding.code)
                and (current.fix or {}).get("action") == name
            ):
                group.append(current)
        return group

    def _apply_all(self, finding: Finding, action: Action, group: list[Finding]) -> Finding | str:
        """Every target listed, the combined diff paged, one question, then each applied
        with a single fix's guards and its result said (fix/batch.py)."""
        listed: list[tuple[Finding, Edit]] = []
        for target in group:
            built = self._build_quietly(target, action)
            if isinstance(built, Edit):
                listed.append((target, built))
            else:
                self.console.say(f"  Left out: {wording.location(target)}: {visible(built)}")
        self.console.say(f"  Apply to all: {len(listed)} change(s) for `{finding.code}`:")
        for number, (target, edit) in enumerate(listed, 1):
            self.console.say(
                f"  {number:4}. {wording.location(target)}: {visible(edit.description)}"
            )
        self.screen.paged("\n".join(self.screen.redacted_diff(edit).rstrip() for _, edit in listed))
        if not listed or (
            self.console.choose(f"  Apply all {len(listed)}?", {"y": "yes", "n": "no"}) == "n"
        ):
            return finding
        ledger = batch.Ledger()
        for number, (target, edit) in enumerate(listed, 1):
            try:
                result, said = self._apply_listed(target, action, edit, ledger)
            except KeyboardInterrupt:  # what was written is counted; the rest is untouched
                if self.wrote_last:
                    self._handled[target.fingerprint] = APPLIED
                raise
            self._handled[target.fingerprint] = result
            self.console.say(f"  {number}/{len(listed)} {wording.location(target)}: {said}")
            if self.outcome.quit:  # the tree moved: nothing more is written
                break
        self._tree_changed()
        return self._handled.pop(finding.fingerprint, DEFERRED)

    def _build_quietly(self, finding: Finding, action: Action) -> Edit | str:
        fix = finding.fix or {}
        try:
            return action.build(self.tree, fix, [d(fix) for _, d in action.questions])
        except (StaleTarget, NeedsValue, CannotEdit) as exc:
            return str(exc)
        except (OSError, UnicodeError) as exc:
            return type(exc).__name__

    def _apply_listed(
        self, finding: Finding, action: Action, listed: Edit, ledger: batch.Ledger
    ) -> tuple[str, str]:
        """One target of the batch: built again from the files as they are, written only
        when its files hold what the listing read (or this batch wrote) and its change is
        still the one listed."""
        moved = batch.moved_on(listed, ledger, self._read_or_none)
        if moved is not None:
            return DEFERRED, f"skipped: {visible(moved)} changed on disk since the listing"
        rebuilt = self._build_quietly(finding, action)
        if not isinstance(rebuilt, Edit):
            return DEFERRED, f"skipped: {visible(rebuilt)}"
        if batch.delta(rebuilt) != batch.delta(listed):
            return DEFERRED, "skipped: its change is no longer the one listed"
        result = self._write(finding, rebuilt, recheck=False)
        if result != APPLIED:
            return DEFERRED, "not applied (see above)"
        ledger.wrote(rebuilt)
        return APPLIED, f"applied: {visible(rebuilt.description)}"

    def _read_or_none(self, rel: str) -> bytes | None:
        try:
            return self.tree.read_if_present(rel)
        except (OSError, tree_access.NotInTree):
            return None

    def _dead_weight(self, finding: Finding) -> Finding | str:
        """Demote (when it is always loaded), trim, archive or delete: each shown as a diff
        and written on one yes (fix/dead_weight.py)."""
        if finding.suggestion:
            self.console.say(f"  Suggestion: {visible(finding.suggestion)}")
        demotable = str((finding.fix or {}).get("action")) == "demote-relevance"
        choices = {k: v for k, v in DEAD.items() if k != "d" or demotable}
        key = self.console.choose("Action?", {**choices, **QUIT}, numbered=True)
        rel = finding.path
        handlers: dict[str, Callable[[], Finding | str]] = {
            "d": lambda: self._edit(finding, self.actions["demote-relevance"]),
            "t": lambda: self._trim(finding),
            "a": lambda: self._confirmed(
                finding, lambda: dead_weight.archive(self.tree, rel, self._memory_files())
            ),
            "x": lambda: self._delete(finding),
            "v": lambda: self._view(finding),
            "s": lambda: self._skip(finding),
            "q": self._quit,
        }
        return handlers[key]()

    def _trim(self, finding: Finding) -> Finding | str:
        try:
            body = dead_weight.numbered_body(self.tree, finding.path)
        except (StaleTarget, OSError, UnicodeError) as exc:
            return self._changed_meanwhile(finding, str(exc))
        self.screen.numbered(body)
        picked = self.console.ask("  Lines to remove (like 7-12, 15; Enter: none)")
        if picked.strip().lower() in ("", "q", "quit"):
            return finding  # back to the question: nothing picked
        return self._confirmed(finding, lambda: dead_weight.trim(self.tree, finding.path, picked))

    def _delete(self, finding: Finding) -> Finding | str:
        where = self.root / finding.path
        self.console.say(
            f"  Delete removes {visible(finding.path)} and its MEMORY.md line. The journal keeps "
            f"it: `memory-audit restore {visible(str(where))}` brings it back."
        )
        return self._confirmed(
            finding, lambda: dead_weight.delete(self.tree, finding.path, self._memory_files())
        )

    def _confirmed(self, finding: Finding, build: Callable[[], Edit]) -> Finding | str:
        """One change shown as its diff, written on yes."""
        try:
            change = build()
        except StaleTarget as exc:
            return self._changed_meanwhile(finding, str(exc))
        except NeedsValue as exc:
            self.console.say(f"  Not applied: {visible(str(exc))}.")
            return finding
        except (OSError, UnicodeError) as exc:
            return self._failed(finding, exc)
        self.console.say(f"  {visible(change.description)}:")
        self.console.say(self.screen.redacted_diff(change).rstrip())
        self.screen.warn_new(change, self.preview)
        if self.console.choose("  Apply this change?", {"y": "yes", "n": "no"}) == "n":
            return finding
        return self._write(finding, change)

    def _memory_files(self) -> list[str]:
        """The tree's Markdown files (their links may need to follow a moved file)."""
        found: list[str] = []
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            rel = os.path.relpath(folder, self.root)
            for name in sorted(files):
                if name.endswith(".md"):
                    found.append(name if rel == "." else f"{rel}/{name}".replace(os.sep, "/"))
        return found

    def _asks_value(self, finding: Finding, action: Action) -> Finding | str:
        """A fix whose value only the user knows: Apply never writes it blank, it asks
        for it, shows the change and asks once more (as Edit does)."""
        field_ = _field_of(finding.fix or {})
        self.console.say(f"  Apply asks for the value ({visible(field_)}; never written empty).")
        key = self.console.choose("Action?", {**CONCRETE, **QUIT}, numbered=True)
        handlers: dict[str, Callable[[], Finding | str]] = {
            "v": lambda: self._view(finding),
            "a": lambda: self._edit(finding, action),
            "e": lambda: self._edit(finding, action),
            "s": lambda: self._skip(finding),
            "q": self._quit,
        }
        return handlers[key]()

    def _move_store(self, finding: Finding) -> Finding | str:
        """An orphaned store: into which store, then copy, merge the index, trash; each
        step asked (fix/move_dialog.py)."""
        if finding.suggestion:
            self.console.say(f"  Suggestion: {visible(finding.suggestion)}")
        choice = move_dialog.pick(self.console, self.root, finding)
        handlers: dict[str, Callable[[], Finding | str]] = {
            "v": lambda: self._view(finding),
            "s": lambda: self._skip(finding),
            "q": self._quit,
        }
        if choice in handlers:
            return handlers[choice]()
        moved = move_dialog.move(self.console, self.tree, choice, self.screen.redacted_diff)
        if moved.failed:
            self.outcome.failed.append(f"{finding.path}: {moved.failed}")
        if not moved.changes:
            if moved.interrupted:
                raise KeyboardInterrupt
            return DEFERRED if moved.failed else SKIPPED
        self.outcome.applied += moved.changes
        if moved.new_root is not None:
            self.outcome.elsewhere.setdefault(moved.new_root, []).extend(moved.changes)
        if moved.trashed is not None:
            self.outcome.moved_to = moved.new_root
        elif not moved.interrupted:
            self._tree_changed()
        if moved.interrupted:  # the steps done are recorded; the move itself is deferred
            raise KeyboardInterrupt
        return APPLIED

    def _false_positive(self, finding: Finding) -> str:
        self.outcome.false_positives.append(finding)
        self.console.say("  Recorded as a false positive; it will not be reported again.")
        return SKIPPED

    def _propose(self, finding: Finding, action: Action) -> Edit | Finding | str:
        """The change Apply makes, built before asking (nothing written)."""
        fix = finding.fix or {}
        if action.touches_index and self._read_index() != self._index_seen:
            return self._changed_meanwhile(finding, "MEMORY.md changed since the audit")
        answers = [default(fix) for _, default in action.questions]
        return self._build(finding, action, fix, answers)

    def _build(
        self, finding: Finding, action: Action, fix: Mapping[str, Any], answers: list[str]
    ) -> Edit | Finding | str:
        try:
            real_answers = [self._real_text(answer) for answer in answers]
            return action.build(self.tree, self._real(fix), real_answers)
        except StaleTarget as exc:
            return self._changed_meanwhile(finding, str(exc))
        except NeedsValue as exc:
            self.console.say(f"  Not applied: {visible(str(exc))}.")
            return finding
        except CannotEdit as exc:
            self.console.say(f"  This fix cannot be made automatically: {exc}. Fix it by hand.")
            return self._offer_manual(finding)
        except (OSError, UnicodeError) as exc:
            return self._failed(finding, exc)

    def _judgment(self, finding: Finding) -> Finding | str:
        if finding.suggestion:
            self.console.say(f"  Suggestion: {visible(finding.suggestion)}")
        if finding.dimension == "bloat" and finding.code in RECOMPRESS:
            self.console.say(
                "  Recompress is Claude's job: in a Claude Code session run /memory-audit and "
                f"ask it to recompress {visible(finding.path)}. It proposes the new body, shows "
                "before and after, writes only on your yes, and audits the file again."
            )
        self.console.say("  (user judgment required)")
        key = self.console.choose("Action?", {**JUDGMENT, **QUIT}, numbered=True)
        handlers: dict[str, Callable[[], Finding | str]] = {
            "v": lambda: self._view(finding),
            "m": lambda: self._edit_by_hand(finding),
            "t": lambda: self._todo(finding),
            "s": lambda: self._skip(finding),
            "q": self._quit,
        }
        return handlers[key]()

    def _todo(self, finding: Finding) -> str:
        self.outcome.todos.append(finding)
        where = f" in {self.todo_file}" if self.todo_file else ""
        self.console.say(f"  Captured as a TODO{where} (written when the review ends).")
        return DEFERRED

    def _quit(self) -> str:
        self.outcome.quit = True
        return DEFERRED

    def _skip(self, finding: Finding) -> str:
        if (
            self.console.choose(
                "  Remember this dismissal (not reported again)?", {"y": "yes", "n": "no"}
            )
            == "y"
        ):
            reason = self.console.ask("  Reason (one line)", "dismissed in review")
            self.outcome.dismissed.append((finding, reason))
        return SKIPPED

    # ---- applying --------------------------------------------------------------------------

    def _edit(self, finding: Finding, action: Action) -> Finding | str:
        """Edit: the proposal with other answers, or its alternative (EDIT_INSTEAD)."""
        fix: Mapping[str, Any] = finding.fix or {}
        if not action.questions and str(fix.get("action")) in EDIT_INSTEAD:
            name, adapt = EDIT_INSTEAD[str(fix.get("action"))]
            action, fix = self.actions[name], adapt(fix)
        if not action.questions:
            self.console.say("  This proposal has nothing to edit; Apply it or Skip it.")
            return finding
        answers = [
            self.console.ask(f"  {question}", default(fix))
            for question, default in action.questions
        ]
        change = self._build(finding, action, fix, answers)
        if not isinstance(change, Edit):
            return change
        self.console.say(self.screen.redacted_diff(change).rstrip())
        self.screen.warn_new(change, self.preview)
        if self.console.choose("  Apply this change?", {"y": "yes", "n": "no"}) == "n":
            return finding
        return self._write(finding, change)

    def _write(self, finding: Finding, change: Edit, recheck: bool = True) -> Finding | str:
        changed = change.changed_on_disk()
        if changed is not None:  # another session wrote it since the diff was shown
            return self._changed_meanwhile(finding, f"{changed} changed since the audit")
        touched = [c.after.rel for c in change.changes]
        try:
            self._record(touched)  # the journal holds what is about to change (or go)
        except (OSError, sqlite3.Error) as exc:
            if any(c.delete for c in change.changes):  # the journal is its only way back
                return self._failed(finding, exc)
        self.wrote_last = False
        try:
            with interrupts_deferred():
                change.apply()
                # Ctrl-C held during the write is raised when the block ends: the write is
                # done by then, and is recorded before the interrupt goes on.
                self._applied(change, touched)
        except StaleTarget as exc:
            return self._changed_meanwhile(finding, str(exc))
        except tree_access.Moved as exc:
            return self._tree_moved(exc)
        except (OSError, UnicodeError) as exc:
            return self._failed(finding, exc)
        if recheck:  # one fix: said, and the tree audited again (a batch does both at its end)
            self.console.say(f"  Applied: {visible(self.names.text(change.description))}")
            self._tree_changed()
        return APPLIED

    def _applied(self, change: Edit, touched: list[str]) -> None:
        self.wrote_last = True
        self.outcome.applied.append(self.names.text(change.description))
        with contextlib.suppress(OSError, sqlite3.Error):  # written: the watcher records it too
            self._record(touched + [c.rename_to for c in change.changes if c.rename_to])
        self._index_seen = self._read_index()

    def _record(self, paths: list[str]) -> None:
        if self.journal is not None:
            self.journal(paths)

    def _failed(self, finding: Finding, exc: Exception) -> str:
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

    def _changed_meanwhile(self, finding: Finding, why: str) -> Finding | str:
        self.console.say(f"  {visible(why)}; checking this finding again.")
        self._index_seen = self._read_index()
        self._tree_changed()
        fresh = self._still_reported(finding)
        if fresh is None:
            self.console.say("  It is no longer reported: nothing to do.")
            return RESOLVED
        return fresh

    def _offer_manual(self, finding: Finding) -> str:
        if self.console.choose("  Open it in your editor?", {"y": "yes", "n": "no"}) == "y":
            return self._edit_by_hand(finding)
        return DEFERRED

    def _edit_by_hand(self, finding: Finding) -> str:
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

    def _view(self, finding: Finding) -> Finding:
        """The lines around the finding; then the same question again."""
        self.screen.view(finding)
        return finding

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

    def _read_index(self) -> bytes | None:
        try:
            return self.tree.read_if_present(INDEX_NAME)
        except (OSError, tree_access.NotInTree):
            return None


def _field_of(fix: Mapping[str, Any]) -> str:
    field_ = fix.get("field") or ("relevance" if fix.get("action") == "demote-relevance" else "")
    return f"`{field_}` is required" if field_ else "required"
