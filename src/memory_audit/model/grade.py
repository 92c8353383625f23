"""A tree's health grade, A to F (docs/dimensions.md, "Health grade").

Only *problem* findings count (suggestions never do), per 100 memories, so the grade
moves when the user fixes things, not when memory merely grows; what sessions lose
outright (an index entry cut off past the load limit, a file whose frontmatter no
reader can parse) counts three times. Small trees are measured as if they held
``FLOOR`` memories, so that one finding in a two-memory tree is not an F. A possible
secret (a problem of the secrets dimension) caps the grade at ``LEAK_CAP`` however large
the tree: an A beside a pasted password reads as "nothing to do".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memory_audit.model.finding import Finding

FLOOR = 10
LOSS_WEIGHT = 3
# Findings that mean a session does not see something the tree holds.
SESSION_LOSSES = frozenset(
    {
        "invisible-entry",
        "unparseable-frontmatter",
        "unclosed-frontmatter",
        "frontmatter-not-mapping",
    }
)
# Highest score (weighted problems per 100 memories) each grade allows.
BANDS = (("A", 5.0), ("B", 15.0), ("C", 30.0), ("D", 60.0))
LETTERS = "ABCDF"
SECRETS = "secrets"  # the dimension whose problems cap the grade
LEAK_CAP = "C"


@dataclass(frozen=True)
class Grade:
    letter: str
    score: float  # weighted problems per 100 memories

    def to_json(self) -> dict[str, object]:
        return {"letter": self.letter, "score": round(self.score, 1)}


def grade(findings: Iterable[Finding], memories: int) -> Grade:
    problems = [f for f in findings if not f.is_suggestion]
    score = 100.0 * sum(_weight(f) for f in problems) / max(memories, FLOOR)
    letter = next((letter for letter, limit in BANDS if score <= limit), "F")
    if any(f.dimension == SECRETS for f in problems):
        letter = max(letter, LEAK_CAP, key=LETTERS.index)
    return Grade(letter, score)


def _weight(finding: Finding) -> int:
    """A finding that lists the lines it stands for (every index entry a cut hides, in one
    finding) weighs as many findings as it lists: grouping them changes no grade."""
    listed = (finding.fix or {}).get("lines")
    count = len(listed) if isinstance(listed, list) and listed else 1
    return count * (LOSS_WEIGHT if finding.code in SESSION_LOSSES else 1)
