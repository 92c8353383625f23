"""The registry of dimensions: one line per check module, in report order.

Each dimension is one module, ``checks/<id>.py`` (dashes as underscores). It
declares ``ID``, an ``Options`` dataclass (every field defaulted; the
configuration validates ``checks.<id>`` against it) and ``check(tree,
options)``, which yields findings (and ``Skip`` notes) and never prints or
formats. The module docstring is the user documentation of the dimension.
What the rest of the program knows without running a check (title, severity,
hook priority and needs; see :mod:`memory_audit.model.dimension`) is the
module's line in ``TABLE`` below, so a module is imported only when its check
runs, its options are validated or its docstring is read: ``--check secrets``
loads the secrets check alone. Adding a dimension: one new module, one line below.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Iterator, Mapping
from typing import Any, Protocol, cast

from memory_audit.analysis.file_problems import UNREADABLE
from memory_audit.model.dimension import ALL_CODES, Dimension, Need, Role, Severity
from memory_audit.model.finding import Finding, Skip
from memory_audit.tree.snapshot import MemoryTree

WARNING, ERROR, NOTE = Severity.WARNING, Severity.ERROR, Severity.NOTE
EVERY = frozenset({ALL_CODES})
GIT_PROJECT, TRANSCRIPTS = frozenset({Need.PROJECT, Need.GIT}), frozenset({Need.TRANSCRIPTS})
# Suggestions: the codes whose findings were not at least 90% right on memory trees the
# rules were never tuned on (docs/benchmarks.md lists each code's figure), or that no
# such tree could measure (usage and coverage read transcripts, which no public tree has).
# Copy suggestions: every held-out tree is a repository's copy of memory; the codes below
# 90% there are suggestions in such a copy (files kept there that are not memories, notes
# never committed, dated records), problems still in a folder Claude Code writes. A tree
# at the repository's own root, and another agent's workspace, level as a copy does.
TABLE: tuple[Dimension, ...] = (
    Dimension(
        "index-drift",
        "MEMORY.md index drift",
        WARNING,
        hook_priority=20,
        # two lines for one file: which says it better is judgment (1 of 3 held-out right)
        suggestions=frozenset({"duplicate-index-entry"}),
        # missing-index: 2 of 7; stale-index-path: 0 of 22 (an index copied from the live
        # folder, whose notes were committed under another folder)
        copy_suggestions=frozenset({"missing-index", "stale-index-path"}),
        leading=frozenset({"missing-index"}),
    ),
    Dimension(
        "frontmatter",
        "Frontmatter validity",
        WARNING,
        hook_priority=40,
        suggestions=frozenset({"strict-yaml-only"}),
        # 13 of 25, 11 of 19, 1 of 2, 7 of 8; file-too-large 0 of 6 (a vendor manual's text
        # dumps a workspace greps, kept beside its notes); symlink-outside-tree 0 of 1 (round
        # 126: a link to the repository's shared folder, which the files are meant to stay in)
        copy_suggestions=frozenset(
            {"no-frontmatter", "missing-field", "empty-field", "invalid-type", "file-too-large"}
            | {"symlink-outside-tree"}
        ),
        leading=UNREADABLE,
    ),
    Dimension(
        "relations",
        "Broken relations",
        WARNING,
        hook_priority=50,
        # links-not-read: 0 of 1 (round 20), 0 of 1 (round 22), 0 of 4 files (round 36: chat
        # dumps an agent derived from its sessions): the tool's limit, which no owner acts on
        suggestions=frozenset({"broken-wikilink", "links-not-read"}),
        # broken-link 0 of 1; broken-wikilink near a name: 0 of 2 (links into a notes vault);
        # bad-relation-type 0 of 7 and broken-relation 0 of 4 (a tree's own relation words,
        # a priority tag in the list, a list on one line)
        copy_suggestions=frozenset(
            {"broken-link", "broken-wikilink", "bad-relation-type", "broken-relation"}
        ),
    ),
    Dimension("duplicates", "Possible duplicates", NOTE, hook_priority=110, suggestions=EVERY),
    Dimension(
        "stale-refs",
        "Stale references",
        WARNING,
        100,
        GIT_PROJECT,
        # a hash no branch reaches: mostly another repository's, or a record of a rewrite
        # (1 of 10 held-out right)
        suggestions=frozenset({"missing-file-reference", "stale-commit-reference"}),
        # 26 of 32, 19 of 22: dated records that name a path as it was then
        copy_suggestions=frozenset({"deleted-file-reference", "renamed-file-reference"}),
    ),
    Dimension(
        "orphans",
        "Orphan files",
        WARNING,
        hook_priority=120,
        # 41 of 105 right in repositories' copies; in copies of Claude Code's own folders 2
        # of 18 held-out (hook stubs, agent prompts and snapshots kept there), and of those
        # with frontmatter 7 of 11 (a note de-indexed on purpose, a project's moved copy,
        # a topic the index already holds inline): which to index is the owner's call
        suggestions=frozenset({"orphan-candidate"}),
    ),
    Dimension("superseded", "Superseded entries in index", WARNING, hook_priority=60),
    Dimension(
        "session-recaps",
        "Session-recap schema",
        WARNING,
        hook_priority=130,
        # in repositories' copies 0 of 1 missing-frontmatter, 0 of 4 recap-filename (a
        # template's fixed name, date-only names) besides one store's own log (0 of 40 of
        # each, one suggestion since): the recap schema is the seed's, not Claude Code's
        copy_suggestions=frozenset({"missing-frontmatter", "recap-filename", "recap-type"}),
        leading=UNREADABLE,
        roles=frozenset({Role.RECAP_NAMES}),
    ),
    Dimension(
        "secrets",
        "Possible secrets",
        ERROR,
        hook_priority=10,
        text_only=True,
        reads_other_files=True,
        roles=frozenset({Role.SECRET_RULES}),
    ),
    Dimension("bloat", "Bloat", NOTE, hook_priority=140, suggestions=EVERY),
    Dimension("descriptions", "Descriptions that recall", NOTE, 135, suggestions=EVERY),
    Dimension(
        "index-budget",
        "Index load budget",
        WARNING,
        hook_priority=30,
        # a rule in the index: 1 of 4 held-out right (a project's rule kept loaded on purpose);
        # several links on a line: 0 of 1 in a copy, 0 of 7 in copies of Claude Code's own
        # folders (a paragraph per topic citing its files, a cross-reference, a doc link)
        suggestions=frozenset({"long-hook", "inline-content", "rule-in-index", "several-links"}),
        # The load budget's codes (the cut, the recall cap, inline content) the check
        # levels itself: a copy's are suggestions, an agent's declared store's are not
        # (index_budget.LOADING_CODES).
    ),
    Dimension("expiry", "Review due", WARNING, hook_priority=70),
    Dimension("confidence", "Confidence ratings", NOTE, hook_priority=90),
    Dimension("corrections", "Correction stacks", WARNING, hook_priority=80),
    Dimension(
        "usage",
        "Dead weight by usage",
        NOTE,
        150,
        TRANSCRIPTS,
        suggestions=EVERY,
        roles=frozenset({Role.SESSION_WINDOW}),
    ),
    Dimension(
        "coverage",
        "Coverage gaps",
        NOTE,
        160,
        frozenset({Need.TRANSCRIPTS, Need.PROJECT}),
        suggestions=EVERY,
    ),
)


class Check(Protocol):
    ID: str
    Options: type[Any]
    __doc__: str | None

    def check(self, tree: MemoryTree, options: Any) -> Iterator[Finding | Skip]: ...


def module_name(dimension: str) -> str:
    return "memory_audit.checks." + dimension.replace("-", "_")


def check_module(dimension: str) -> Check:
    """The dimension's module, imported on first use (KeyError for an unknown id)."""
    if dimension not in ORDER:
        raise KeyError(dimension)
    return cast(Check, importlib.import_module(module_name(dimension)))


