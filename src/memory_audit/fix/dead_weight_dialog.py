"""The dialog of a memory that no longer earns its place (``bloat``): trim some of its
lines, archive it or delete it, each change built by :mod:`memory_audit.fix.dead_weight`,
shown as its diff and written on one yes (demote is the session's Edit)."""

from __future__ import annotations

import os
from collections.abc import Callable

from memory_audit.fix import dead_weight
from memory_audit.fix.applying import Applier
from memory_audit.fix.console import Console
from memory_audit.fix.edits import Edit, NeedsValue, StaleTarget
from memory_audit.fix.screen import ReviewScreen
from memory_audit.model.finding import Finding
from memory_audit.model.visible import visible


class DeadWeightDialog:
    def __init__(self, console: Console, screen: ReviewScreen, applier: Applier) -> None:
        self.console = console
        self.screen = screen
        self.applier = applier
        self.tree = applier.tree
        self.root = applier.root

    def archive(self, finding: Finding) -> Finding | str:
        rel = finding.path
        return self.confirmed(
            finding, lambda: dead_weight.archive(self.tree, rel, self._memory_files())
        )

    def trim(self, finding: Finding) -> Finding | str:
        try:
            body = dead_weight.numbered_body(self.tree, finding.path)
        except (StaleTarget, OSError, UnicodeError) as exc:
            return self.applier.changed_meanwhile(finding, str(exc))
        self.screen.numbered(body)
        picked = self.console.ask("  Lines to remove (like 7-12, 15; Enter: none)")
        if picked.strip().lower() in ("", "q", "quit"):
            return finding  # back to the question: nothing picked
        return self.confirmed(finding, lambda: dead_weight.trim(self.tree, finding.path, picked))

    def delete(self, finding: Finding) -> Finding | str:
        where = self.root / finding.path
        self.console.say(
            f"  Delete removes {visible(finding.path)} and its MEMORY.md line. The journal keeps "
            f"it: `memory-audit restore {visible(str(where))}` brings it back."
        )
        return self.confirmed(
            finding, lambda: dead_weight.delete(self.tree, finding.path, self._memory_files())
        )

    def confirmed(self, finding: Finding, build: Callable[[], Edit]) -> Finding | str:
        """One change shown as its diff, written on yes."""
        try:
            change = build()
        except StaleTarget as exc:
            return self.applier.changed_meanwhile(finding, str(exc))
        except NeedsValue as exc:
            self.console.say(f"  Not applied: {visible(str(exc))}.")
            return finding
        except (OSError, UnicodeError) as exc:
            return self.applier.failed(finding, exc)
        self.console.say(f"  {visible(change.description)}:")
        self.console.say(self.screen.redacted_diff(change).rstrip())
        self.screen.warn_new(change)
        if self.console.choose("  Apply this change?", {"y": "yes", "n": "no"}) == "n":
            return finding
        return self.applier.write(finding, change)

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
