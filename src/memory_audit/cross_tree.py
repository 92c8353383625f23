"""Across stores: the same note kept in three or more projects' memory (issue 29).

"The user wants pnpm, never npm" saved in five project stores belongs once at the user
level (``~/.claude/CLAUDE.md`` or a rule file): every project then has it, and no store
spends its budget on it. This pass reads every store's memories the way ``duplicates``
does within one tree (name, description and first paragraph; each store's templates left
out; notes that name each other to set themselves apart kept apart), compares them across
stores with the same TF-IDF cosine, and reports a note only when it says the *same thing*
in at least :data:`MIN_STORES` stores: each member is compared with one central note, not
chained through others, so a topic shared loosely is not a claim shared. Each store's copy
is one suggestion in that store's report, whose fix (``move-to-user-level``) writes the
note at the user level once and moves that store's copy out, one store at a time.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memory_audit.analysis.similarity import similar_pairs, vectors
from memory_audit.checks import ORDER
from memory_audit.checks.duplicates import boilerplate, distinguished, summary_text
from memory_audit.config.settings import Config
from memory_audit.engine import load_ref, redaction_boundary
from memory_audit.model.finding import Finding, make_finding
from memory_audit.model.run import Run, TreeReport
from memory_audit.model.tree_scope import scoped, tree_identity
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

DIMENSION = "duplicates"
CODE = "same-note-in-projects"
ACTION = "move-to-user-level"
MIN_STORES = 3
THRESHOLD = 0.5  # above duplicates' 0.4: across stores only the same claim counts
SHOWN_STORES = 5


@dataclass(frozen=True)
class Copy:
    store: int  # the tree's position in the list given
    memory: MemoryFile


@dataclass(frozen=True)
class SharedNote:
    copies: tuple[Copy, ...]  # one per store, the central note first
    score: float  # the lowest similarity of a copy to the central note


def shared_notes(trees: Sequence[MemoryTree], threshold: float = THRESHOLD) -> list[SharedNote]:
    copies = [
        Copy(number, memory)
        for number, tree in enumerate(trees)
        for memory in sorted(tree.memories, key=lambda m: m.path)
        if not memory.path.startswith("team/")
    ]
    templates = [boilerplate(tree.memories) for tree in trees]
    texts = [summary_text(c.memory, templates[c.store]) for c in copies]
    neighbours: dict[int, dict[int, float]] = defaultdict(dict)
    for left, right, score in similar_pairs(vectors(texts), threshold):
        a, b = copies[left], copies[right]
        if a.store != b.store and not distinguished(a.memory, b.memory):
            neighbours[left][right] = neighbours[right][left] = score
    return _stars(copies, neighbours)


def _stars(copies: list[Copy], neighbours: dict[int, dict[int, float]]) -> list[SharedNote]:
    """Central notes, most connected first; each takes its direct neighbours (the closest
    one per store) that no earlier note took."""
    taken: set[int] = set()
    found: list[SharedNote] = []
    for center in sorted(neighbours, key=lambda n: (-len(neighbours[n]), n)):
        if center in taken:
            continue
        best: dict[int, tuple[float, int]] = {}
        for other, score in neighbours[center].items():
            store = copies[other].store
            if other not in taken and store != copies[center].store:
                best[store] = max(best.get(store, (score, other)), (score, other))
        if len(best) + 1 < MIN_STORES:
            continue
        members = [center, *(other for _, other in sorted(best.values(), reverse=True))]
        taken.update(members)
        score = min(s for s, _ in best.values())
        found.append(SharedNote(tuple(copies[m] for m in members), score))
    return found


def findings_by_store(
    notes: Iterable[SharedNote], labels: Sequence[str]
) -> dict[int, list[Finding]]:
    """Each store's suggestions: one per shared note it holds a copy of."""
    found: dict[int, list[Finding]] = defaultdict(list)
    for note in notes:
        stores = [labels[c.store] for c in sorted(note.copies, key=lambda c: c.store)]
        for copy in note.copies:
            found[copy.store].append(_finding(note, copy, stores))
    return found


def _finding(note: SharedNote, copy: Copy, stores: list[str]) -> Finding:
    listed = ", ".join(stores[:SHOWN_STORES])
    more = f" and {len(stores) - SHOWN_STORES} more" if len(stores) > SHOWN_STORES else ""
    key = "|".join(sorted(c.memory.name or c.memory.path for c in note.copies))
    return make_finding(
        DIMENSION,
        CODE,
        copy.memory.path,
        None,
        f"the same note is kept in {len(stores)} stores: {listed}{more} "
        f"(at least {note.score:.0%} alike); it holds for every project",
        "keep it once at the user level (~/.claude/CLAUDE.md or a rule file) and remove "
        "it from each store",
        key=f"{CODE}|{key}",
        fix={"action": ACTION, "path": copy.memory.path, "stores": len(stores)},
        level="suggestion",
    )


def with_shared_notes(
    run: Run, refs: Sequence[TreeRef], config: Config, dismissed: Iterable[str] = ()
) -> Run:
    """The run with each store's cross-store suggestions added to its report (``refs`` in
    the order of the run's reports). Trees that were not audited take no part."""
    audited = [n for n, report in enumerate(run.reports) if report.audited]
    trees = [load_ref(refs[n], config) for n in audited]
    labels = [_label(run.reports[n]) for n in audited]
    found = findings_by_store(shared_notes(trees), labels)
    hidden = frozenset(dismissed)
    reports = list(run.reports)
    rules = config.check_options("secrets")
    for position, items in found.items():
        number = audited[position]
        # Out of the engine like every other finding: through the tree's redaction boundary
        # (a secret in a file name is masked in its path and its message). A store without a
        # shared note has nothing to mask, and its tree is not scanned for one.
        boundary = redaction_boundary(trees[position], rules)
        mine = _scoped(trees[position].root, items)
        extra = [boundary.finding(f) for f in mine if f.fingerprint not in hidden]
        reports[number] = _added(reports[number], extra)
    return dataclasses.replace(run, reports=tuple(reports))


def shared_note_findings(
    refs: Sequence[TreeRef], config: Config, dismissed: Iterable[str] = ()
) -> dict[str, list[Finding]]:
    """Tree root -> its cross-store suggestions (for ``review``, which audits tree by tree)."""
    trees = [load_ref(ref, config) for ref in refs]
    found = findings_by_store(shared_notes(trees), [ref.label for ref in refs])
    hidden = frozenset(dismissed)
    return {
        str(refs[n].root): [f for f in _scoped(refs[n].root, items) if f.fingerprint not in hidden]
        for n, items in found.items()
    }


def _scoped(root: Path, findings: list[Finding]) -> list[Finding]:
    """Each store's copy names its store, as the engine's findings name their tree: a note
    kept on purpose in one project is dismissed there alone."""
    identity = tree_identity(root)
    return [dataclasses.replace(f, fingerprint=scoped(identity, f.fingerprint)) for f in findings]


def _label(report: TreeReport) -> str:
    if report.agent is not None:
        return report.agent.label
    return report.project or report.root.name


def _added(report: TreeReport, extra: list[Finding]) -> TreeReport:
    if not extra or not report.audited:
        return report
    known = {f.fingerprint for f in report.findings} | {f.fingerprint for f in report.dismissed}
    new = [f for f in extra if f.fingerprint not in known]
    merged = sorted([*report.findings, *new], key=lambda f: ORDER[f.dimension])
    return dataclasses.replace(report, findings=tuple(merged))
