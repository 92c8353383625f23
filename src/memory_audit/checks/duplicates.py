"""Possible duplicates: two memories whose first paragraphs say nearly the same thing.

The measure: each first paragraph is lower-cased and split on whitespace and
punctuation into tokens; stopwords are dropped; the rest form a set. Two
files are possible duplicates when the Jaccard similarity of their sets,
``|A ∩ B| / |A ∪ B|``, is at least ``threshold`` (default 0.8) and they are
comparable: in the ``governed`` profile their ``scope`` sets share a tag, in
``claude-code`` they have the same ``type``. Paragraphs with fewer than
``min_tokens`` tokens are too short to judge. Pairs already linked by
supersession are not reported.

The comparison is a set-similarity join (PPJoin), not all pairs: tokens are
ordered rarest first, each set is indexed by its prefix (the first
``|A| - ⌈t·|A|⌉ + 1`` tokens, where any qualifying pair must share a token;
sets already indexed are smaller, so they need only ``|B| - ⌈2t/(1+t)·|B|⌉ + 1``),
candidates are cut by size (``|B| ≥ t·|A|``) and by position (the tokens left
after the shared one must still be able to reach ``⌈t/(1+t)·(|A|+|B|)⌉`` in
common), and only the survivors are verified.

A heuristic: the user makes the call (merge, supersede, or keep as siblings).

Failing::

    feedback_tests.md:   Integration tests must hit a real Postgres database, never mocks.
    testing_policy.md:   Integration tests must always hit a real Postgres database, never mocks.

Passing: the same two files with different types (``feedback`` / ``reference``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from memory_audit.analysis.similarity import similar_pairs, tokens
from memory_audit.model.dimension import Dimension, Severity
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "duplicates"
DIMENSION = Dimension(ID, "Possible duplicates", Severity.NOTE, hook_priority=110)


@dataclass(frozen=True)
class Options:
    threshold: float = field(default=0.8, metadata={"range": (0.3, 1.0)})
    min_tokens: int = field(default=5, metadata={"range": (1, 1000)})


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    memories = sorted(tree.memories, key=lambda m: m.path)
    sets = {m.path: tokens(m.first_paragraph) for m in memories}
    records = [m for m in memories if len(sets[m.path]) >= options.min_tokens]
    reported: set[tuple[str, str]] = set()
    # Only comparable files can be duplicates, so join within each group, never across.
    for group in comparable_groups(tree, records):
        for left, right, score in similar_pairs(group, sets, options.threshold):
            pair = (min(left.path, right.path), max(left.path, right.path))
            if pair not in reported and not linked(tree, left, right):
                reported.add(pair)
                yield _finding(tree, left, right, score)


def comparable_groups(tree: MemoryTree, records: Sequence[MemoryFile]) -> list[list[MemoryFile]]:
    """Groups by ``type`` (claude-code) or by ``scope`` tag (governed; one group per tag)."""
    groups: dict[str, list[MemoryFile]] = defaultdict(list)
    for record in records:
        keys = sorted(record.scope) if tree.profile == "governed" else [record.type]
        for key in keys:
            groups[key].append(record)
    return [groups[key] for key in sorted(groups)]


def linked(tree: MemoryTree, left: MemoryFile, right: MemoryFile) -> bool:
    """True when one already supersedes the other (the duplication is resolved)."""
    for source, target in ((left, right), (right, left)):
        for raw in source.superseded_by:
            if tree.resolve_reference(raw, source.path).path == target.path:
                return True
        for relation in source.relations:
            resolved = tree.resolve_reference(relation.target, source.path).path
            if relation.type == "supersedes" and resolved == target.path:
                return True
    return False


def _finding(tree: MemoryTree, left: MemoryFile, right: MemoryFile, score: float) -> Finding:
    first, second = sorted((left, right), key=lambda m: m.path)
    basis = (
        f"shared scope {', '.join(sorted(first.scope & second.scope))}"
        if tree.profile == "governed"
        else f"both type `{first.type or 'unset'}`"
    )
    return make_finding(
        ID,
        "possible-duplicate",
        second.path,
        None,
        f"first paragraph overlaps {score:.0%} with `{first.path}` ({basis})",
        f"compare with `{first.path}`: merge them, supersede one with the other, "
        "or keep both as intentional siblings",
        key=first.path,
        judgment=True,
        related=(first.path,),
    )
