"""The "apply to all N" dialog: one decision for every queued finding of one code in the
tree with the same kind of fix (how a target is fixed at its listing and checked again
before its write: :mod:`memory_audit.fix.batch`)."""

from __future__ import annotations

from memory_audit.fix import batch
from memory_audit.fix.actions import Action
from memory_audit.fix.applying import Applier
from memory_audit.fix.console import Console
from memory_audit.fix.edits import Edit
from memory_audit.fix.outcome import APPLIED, DEFERRED, Outcome
from memory_audit.fix.rematch import FreshFindings
from memory_audit.fix.screen import ReviewScreen
from memory_audit.model.finding import Finding
from memory_audit.model.visible import visible
from memory_audit.report import wording


class ApplyAll:
    """Lists the targets, pages their combined diff, asks once, applies each with a single
    fix's guards. ``handled``: the queued findings decided with an earlier one, and how
    (the session counts each when its turn comes)."""

    def __init__(
        self,
        console: Console,
        screen: ReviewScreen,
        applier: Applier,
        fresh: FreshFindings,
        outcome: Outcome,
    ) -> None:
        self.console = console
        self.screen = screen
        self.applier = applier
        self.fresh = fresh
        self.outcome = outcome
        self.handled: dict[str, str] = {}

    def same_code(self, finding: Finding) -> list[Finding]:
        """This finding and every queued one of its code with the same kind of fix, as the
        tree has them now (a secret is decided one by one)."""
        if finding.dimension == "secrets":
            return [finding]
        name = (finding.fix or {}).get("action")
        group = [finding]
        for other in self.fresh.pending:
            current = self.fresh.current(other)
            if (
                current is not None
                and other.fingerprint not in self.handled
                and (current.dimension, current.code) == (finding.dimension, finding.code)
                and (current.fix or {}).get("action") == name
            ):
                group.append(current)
        return group

    def run(self, finding: Finding, action: Action, group: list[Finding]) -> Finding | str:
        """Every target listed, the combined diff paged, one question, then each applied
        with a single fix's guards and its result said (fix/batch.py)."""
        listed: list[tuple[Finding, Edit]] = []
        for target in group:
            built = self.applier.build_quietly(target, action)
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
                if self.applier.wrote_last:
                    self.handled[target.fingerprint] = APPLIED
                raise
            self.handled[target.fingerprint] = result
            self.console.say(f"  {number}/{len(listed)} {wording.location(target)}: {said}")
            if self.outcome.quit:  # the tree moved: nothing more is written
                break
        self.fresh.tree_changed()
        return self.handled.pop(finding.fingerprint, DEFERRED)

    def _apply_listed(
        self, finding: Finding, action: Action, listed: Edit, ledger: batch.Ledger
    ) -> tuple[str, str]:
        """One target of the batch: built again from the files as they are, written only
        when its files hold what the listing read (or this batch wrote) and its change is
        still the one listed."""
        moved = batch.moved_on(listed, ledger, self.applier.read_or_none)
        if moved is not None:
            return DEFERRED, f"skipped: {visible(moved)} changed on disk since the listing"
        rebuilt = self.applier.build_quietly(finding, action)
        if not isinstance(rebuilt, Edit):
            return DEFERRED, f"skipped: {visible(rebuilt)}"
        if batch.delta(rebuilt) != batch.delta(listed):
            return DEFERRED, "skipped: its change is no longer the one listed"
        result = self.applier.write(finding, rebuilt, recheck=False)
        if result != APPLIED:
            return DEFERRED, "not applied (see above)"
        ledger.wrote(rebuilt)
        return APPLIED, f"applied: {visible(rebuilt.description)}"
