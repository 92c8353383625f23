"""The behavioural layer: rule and skill files that may already carry a memory's lesson.

Rules live in ``~/.claude/rules/*.md`` and ``<project>/.claude/rules/**/*.md``;
skills in ``~/.claude/skills/*/SKILL.md`` and the project's ``.claude/skills``.
They are read (bounded in number and size) only to compare their wording with
memories; they are never written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memory_audit.config.paths import claude_home
from memory_audit.regular_files import read_regular

MAX_FILES = 200
MAX_BYTES = 256 * 1024


@dataclass(frozen=True)
class RuleFile:
    path: Path
    display: str
    text: str
    paragraphs: tuple[str, ...]


def rule_files(project: Path | None) -> list[RuleFile]:
    found: list[RuleFile] = []
    for path in _paths(project)[:MAX_FILES]:
        rule = _rule_file(path)
        if rule is not None:
            found.append(rule)
    return found


def instruction_files(project: Path | None) -> list[RuleFile]:
    """CLAUDE.md files Claude Code loads for the project (the user's and the project's)."""
    paths = [claude_home() / "CLAUDE.md"]
    if project is not None:
        paths += [project / "CLAUDE.md", project / ".claude/CLAUDE.md", project / "CLAUDE.local.md"]
    return [rule for path in paths if (rule := _rule_file(path)) is not None]


def _rule_file(path: Path) -> RuleFile | None:
    text = _read(path)
    if text is None:
        return None
    blocks = [b for b in text.split("\n\n") if b.strip()]
    return RuleFile(path, _display(path), text, tuple(blocks))


def _paths(project: Path | None) -> list[Path]:
    home = claude_home()
    paths = sorted((home / "rules").glob("*.md")) + sorted((home / "skills").glob("*/SKILL.md"))
    if project is not None:
        paths += sorted((project / ".claude/rules").rglob("*.md"))
        paths += sorted((project / ".claude/skills").glob("*/SKILL.md"))
    return paths


def _read(path: Path) -> str | None:
    try:
        return read_regular(path, MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def _display(path: Path) -> str:
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)
