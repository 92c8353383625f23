"""Asking before a command destroys something: at a terminal, yes or no (``q`` is no);
``--yes`` answers for scripts; with no terminal and no ``--yes``, refused."""

from __future__ import annotations

from typing import TextIO

from memory_audit.errors import UsageError
from memory_audit.fix.console import Console, Quit


def confirmed(inp: TextIO, out: TextIO, question: str, *, yes: bool, flag: str = "--yes") -> bool:
    """True to go ahead. Raises UsageError when nobody can be asked."""
    if yes:
        return True
    if not _terminal(inp):
        raise UsageError(
            f"refused: nobody to ask ({question}); run it in a terminal, or pass {flag}"
        )
    console = Console(inp, out)
    try:
        return console.choose(question, {"y": "yes", "n": "no"}) == "y"
    except (Quit, EOFError, KeyboardInterrupt):
        return False


def _terminal(inp: TextIO) -> bool:
    try:
        return inp.isatty()
    except (OSError, ValueError):
        return False
