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

This module is the decision loop and its menus; the parts it owns are each a module:
what it shows (fix/screen.py), building and writing one change with its guards
(fix/applying.py), the findings matched again after a fix (fix/rematch.py), "apply to
all N" (fix/apply_all.py), the dialogs of a memory past its use (fix/dead_weight_dialog.py)
and of an orphaned store (fix/move_dialog.py), and what the session did (fix/outcome.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from memory_audit.fix import move_dialog
from memory_audit.fix.actions import Action
from memory_audit.fix.apply_all import ApplyAll
from memory_audit.fix.applying import Applier
from memory_audit.fix.console import Console, Quit
from memory_audit.fix.dead_weight_dialog import DeadWeightDialog
from memory_audit.fix.edits import Edit
from memory_audit.fix.outcome import APPLIED, DEFERRED, RESOLVED, SKIPPED, Outcome
from memory_audit.fix.rematch import FreshFindings, Recheck
from memory_audit.fix.screen import Preview, ReviewScreen
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.model.visible import visible
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.scanner import Scanner

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
    """One review of one tree: :meth:`run` asks each finding in turn and returns what was
    done. ``recheck`` audits the tree again after a fix; ``journal`` and ``preview``, set
    by the caller, record files before and after a write and say what a change would
    find."""

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
        self.fresh = FreshFindings(recheck)  # the tree's findings after a fix
        self.applier = Applier(
            tree,
            console,
            self.outcome,
            self.fresh,
            self._record,
            names=self.names,
            real_paths=self.real_paths,
        )
        self.todo_file: Path | None = None  # where captured TODOs go (said at capture)
        self.dead_weight = DeadWeightDialog(console, self.screen, self.applier)
        self.apply_all = ApplyAll(console, self.screen, self.applier, self.fresh, self.outcome)
        # Records files in the journal (before and after each fix): every change restorable.
        self.journal: Callable[[list[str]], None] | None = None

    @property
    def preview(self) -> Preview | None:
        """The findings a change would make (fix/preview.py): said before the question."""
        return self.screen.preview

    @preview.setter
    def preview(self, preview: Preview | None) -> None:
        self.screen.preview = preview

    def run(self, findings: list[Finding]) -> Outcome:
        queue = list(findings)
        handled = self.apply_all.handled  # decided with others ("apply to all")
        for number, finding in enumerate(queue, 1):
            self.fresh.pending = queue[number:]
            if finding.fingerprint in handled:
                self._count(handled.pop(finding.fingerprint))
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
                self._count(handled.pop(finding.fingerprint, DEFERRED))
        return self.outcome

    def _count(self, result: str) -> None:
        self.outcome.counts[result] += 1

    def _next(self, finding: Finding, counter: str) -> str:
        current = self.fresh.still_reported(finding)
        if current is None:
            return RESOLVED
        return self._decide(current, counter)

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
        proposal = self.applier.propose(finding, action)
        if not isinstance(proposal, Edit):
            return proposal
        shown = self.names.text(proposal.description)
        self.console.say(f"  Apply makes one change: {visible(shown)}")
        self.console.say(self.screen.redacted_diff(proposal).rstrip())
        self.screen.warn_new(proposal)
        choices = SECRET if finding.dimension == "secrets" else CONCRETE
        group = self.apply_all.same_code(finding)
        every = {ALL: f"apply to all {len(group)}"} if len(group) > 1 else {}
        key = self.console.choose("Action?", {**choices, **every, **QUIT}, numbered=True)
        handlers: dict[str, Callable[[], Finding | str]] = {
            ALL: lambda: self.apply_all.run(finding, action, group),
            "v": lambda: self._view(finding),
            "a": lambda: self.applier.write(finding, proposal),
            "e": lambda: self._edit(finding, action),
            "f": lambda: self._false_positive(finding),
            "s": lambda: self._skip(finding),
            "q": self._quit,
        }
        return handlers[key]()

    def _dead_weight(self, finding: Finding) -> Finding | str:
        """Demote (when it is always loaded), trim, archive or delete: each shown as a diff
        and written on one yes (fix/dead_weight.py)."""
        if finding.suggestion:
            self.console.say(f"  Suggestion: {visible(finding.suggestion)}")
        demotable = str((finding.fix or {}).get("action")) == "demote-relevance"
        choices = {k: v for k, v in DEAD.items() if k != "d" or demotable}
        key = self.console.choose("Action?", {**choices, **QUIT}, numbered=True)
        handlers: dict[str, Callable[[], Finding | str]] = {
            "d": lambda: self._edit(finding, self.actions["demote-relevance"]),
            "t": lambda: self.dead_weight.trim(finding),
            "a": lambda: self.dead_weight.archive(finding),
            "x": lambda: self.dead_weight.delete(finding),
            "v": lambda: self._view(finding),
            "s": lambda: self._skip(finding),
            "q": self._quit,
        }
        return handlers[key]()

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
            self.fresh.tree_changed()
        if moved.interrupted:  # the steps done are recorded; the move itself is deferred
            raise KeyboardInterrupt
        return APPLIED

    def _false_positive(self, finding: Finding) -> str:
        self.outcome.false_positives.append(finding)
        self.console.say("  Recorded as a false positive; it will not be reported again.")
        return SKIPPED

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
            "m": lambda: self.applier.edit_by_hand(finding),
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
        change = self.applier.build(finding, action, fix, answers)
        if not isinstance(change, Edit):
            return change
        self.console.say(self.screen.redacted_diff(change).rstrip())
        self.screen.warn_new(change)
        if self.console.choose("  Apply this change?", {"y": "yes", "n": "no"}) == "n":
            return finding
        return self.applier.write(finding, change)

    def _record(self, paths: list[str]) -> None:
        if self.journal is not None:
            self.journal(paths)

    def _view(self, finding: Finding) -> Finding:
        """The lines around the finding; then the same question again."""
        self.screen.view(finding)
        return finding


def _field_of(fix: Mapping[str, Any]) -> str:
    field_ = fix.get("field") or ("relevance" if fix.get("action") == "demote-relevance" else "")
    return f"`{field_}` is required" if field_ else "required"
