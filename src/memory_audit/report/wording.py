"""Wording shared by the human-readable renderers, so text and markdown say the same thing."""

from __future__ import annotations

from pathlib import Path

from memory_audit.model.finding import Finding
from memory_audit.model.run import TreeReport
from memory_audit.tree.index_file import LOAD_BYTE_LIMIT, LOAD_LINE_LIMIT


def display_root(root: Path) -> str:
    """The tree's path with the home folder shown as ``~``, ending in ``/``."""
    absolute = root.absolute()
    home = Path.home()
    shown = f"~/{absolute.relative_to(home)}" if absolute.is_relative_to(home) else str(absolute)
    return shown.rstrip("/") + "/"


def files_scanned(report: TreeReport) -> str:
    index = "MEMORY.md" if report.has_index else "no MEMORY.md"
    return f"{report.memory_files} memory files + {report.session_recaps} session-recaps + {index}"


def health_line(report: TreeReport) -> str:
    h = report.health
    parts = [
        f"{h.files} files, {h.total_lines:,} lines",
        f"index {h.index_lines}/{LOAD_LINE_LIMIT} lines, "
        f"{h.index_bytes:,}/{LOAD_BYTE_LIMIT:,} bytes",
        f"{h.review_due} review due",
        f"{h.unindexed} unindexed",
    ]
    return " · ".join(parts)


def largest_line(report: TreeReport) -> str:
    return ", ".join(f"{path} ({lines} lines)" for path, lines in report.health.largest)


def location(finding: Finding) -> str:
    if finding.line is None:
        return finding.path
    return f"{finding.path}:{finding.line}"


def sentence(finding: Finding) -> str:
    """``<message>. Suggest: <suggestion>.`` with the user-judgment mark where it applies."""
    text = finding.message.rstrip(".")
    if finding.suggestion:
        text += f". Suggest: {finding.suggestion.rstrip('.')}"
    text += "."
    if finding.judgment:
        text += " (user judgment required)"
    return text


def more_not_shown(count: int, dimension: str) -> str:
    return f"({count} more not shown — narrow with --check {dimension})"
