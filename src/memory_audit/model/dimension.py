"""What the rest of the program knows about a dimension without running its check.

The registry in ``checks/__init__.py`` has one :class:`Dimension` per check
module, in report order, and everything else (report titles, SARIF rules, the
session hook's priority, ``--check`` choices) is derived from that one list.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.StrEnum):
    """How loud a finding of this dimension is: SARIF's levels, and colour in a terminal."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Level(enum.StrEnum):
    """What a finding asks of the user. A code is a problem only when its findings proved
    at least 90% right on memory trees the rules were not tuned on (docs/benchmarks.md)."""

    PROBLEM = "problem"  # act on it: the exit code, the headline, notifications, the hook
    SUGGESTION = "suggestion"  # worth a look: its own folded section, counted apart


ALL_CODES = "*"


class Need(enum.StrEnum):
    """What a check reads beyond the tree; a check whose need is absent skips itself."""

    PROJECT = "project"
    TRANSCRIPTS = "transcripts"
    GIT = "git"


class Role(enum.StrEnum):
    """Options of a dimension that other parts read, whether or not its check runs."""

    SECRET_RULES = "secret-rules"  # noqa: S105 - a role name; the scanner and boundary rules
    SESSION_WINDOW = "session-window"  # which sessions the health line counts
    RECAP_NAMES = "recap-names"  # which file names the tree loader reads as session recaps


@dataclass(frozen=True)
class Dimension:
    id: str
    title: str
    severity: Severity = Severity.WARNING
    hook_priority: int = 50  # lower is shown first by the session hook
    needs: frozenset[Need] = field(default_factory=frozenset)
    # The codes of this dimension that are suggestions ("*": every code); the rest are problems.
    suggestions: frozenset[str] = field(default_factory=frozenset)
    # Codes that are suggestions in a repository's copy of a memory folder (the trees the
    # held-out corpus measures: files there that are not memories, notes never committed);
    # in a folder Claude Code writes they keep their level.
    copy_suggestions: frozenset[str] = field(default_factory=frozenset)
    # Reads file text only: a run of such dimensions alone never parses frontmatter.
    text_only: bool = False
    # Reads the text of the tree's files that are no Markdown too (a raw log, a saved config).
    reads_other_files: bool = False
    # Codes that make the rest of the dimension's findings moot: they come first within it.
    leading: frozenset[str] = field(default_factory=frozenset)
    roles: frozenset[Role] = field(default_factory=frozenset)
    # reads the check module's docstring, its user doc, on demand: importing every check
    # module to have it would cost a one-check run most of its imports
    documentation: Callable[[], str] = field(default=str, compare=False, repr=False)  # str() == ""

    @property
    def doc(self) -> str:
        return self.documentation()

    def level(self, code: str, *, copy: bool = False) -> Level:
        if code in self.suggestions or ALL_CODES in self.suggestions:
            return Level.SUGGESTION
        if copy and code in self.copy_suggestions:
            return Level.SUGGESTION
        return Level.PROBLEM

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "severity": self.severity.value,
            "hook_priority": self.hook_priority,
            "suggestions": sorted(self.suggestions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dimension:
        return cls(
            id=str(data["id"]),
            title=str(data.get("title", data["id"])),
            severity=Severity(data.get("severity", "warning")),
            hook_priority=int(data.get("hook_priority", 50)),
            suggestions=frozenset(str(c) for c in data.get("suggestions") or ()),
        )
