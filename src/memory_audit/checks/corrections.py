"""Correction stacks: feedback corrected over and over, and corrections that disagree.

Among ``feedback`` memories, supersession (``relations: supersedes`` or
``superseded_by``) and ``contradicts`` relations are followed:

- ``deep-correction-chain``: a chain of corrections deeper than ``max_depth``
  (default 3): the original reasoning is buried; re-evaluate the original;
- ``live-contradiction``: two live (unsuperseded) memories, one declaring it
  contradicts the other: sessions get both rules;
- ``supersession-cycle``: memories that supersede each other in a loop (among
  all memories; the walk always ends and the loop is named).

Failing::

    d.md supersedes c.md supersedes b.md supersedes a.md   (depth 3 is fine; a fourth is not)

Passing: a correction that replaces the original and is itself still current.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from memory_audit.analysis.graphs import LongestChains, loops
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.snapshot import MemoryTree

ID = "corrections"


@dataclass(frozen=True)
class Options:
    max_depth: int = field(default=3, metadata={"range": (1, 1000)})


def supersession(tree: MemoryTree) -> dict[str, set[str]]:
    """Newer path -> the paths it supersedes (both directions of declaration merged)."""
    edges: dict[str, set[str]] = defaultdict(set)
    for memory in tree.memories:
        for relation in memory.relations:
            if relation.type == "supersedes":
                target = tree.resolve_reference(relation.target, memory.path).path
                if target is not None and target in tree.files and target != memory.path:
                    edges[memory.path].add(target)
        for raw in memory.superseded_by:
            newer = tree.resolve_reference(raw, memory.path).path
            if newer is not None and newer in tree.files and newer != memory.path:
                edges[newer].add(memory.path)
    return edges


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    edges = supersession(tree)
    cycles = list(loops(edges))
    in_cycle = {path for cycle in cycles for path in cycle}
    for cycle in cycles:
        shown = " supersedes ".join(f"`{p}`" for p in (*cycle, cycle[0]))
        yield make_finding(
            ID,
            "supersession-cycle",
            cycle[0],
            None,
            f"supersession loop: {shown}",
            "decide which memory is current and remove the supersession that points back",
            key="|".join(cycle),
            related=tuple(cycle[1:]),
        )
    feedback = {m.path for m in tree.memories if m.type == "feedback"}
    yield from _deep_chains(edges, feedback, in_cycle, options.max_depth)
    yield from _contradictions(tree, edges, feedback)


def _deep_chains(
    edges: Mapping[str, set[str]], feedback: set[str], in_cycle: set[str], max_depth: int
) -> Iterator[Finding]:
    superseded = {old for olds in edges.values() for old in olds}
    longest = LongestChains(edges, feedback)
    for head in sorted(feedback - superseded - in_cycle):
        chain = longest.chain(head)
        if len(chain) - 1 > max_depth:
            shown = " → ".join(f"`{p}`" for p in chain)
            yield make_finding(
                ID,
                "deep-correction-chain",
                head,
                None,
                f"correction chain {len(chain) - 1} deep: {shown}",
                f"re-evaluate the original (`{chain[-1]}`): does the reason behind it still apply?",
                judgment=True,
                related=tuple(chain[1:]),
            )


def _contradictions(
    tree: MemoryTree, edges: Mapping[str, set[str]], feedback: set[str]
) -> Iterator[Finding]:
    superseded = {old for olds in edges.values() for old in olds}
    reported: set[frozenset[str]] = set()
    for path in sorted(feedback):
        for relation in tree.files[path].relations:
            other = tree.resolve_reference(relation.target, path).path
            pair = frozenset((path, other or ""))
            if relation.type != "contradicts" or other not in feedback or pair in reported:
                continue
            reported.add(pair)
            if path not in superseded and other not in superseded:
                yield make_finding(
                    ID,
                    "live-contradiction",
                    path,
                    relation.line,
                    f"contradicts `{other}` and both are live: sessions load both rules",
                    "decide which holds; supersede the other (superseded_by) or reconcile them",
                    key=other or "",
                    judgment=True,
                    related=(other or "",),
                )
