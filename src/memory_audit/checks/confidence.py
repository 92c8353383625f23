"""Confidence ratings: interpretations should not pass for facts.

``confidence`` (docs/dimensions.md, "Governance fields") is ``high``,
``medium`` or ``low``; the first word counts, so ``medium — useful lens but
not proven`` is medium.

- ``invalid-confidence``: any other value (a list, a whole number, "very sure"); a
  decimal from 0 to 1 is a score on the owner's own scale, read by its thirds (0.95 is
  high, 0.2 low);
- ``low-confidence-always-on`` (user judgment): a low-confidence memory loaded
  into every session (``relevance: always``);
- ``low-confidence-foundation`` (user judgment): other memories build on it
  (incoming ``supports`` relations);
- ``low-confidence-unchallenged``: low confidence and never challenged
  (no ``last_challenged``).

Failing::

    confidence: low — single observation
    relevance: always

Passing: ``confidence: low`` with ``last_challenged`` set and a phase-scoped relevance.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "confidence"
LEVELS = ("high", "medium", "low")


@dataclass(frozen=True)
class Options:
    pass


def level(memory: MemoryFile) -> str | None:
    """``high``/``medium``/``low``, "" for an invalid value, None when absent."""
    value = memory.meta("confidence")
    if value is None:
        return None
    if isinstance(value, float) and 0 <= value <= 1:  # 0.95; a bare 1 may be a 1-5 scale's
        # a score on the owner's own 0-1 scale (a tree that decays it over time): its thirds
        return LEVELS[0] if value >= 2 / 3 else LEVELS[1] if value >= 1 / 3 else LEVELS[2]
    if not isinstance(value, str) or not value.split():
        return ""
    first = value.split()[0].lower().strip(".,;:—-")
    return first if first in LEVELS else ""


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    for memory in sorted(tree.memories, key=lambda m: m.path):
        found = level(memory)
        line = memory.frontmatter_line("confidence")
        if found == "":
            yield make_finding(
                ID,
                "invalid-confidence",
                memory.path,
                line,
                f"confidence `{str(memory.meta('confidence'))[:60]}` is not high, medium or low",
                "start confidence with high, medium or low (a note may follow: `medium — why`)",
            )
        elif found == "low":
            yield from _low(tree, memory, line)


def _low(tree: MemoryTree, memory: MemoryFile, line: int | None) -> Iterator[Finding]:
    if memory.always_loaded:
        yield make_finding(
            ID,
            "low-confidence-always-on",
            memory.path,
            line,
            "low-confidence memory is loaded into every session (`relevance: always`)",
            "confirm it and raise the confidence, or narrow its relevance",
            judgment=True,
        )
    dependents = sorted(
        source.path
        for source in tree.files.values()
        for relation in source.relations
        if relation.type == "supports"
        and tree.resolve_reference(relation.target, source.path).path == memory.path
    )
    if dependents:
        yield make_finding(
            ID,
            "low-confidence-foundation",
            memory.path,
            line,
            f"low-confidence memory supports {', '.join(f'`{d}`' for d in dependents)}",
            "verify it before more memories build on it",
            judgment=True,
            related=tuple(dependents),
        )
    if memory.meta("last_challenged") is None:
        yield make_finding(
            ID,
            "low-confidence-unchallenged",
            memory.path,
            line,
            "low confidence and never challenged (no last_challenged)",
            "test it against reality, then record last_challenged or drop the memory",
        )
