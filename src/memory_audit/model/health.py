"""The health summary: the shape of a tree in numbers (docs/dimensions.md, "The report")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Health:
    files: int
    total_lines: int
    index_lines: int
    index_bytes: int
    largest: tuple[tuple[str, int], ...]
    review_due: int
    unindexed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "total_lines": self.total_lines,
            "index_lines": self.index_lines,
            "index_bytes": self.index_bytes,
            "largest": [{"path": p, "lines": n} for p, n in self.largest],
            "review_due": self.review_due,
            "unindexed": self.unindexed,
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
        )
