"""ANSI colour for the text report: by the dimension's severity, secrets loudest.

Only the text renderer on a terminal uses it; ``--color`` and ``NO_COLOR`` decide
(see :func:`wanted`). Colour never carries meaning alone: every coloured word is
also written out.
"""

from __future__ import annotations

from collections.abc import Mapping

from memory_audit.model.dimension import Dimension, Severity

RESET = "\033[0m"
LOUDEST = "1;97;41"  # bold white on red: a pasted credential stands out from everything else
BY_SEVERITY = {Severity.ERROR: "1;31", Severity.WARNING: "33", Severity.NOTE: "36"}
DIM = "2"
BOLD = "1"
SECRET_DIMENSION = "secrets"  # noqa: S105 - a dimension id, not a password


def wanted(choice: str, is_terminal: bool, environ: Mapping[str, str]) -> bool:
    """``always``/``never`` win; ``auto`` colours a terminal unless NO_COLOR or TERM=dumb."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    return is_terminal


class Painter:
    def __init__(self, enabled: bool, dimensions: tuple[Dimension, ...] = ()) -> None:
        self.enabled = enabled
        self.severity = {d.id: d.severity for d in dimensions}

    def paint(self, text: str, style: str) -> str:
        return f"\033[{style}m{text}{RESET}" if self.enabled and text else text

    def dimension(self, text: str, dimension: str) -> str:
        """Text about a dimension, in that dimension's colour."""
        if dimension == SECRET_DIMENSION:
            return self.paint(text, LOUDEST)
        return self.paint(text, BY_SEVERITY[self.severity.get(dimension, Severity.WARNING)])

    def bold(self, text: str) -> str:
        return self.paint(text, BOLD)

    def dim(self, text: str) -> str:
        return self.paint(text, DIM)
