"""The health summary: the shape of a tree in numbers (docs/dimensions.md, "The report")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SessionUse:
    """What the recent sessions did with the tree (the ``usage`` and ``coverage`` checks).

    ``None`` in a count: that check did not judge (not run, or skipped with a reason)."""

    sessions: int  # sessions in usage's window that were read (its ``sessions`` newest)
    surfaced: int  # memories of this tree that reached at least one of them
    unused: int | None = None  # not surfaced and said nowhere else: kept, counted only
    dead_weight: int | None = None  # not surfaced and carried elsewhere: one finding each
    coverage_gaps: int | None = None  # areas sessions keep working in that no memory names

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Any) -> SessionUse | None:
        if not isinstance(data, dict):
            return None
        return cls(
            sessions=int(data.get("sessions", 0)),
            surfaced=int(data.get("surfaced", 0)),
            unused=_count_or_none(data.get("unused")),
            dead_weight=_count_or_none(data.get("dead_weight")),
            coverage_gaps=_count_or_none(data.get("coverage_gaps")),
        )


def _count_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True)
class Health:
    files: int
    total_lines: int
    index_lines: int
    index_bytes: int
    largest: tuple[tuple[str, int], ...]
    review_due: int
    unindexed: int
    # Claude Code's own measures (tree.load_budget, analysis.recall); 0/None when unknown.
    index_chars: int = 0  # UTF-16 code units of what Claude Code counts of MEMORY.md
    index_cut_line: int | None = None  # file line of the first line no session sees whole
    recall_total: int = 0  # memories the recall scan lists (MEMORY.md not counted)
    recall_seen: int = 0  # of those, within the scan's first 200
    sessions: SessionUse | None = None  # None: no transcripts, or `usage` not run

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "total_lines": self.total_lines,
            "index_lines": self.index_lines,
            "index_bytes": self.index_bytes,
            "largest": [{"path": p, "lines": n} for p, n in self.largest],
            "review_due": self.review_due,
            "unindexed": self.unindexed,
            "index_chars": self.index_chars,
            "index_cut_line": self.index_cut_line,
            "recall_total": self.recall_total,
            "recall_seen": self.recall_seen,
            "sessions": self.sessions.to_json() if self.sessions else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Health:
        return cls(
            files=int(data.get("files", 0)),
            total_lines=int(data.get("total_lines", 0)),
            index_lines=int(data.get("index_lines", 0)),
            index_bytes=int(data.get("index_bytes", 0)),
            largest=tuple((str(r["path"]), int(r["lines"])) for r in data.get("largest", [])),
            review_due=int(data.get("review_due", 0)),
            unindexed=int(data.get("unindexed", 0)),
            index_chars=int(data.get("index_chars", 0)),
            index_cut_line=data.get("index_cut_line"),
            recall_total=int(data.get("recall_total", 0)),
            recall_seen=int(data.get("recall_seen", 0)),
            sessions=SessionUse.from_json(data.get("sessions")),
        )