def _docstring(dimension: str) -> str:
    return check_module(dimension).__doc__ or ""


class _Registry(Mapping[str, Check]):
    """Dimension id -> its check module, imported on first access, in report order."""

    def __getitem__(self, dimension: str) -> Check:
        return check_module(dimension)

    def __iter__(self) -> Iterator[str]:
        return iter(ORDER)

    def __len__(self) -> int:
        return len(ORDER)


class _OptionTypes(Mapping[str, type[Any]]):
    """Dimension id -> its ``Options`` dataclass; the module is imported only for the ids
    a configuration names (or a run needs), not to list the valid ones."""

    def __getitem__(self, dimension: str) -> type[Any]:
        return REGISTRY[dimension].Options

    def __iter__(self) -> Iterator[str]:
        return iter(ORDER)

    def __len__(self) -> int:
        return len(ORDER)


DIMENSIONS: tuple[Dimension, ...] = tuple(
    dataclasses.replace(d, documentation=functools.partial(_docstring, d.id)) for d in TABLE
)
ORDER: dict[str, int] = {dimension.id: i for i, dimension in enumerate(TABLE)}
BY_ID: dict[str, Dimension] = {dimension.id: dimension for dimension in DIMENSIONS}
REGISTRY: Mapping[str, Check] = _Registry()
OPTION_TYPES: Mapping[str, type[Any]] = _OptionTypes()
