"""What kind of store a tree is, and what Claude Code's settings make of it.

An agent keeps its own memory tree (``memory: user|project|local`` in its frontmatter);
settings can freeze a store (``autoMemoryEnabled: false``) and bound how far back
session transcripts reach (``cleanupPeriodDays``). Reports carry these as data.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

AgentScope = Literal["user", "project", "local"]
AGENT_SCOPES: tuple[AgentScope, ...] = ("user", "project", "local")
DEFAULT_CLEANUP_DAYS = 30


@dataclass(frozen=True)
class AgentStore:
    """The agent a memory tree belongs to (its folder name) and the scope it lives in."""

    name: str
    scope: AgentScope

    @property
    def label(self) -> str:
        return f"agent {self.name} ({self.scope})"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "scope": self.scope}

    @classmethod
    def from_json(cls, data: Any) -> AgentStore | None:
        if not isinstance(data, dict) or data.get("scope") not in AGENT_SCOPES:
            return None
        return cls(str(data.get("name", "")), data["scope"])


@dataclass(frozen=True)
class TranscriptSpan:
    """How far back a store's session transcripts reach, and when the oldest is swept."""

    days: int  # whole days from the oldest transcript to now
    oldest: dt.date
    swept_on: dt.date  # the oldest transcript's last day before cleanupPeriodDays removes it
    cleanup_days: int = DEFAULT_CLEANUP_DAYS

    def to_json(self) -> dict[str, Any]:
        return {
            "days": self.days,
            "oldest": self.oldest.isoformat(),
            "swept_on": self.swept_on.isoformat(),
            "cleanup_period_days": self.cleanup_days,
        }

    @classmethod
    def from_json(cls, data: Any) -> TranscriptSpan | None:
        if not isinstance(data, dict):
            return None
        try:
            return cls(
                int(data["days"]),
                dt.date.fromisoformat(str(data["oldest"])),
                dt.date.fromisoformat(str(data["swept_on"])),
                int(data.get("cleanup_period_days", DEFAULT_CLEANUP_DAYS)),
            )
        except (KeyError, TypeError, ValueError):
            return None
