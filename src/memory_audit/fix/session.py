"""The propose-confirm-commit session (seed 000 §5): one finding, one decision, at a time.

Each finding with a concrete fix asks Apply / Skip / Edit / View detail / Quit;
a judgment finding asks skip / manual fix (``$EDITOR`` at the line) / capture
as TODO / quit. Applying shows the diff. Before a fix that touches MEMORY.md,
the file is read again: if someone changed it since the audit, the finding is
checked again and the question asked again. Ctrl-C is deferred while a fix is
being written, so every file is either untouched or fully fixed.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from memory_audit.checks import REGISTRY
from memory_audit.fix.actions import Action
from memory_audit.fix.edits import Edit, StaleTarget
from memory_audit.fix.frontmatter_edit import CannotEdit
from memory_audit.model.finding import Finding
from memory_audit.report import wording
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.index_file import INDEX_NAME

Recheck = Callable[[], list[Finding]]  # a fresh audit of the tree


@dataclass
class Outcome:
    applied: list[str] = field(default_factory=list)  # changelog lines
    skipped: int = 0
    deferred: int = 0
    dismissed: list[tuple[Finding, str]] = field(default_factory=list)
    todos: list[Finding] = field(default_factory=list)
    false_positives: list[Finding] = field(default_factory=list)
    quit: bool = False


class Console:
    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str, default: str = "") -> str:
        shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
        self.out.write(shown)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n").strip() or default

    def choose(self, prompt: str, choices: dict[str, str]) -> str:
        """A one-letter choice; the word or its first letter both work."""
        menu = " / ".join(
            f"[{key}]{word[1:]}" if word.lower().startswith(key) else f"{word} [{key}]"
            for key, word in choices.items()
        )
        while True:
            answer = self.ask(f"{prompt} {menu}").lower()
            for key, word in choices.items():
                if answer in (key, word.lower()):
                    return key
            self.say(f"  Please answer one of: {', '.join(choices)}")


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C while files are written; it takes effect right after."""
    pending: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: pending.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if pending:
            raise KeyboardInterrupt


