"""The finding type and its fingerprint.

A finding names its dimension by id (``--check``, JSON, config and module names
use the same ids, so they never change once published; the table of dimensions
is the checks registry).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Finding:
    """One thing worth the user's attention, with where it is and what to do.

    ``fix`` is a machine-readable proposal for the interactive session; it is
    never applied by the audit itself.
    """

    dimension: str
    code: str
    path: str
    line: int | None
    message: str
    suggestion: str | None
    fingerprint: str
    judgment: bool = False
    related: tuple[str, ...] = ()
    fix: Mapping[str, Any] | None = field(default=None, hash=False, compare=False)
    # "error" | "warning" | "note" when this finding is louder or quieter than its
    # dimension (Severity in model.dimension); None: the dimension's own.
    severity: str | None = None
    # "problem" | "suggestion" (Level in model.dimension): set by the engine from the
    # dimension's table, or by a check that knows better for one finding.
    level: str | None = None

    @property
    def is_suggestion(self) -> bool:
        return self.level == "suggestion"

    def to_json(self) -> dict[str, Any]:
        data = self._json()
        if self.severity is not None:
            data["severity"] = self.severity
        if self.level is not None:
            data["level"] = self.level
        return data

    def _json(self) -> dict[str, Any]:
        return {
            "dimension": self.dimension,
            "code": self.code,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "suggestion": self.suggestion,
            "judgment": self.judgment,
            "related": list(self.related),
            "fix": dict(self.fix) if self.fix is not None else None,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finding:
        fix = data.get("fix")
        return cls(
            dimension=str(data["dimension"]),
            code=str(data["code"]),
            path=str(data["path"]),
            line=data.get("line"),
            message=str(data["message"]),
            suggestion=data.get("suggestion"),
            fingerprint=str(data["fingerprint"]),
            judgment=bool(data.get("judgment", False)),
            related=tuple(data.get("related") or ()),
            fix=dict(fix) if isinstance(fix, Mapping) else None,
            severity=data.get("severity"),
            level=data.get("level"),
        )


def fingerprint(dimension: str, code: str, path: str, key: str = "") -> str:
    """A stable identity for a finding across runs.

    Never built from a line number (lines move when other entries are added)
    and never from raw secret text (callers pass a salted hash instead).
    """
    # surrogateescape: a file name that is not UTF-8 holds its bytes as lone surrogates
    # (os.fsdecode); they hash as those bytes, and every other text as before.
    text = "\x1f".join((dimension, code, path, key))
    digest = hashlib.sha256(text.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:20]


def make_finding(
    dimension: str,
    code: str,
    path: str,
    line: int | None,
    message: str,
    suggestion: str | None = None,
    *,
    key: str = "",
    judgment: bool = False,
    related: tuple[str, ...] = (),
    fix: Mapping[str, Any] | None = None,
    severity: str | None = None,
    level: str | None = None,
) -> Finding:
    return Finding(
        dimension=dimension,
        code=code,
        path=path,
        line=line,
        message=message,
        suggestion=suggestion,
        fingerprint=fingerprint(dimension, code, path, key),
        judgment=judgment,
        related=related,
        fix=fix,
        severity=severity,
        level=level,
    )


def listed_at(
    names: Sequence[str],
    lines: Sequence[int],
    most: int,
    show: Callable[[str], str] = lambda name: f"`{name}`",
) -> str:
    """How a finding for several places lists them: the first ``most`` names (each as
    ``show`` writes it), "and 3 more", then "(lines 4, 9, …)"."""
    return f"{listed(names, most, show)} ({lines_listed(lines, most)})"


def lines_listed(lines: Sequence[int], most: int) -> str:
    """ "lines 4, 9, …": the first ``most`` line numbers, an ellipsis for the rest."""
    return "lines " + ", ".join(str(n) for n in lines[:most]) + (" …" if len(lines) > most else "")


def listed(
    names: Sequence[str], most: int, show: Callable[[str], str] = lambda name: f"`{name}`"
) -> str:
    """The first ``most`` names, in backticks (or as ``show`` writes them), and how many more."""
    shown = ", ".join(show(name) for name in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def examples(paths: Sequence[str], most: int = 3) -> str:
    """A grouped finding's first ``most`` files, in backticks, "…" after them when there are
    more: "`a.md`, `b.md`, `c.md`, …"."""
    return ", ".join(f"`{p}`" for p in paths[:most]) + (", …" if len(paths) > most else "")


def distinct(findings: Iterable[Finding]) -> list[Finding]:
    """Every finding with its own fingerprint, in the order given.

    A check keys a finding on what it is about (``references `x.md```), so the same
    problem written twice in a file (two lines, same missing path) would share one
    fingerprint, and dismissing or counting one would silently cover both. The first
    keeps its fingerprint (dismissals stay valid); each later one, by line, gets the
    first's fingerprint plus its ordinal: stable when lines move, distinct from the others.
    An exact repeat (same fingerprint, same line) is the same finding and is dropped.
    """
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.fingerprint, []).append(finding)
    renamed: dict[int, Finding] = {}
    for fingerprint_, group in groups.items():
        lines_seen: set[int | None] = set()
        ordinal = 0
        for finding in sorted(group, key=lambda f: (f.path, f.line or 0)):
            if finding.line in lines_seen:
                continue
            lines_seen.add(finding.line)
            ordinal += 1
            renamed[id(finding)] = (
                finding if ordinal == 1 else _numbered(finding, fingerprint_, ordinal)
            )
    return [renamed[id(f)] for f in findings if id(f) in renamed]


def _numbered(finding: Finding, first: str, ordinal: int) -> Finding:
    digest = hashlib.sha256(f"{first}\x1f#{ordinal}".encode()).hexdigest()[:20]
    return replace(finding, fingerprint=digest)


@dataclass(frozen=True)
class Skip:
    """A part of a dimension that could not run, and why (shown in ``skipped``).

    ``whole``: none of it ran (the secret rules could not be loaded): its result is
    unknown, and every output says so where the dimension's result would be, never
    "nothing material"."""

    dimension: str
    reason: str
    whole: bool = False
