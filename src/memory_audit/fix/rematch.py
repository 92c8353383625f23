"""The findings as the tree has them after a fix: each queued finding matched again.

A review asks its findings one by one; once a fix was applied, the tree is audited again
and each next finding is asked only if the tree still has it. By fingerprint, else by what
it says: two findings that share their key (one file indexed on two identical lines) are
told apart by their order, and when an earlier fix removes the first, the second takes its
fingerprint. So a finding whose fingerprint is gone is still reported when the audit has
one saying the same thing (lines aside) that no finding still queued claims as its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memory_audit.model.finding import Finding

Recheck = Callable[[], list[Finding]]  # a fresh audit of the tree
NO_DIGITS = str.maketrans("", "", "0123456789")
LINE_KEYS = frozenset({"line", "first", "last"})


class FreshFindings:
    """The tree's findings since the last fix (none audited yet: the findings as given)."""

    def __init__(self, recheck: Recheck) -> None:
        self.recheck = recheck
        self._fresh: dict[str, Finding] | None = None  # the tree as it is, after a fix
        self._claimed: set[str] = set()  # fresh findings already taken by a queued one
        self.pending: list[Finding] = []  # the findings not asked yet: each claims its own

    def tree_changed(self) -> None:
        """A fix was written: the tree is audited again."""
        self._fresh = {f.fingerprint: f for f in self.recheck()}
        self._claimed = set()

    def current(self, finding: Finding) -> Finding | None:
        """The finding with this one's fingerprint as the tree has it now."""
        return finding if self._fresh is None else self._fresh.get(finding.fingerprint)

    def still_reported(self, finding: Finding) -> Finding | None:
        """The finding as the tree has it now; None when an earlier fix resolved it."""
        if self._fresh is None:
            return finding
        same = self._fresh.get(finding.fingerprint)
        if same is not None:
            return same
        queued = {f.fingerprint for f in self.pending}
        for fresh in self._fresh.values():
            if fresh.fingerprint in queued or fresh.fingerprint in self._claimed:
                continue
            if _same_problem(fresh, finding):
                self._claimed.add(fresh.fingerprint)
                return fresh
        return None


def _same_problem(one: Finding, other: Finding) -> bool:
    """The same problem at another line: only line numbers differ."""
    return (
        (one.dimension, one.code, one.path, one.related)
        == (other.dimension, other.code, other.path, other.related)
        and _without_lines(one.message) == _without_lines(other.message)
        and _fix_without_lines(one) == _fix_without_lines(other)
    )


def _without_lines(text: str) -> str:
    return text.translate(NO_DIGITS)


def _fix_without_lines(finding: Finding) -> dict[str, Any]:
    return {k: v for k, v in (finding.fix or {}).items() if k not in LINE_KEYS}