class Session:
    def __init__(
        self,
        root: Path,
        console: Console,
        actions: dict[str, Action],
        scanner: Scanner,
        recheck: Recheck,
    ) -> None:
        self.root = root
        self.console = console
        self.actions = actions
        self.scanner = scanner
        self.recheck = recheck
        self.outcome = Outcome()
        self._index_seen = self._read_index()

    def run(self, findings: list[Finding]) -> Outcome:
        queue = list(findings)
        for number, finding in enumerate(queue, 1):
            if self.outcome.quit:
                self.outcome.deferred += 1
                continue
            try:
                self._decide(finding, f"[{number}/{len(queue)}]")
            except (KeyboardInterrupt, EOFError):
                self.console.say(
                    "\nStopped. Nothing half-written: each file is as it was or fully fixed."
                )
                self.outcome.quit = True
                self.outcome.deferred += 1
        return self.outcome

    # ---- one finding ----------------------------------------------------------------------

    def _decide(self, finding: Finding, counter: str) -> None:
        current: Finding | None = finding
        while current is not None:
            self._show(current, counter)
            action = self.actions.get(str((current.fix or {}).get("action", "")))
            if action is not None:
                current = self._concrete(current, action)
            else:
                current = self._judgment(current)

    def _show(self, finding: Finding, counter: str) -> None:
        self.console.say()
        self.console.say(
            f"{counter} {REGISTRY[finding.dimension].DIMENSION.title}: {wording.location(finding)}"
        )
        self.console.say(f"  {finding.message}")
        if finding.suggestion:
            self.console.say(f"  Proposed: {finding.suggestion}")

    def _concrete(self, finding: Finding, action: Action) -> Finding | None:
        choices = {"a": "Apply", "s": "Skip", "e": "Edit", "v": "View detail", "q": "Quit"}
        if finding.dimension == "secrets":
            choices = {
                "a": "Apply (redact)",
                "f": "False positive",
                "s": "Skip",
                "v": "View detail",
                "q": "Quit",
            }
        key = self.console.choose("Action?", choices)
        if key == "v":
            self._view(finding)
            return finding
        if key in ("a", "e"):
            return self._apply(finding, action, edit=key == "e")
        if key == "f":
            self.outcome.false_positives.append(finding)
            self.console.say("  Recorded as a false positive; it will not be reported again.")
            self.outcome.skipped += 1
            return None
        if key == "s":
            self._skip(finding)
            return None
        self._quit()
        return None

    def _judgment(self, finding: Finding) -> Finding | None:
        self.console.say("  (user judgment required)")
        choices = {
            "s": "skip",
            "m": "manual fix",
            "t": "capture as TODO",
            "v": "view detail",
            "q": "quit",
        }
        key = self.console.choose("Action?", choices)
        if key == "v":
            self._view(finding)
            return finding
        if key == "m":
            self._edit_by_hand(finding)
            self.outcome.deferred += 1
        elif key == "t":
            self.outcome.todos.append(finding)
            self.outcome.deferred += 1
            self.console.say("  Captured as a TODO.")
        elif key == "s":
            self._skip(finding)
        else:
            self._quit()
        return None

    def _quit(self) -> None:
        self.outcome.quit = True
        self.outcome.deferred += 1

    def _skip(self, finding: Finding) -> None:
        self.outcome.skipped += 1
        if (
            self.console.choose(
                "  Remember this dismissal (not reported again)?", {"y": "yes", "n": "no"}
            )
            == "y"
        ):
            reason = self.console.ask("  Reason (one line)", "dismissed in review")
            self.outcome.dismissed.append((finding, reason))

    # ---- applying --------------------------------------------------------------------------

    def _apply(self, finding: Finding, action: Action, *, edit: bool) -> Finding | None:
        fix = finding.fix or {}
        if action.touches_index and self._read_index() != self._index_seen:
            return self._changed_meanwhile(finding, "MEMORY.md changed since the audit")
        answers = [q_default(fix) for _, q_default in action.questions]
        if edit:
            answers = [
                self.console.ask(f"  {question}", default)
                for (question, _), default in zip(action.questions, answers, strict=True)
            ]
        try:
            change = action.build(self.root, fix, answers)
        except StaleTarget as exc:
            return self._changed_meanwhile(finding, str(exc))
        except CannotEdit as exc:
            self.console.say(f"  This fix cannot be made automatically: {exc}. Fix it by hand.")
            self._offer_manual(finding)
            return None
        return self._confirm(finding, change, asked=edit)

    def _confirm(self, finding: Finding, change: Edit, *, asked: bool) -> Finding | None:
        self.console.say(self._redacted_diff(change).rstrip())
        if asked and self.console.choose("  Apply this change?", {"y": "yes", "n": "no"}) == "n":
            return finding
        try:
            with interrupts_deferred():
                change.apply()
        except StaleTarget as exc:
            return self._changed_meanwhile(finding, str(exc))
        self._index_seen = self._read_index()
        self.outcome.applied.append(change.description)
        self.console.say(f"  Applied: {change.description}")
        return None

    def _changed_meanwhile(self, finding: Finding, why: str) -> Finding | None:
        self.console.say(f"  {why}; checking this finding again.")
        self._index_seen = self._read_index()
        fresh = next((f for f in self.recheck() if f.fingerprint == finding.fingerprint), None)
        if fresh is None:
            self.console.say("  It is no longer reported: nothing to do.")
            self.outcome.skipped += 1
        return fresh

    def _offer_manual(self, finding: Finding) -> None:
        if self.console.choose("  Open it in your editor?", {"y": "yes", "n": "no"}) == "y":
            self._edit_by_hand(finding)
        self.outcome.deferred += 1

    def _edit_by_hand(self, finding: Finding) -> None:
        path = self.root / finding.path
        editor = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
        line = [f"+{finding.line}"] if finding.line else []
        try:
            subprocess.run([*editor, *line, str(path)], check=False)
        except OSError as exc:
            self.console.say(
                f"  Could not start the editor ({exc.strerror}); edit {path} yourself."
            )

    def _view(self, finding: Finding) -> None:
        try:
            lines = (
                (self.root / finding.path)
                .read_text(encoding="utf-8", errors="replace")
                .splitlines()
            )
        except OSError as exc:
            self.console.say(f"  (cannot read {finding.path}: {exc.strerror})")
            return
        # Never echo a secret, not even back to its owner's terminal: the boundary of the
        # whole file, so a private key's body lines are masked too.
        boundary = Boundary.for_text(self.scanner, "\n".join(lines))
        middle = (finding.line or 1) - 1
        for number in range(max(0, middle - 6), min(len(lines), middle + 7)):
            mark = ">" if number == middle else " "
            self.console.say(f"  {mark}{number + 1:5} | {boundary.text(lines[number])}")

    def _redacted_diff(self, change: Edit) -> str:
        texts = [c.after.text for c in change.changes]
        texts += [c.before.text for c in change.changes if c.before is not None]
        return Boundary.for_text(self.scanner, "\n\n".join(texts)).text(change.diff(self.root))

    def _read_index(self) -> bytes | None:
        try:
            return (self.root / INDEX_NAME).read_bytes()
        except OSError:
            return None
