"""Graph walks over supersession edges that always end, in linear time.

Memory trees are user-written: loops, diamonds and dense graphs all occur.
Nothing here enumerates paths (exponential) or recurses (Python's limit).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Set


class Components:
    """Strongly connected components (Tarjan's algorithm, iterative)."""

    def __init__(self, edges: Mapping[str, Set[str]]) -> None:
        self._edges = edges
        self._index: dict[str, int] = {}
        self._low: dict[str, int] = {}
        self._stack: list[str] = []
        self._on_stack: set[str] = set()
        self.found: list[list[str]] = []
        for root in sorted(edges):
            if root not in self._index:
                self._walk(root)

    def _children(self, node: str) -> Iterator[str]:
        return iter(sorted(self._edges.get(node, ())))

    def _enter(self, node: str) -> None:
        self._index[node] = self._low[node] = len(self._index)
        self._stack.append(node)
        self._on_stack.add(node)

    def _walk(self, root: str) -> None:
        self._enter(root)
        work = [(root, self._children(root))]
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    self._low[parent] = min(self._low[parent], self._low[node])
                self._close(node)
            elif child not in self._index:
                self._enter(child)
                work.append((child, self._children(child)))
            elif child in self._on_stack:
                self._low[node] = min(self._low[node], self._index[child])

    def _close(self, node: str) -> None:
        if self._low[node] != self._index[node]:
            return
        component = []
        while True:
            member = self._stack.pop()
            self._on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        self.found.append(sorted(component))


def loops(edges: Mapping[str, Set[str]]) -> Iterator[tuple[str, ...]]:
    """One loop per component of two or more nodes, walked from its smallest member."""
    for component in Components(edges).found:
        if len(component) < 2:
            continue
        members = set(component)
        cycle = [component[0]]
        while (step := min(n for n in edges[cycle[-1]] if n in members)) not in cycle:
            cycle.append(step)
        yield tuple(cycle[cycle.index(step) :])


class LongestChains:
    """Longest chain from each node, each node visited once; edges closing a loop are cut."""

    def __init__(self, edges: Mapping[str, Set[str]], members: Set[str]) -> None:
        self._edges = edges
        self._members = members
        self._length: dict[str, int] = {}
        self._next: dict[str, str | None] = {}

    def chain(self, head: str) -> list[str]:
        self._visit(head)
        chain = [head]
        while (step := self._next.get(chain[-1])) is not None:
            chain.append(step)
        return chain

    def _children(self, node: str) -> list[str]:
        return sorted(c for c in self._edges.get(node, ()) if c in self._members)

    def _visit(self, root: str) -> None:
        if root in self._length:
            return
        visiting = {root}
        stack = [(root, iter(self._children(root)))]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                visiting.discard(node)
                self._settle(node)
            elif child not in self._length and child not in visiting:
                visiting.add(child)
                stack.append((child, iter(self._children(child))))

    def _settle(self, node: str) -> None:
        done = [c for c in self._children(node) if c in self._length]
        best = max(done, key=lambda c: self._length[c], default=None)
        self._length[node] = self._length[best] + 1 if best else 0
        self._next[node] = best
