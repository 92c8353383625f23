"""Labels of versions (a session's first prompt, a restore's reason) through the redaction
boundary: masked before they are stored, and again before they are shown.

A label is masked before it is shortened: a secret cut in half by the shortening
would no longer be recognised as one, and its first half would be kept. Only the
first :data:`SCANNED_CHARS` characters are read (a label shows far fewer).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from memory_audit.journal.index import JournalIndex, Version
from memory_audit.secrets.boundary import Boundary, secret_values
from memory_audit.secrets.scanner import Scanner

SCANNED_CHARS = 16 * 1024  # room for a whole private key block pasted into a prompt
ELLIPSIS = "…"


def label(text: str, scanner: Scanner, limit: int) -> str:
    """``text`` masked, on one line, shortened to ``limit`` characters."""
    head = text[:SCANNED_CHARS]
    flat = " ".join(head.split())
    # Secrets as written (a key block spans lines) and as shown on one line.
    boundary = Boundary([*secret_values(scanner, head), *secret_values(scanner, flat)])
    masked = boundary.text(flat)
    return masked if len(masked) <= limit else masked[: limit - 1] + ELLIPSIS


def labeller(scanner: Callable[[], Scanner], limit: int) -> Callable[[str], str]:
    """:func:`label` with the scanner in force when a label is made (a reload changes it)."""
    return lambda text: label(text, scanner(), limit)


def masked(text: str, scanner: Scanner) -> str:
    """A stored label masked again (rows recorded before labels were masked may hold a
    secret; a shortened one may end in half of one, which no scan can tell)."""
    return Boundary.for_text(scanner, text).text(text)


def scrub(index: JournalIndex, scanner: Scanner) -> int:
    """Mask the secrets in labels stored before labels were masked; how many labels changed."""
    renamed = {text: masked(text, scanner) for text in index.labels()}
    return index.relabel({old: new for old, new in renamed.items() if new != old})


def shown(versions: Iterable[Version], scanner: Scanner) -> list[Version]:
    """Versions whose labels are masked again for showing: a row recorded before labels
    were masked may hold a secret."""
    seen: dict[str, str] = {}
    result = []
    for version in versions:
        text = version.actor.label
        if text and text not in seen:
            seen[text] = masked(text, scanner)
        if text and seen[text] != text:
            actor = dataclasses.replace(version.actor, label=seen[text])
            result.append(dataclasses.replace(version, actor=actor))
        else:
            result.append(version)
    return result
