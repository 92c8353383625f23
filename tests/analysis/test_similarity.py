from __future__ import annotations

import itertools
import random
from pathlib import Path

from memory_audit.analysis.similarity import jaccard, similar_pairs, tokens
from memory_audit.tree.snapshot import load_tree
from tests.harness import memory, write_tree


def test_similarity_join_equals_brute_force(tmp_path: Path) -> None:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(40)]
    files: dict[str, str] = {}
    for i in range(120):
        base = rng.sample(words, 12)
        if i % 3 == 0 and i:
            base = files[f"f{i - 3:03}.md"].split("\n---\n")[1].split()[:12]
            base[rng.randrange(12)] = rng.choice(words)
        files[f"f{i:03}.md"] = memory(f"f{i}", body=" ".join(base))
    tree = load_tree(write_tree(tmp_path / "m", files))
    records = sorted(tree.memories, key=lambda m: m.path)
    sets = {m.path: tokens(m.first_paragraph) for m in records}
    joined = {frozenset((a.path, b.path)) for a, b, _ in similar_pairs(records, sets, 0.7)}
    brute = {
        frozenset((a.path, b.path))
        for a, b in itertools.combinations(records, 2)
        if jaccard(sets[a.path], sets[b.path]) >= 0.7
    }
    assert brute
    assert joined == brute
