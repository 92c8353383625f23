"""Running checks over trees: isolate failures, order findings, count and cap.

The engine is the only place that knows about all checks at once. A check
that raises becomes an error entry naming the check (with the exception type
and where it happened, never its message: messages can carry file content),
and the other checks still run.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from memory_audit.analysis.health import measure, session_use
from memory_audit.checks import DIMENSIONS, ORDER, REGISTRY
from memory_audit.config.settings import Config
from memory_audit.errors import UsageError, describe
from memory_audit.model.finding import Finding, Skip, distinct
from memory_audit.model.health import Health
from memory_audit.model.run import CONSOLIDATION_LOCK, Run, TreeReport
from memory_audit.model.tree_scope import scoped, tree_identity
from memory_audit.secrets.boundary import Boundary, tree_boundary
from memory_audit.secrets.loading import RulesUnavailable, scanner_for
from memory_audit.tree.consolidation_lock import lock_age
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.file_kinds import DEFAULT_RECAP_GLOBS
from memory_audit.tree.location import ProjectLocation
from memory_audit.tree.memory_file import FileKind
from memory_audit.tree.snapshot import MemoryTree, load_tree

ROOT = "."  # the error path of a tree whose own folder could not be listed
# Dimensions that read file text only: a run of just these never parses frontmatter.
TEXT_ONLY = frozenset({"secrets"})
# Findings that make the rest of a dimension moot come first within it.
LEADING_CODES = frozenset(
    {
        "missing-index",
        "unparseable-frontmatter",
        "frontmatter-not-mapping",
        "unclosed-frontmatter",
        "binary-file",
        "file-too-large",
        "not-utf8",
    }
)


def audit_tree(
    tree: MemoryTree,
    selection: Sequence[str],
    options: Mapping[str, Any] | None = None,
    dismissed: Iterable[str] = (),
) -> TreeReport:
    """Run the selected dimensions (ids, in any order) over one snapshot."""
    unlisted = next((e.error for e in tree.errors if e.path == ROOT), None)
    if unlisted is not None:  # nothing is known of it: no finding would be true, "missing" least
        message = f"the memory folder cannot be read ({unlisted}); not audited"
        return not_audited(tree.root, tree.location, ROOT, message)
    options = options or {}
    findings: list[Finding] = []
    skipped: list[Skip] = []
    errors: list[tuple[str, str]] = [(e.path, e.error) for e in tree.errors]
    for dimension in sorted(selection, key=ORDER.__getitem__):
        check = REGISTRY[dimension]
        items, failures = run_isolated(tree, dimension, options.get(dimension) or check.Options())
        for item in items:
            (skipped if isinstance(item, Skip) else findings).append(item)  # type: ignore[arg-type]
        errors += failures
    # A secrets-only run reads text, never frontmatter: its counts come from file places.
    parsed = not set(selection) <= TEXT_ONLY
    boundary = redaction_boundary(tree, options.get("secrets"), decode_frontmatter=parsed)
    hidden = frozenset(dismissed)
    leveled = [_leveled(boundary.finding(f)) for f in findings]
    ordered = order(tree, _of_tree(tree, distinct(leveled)), by_references=parsed)
    return TreeReport(
        root=tree.root,
        project=tree.location.slug,
        project_path=tree.location.project_path,
        profile=tree.profile if parsed else tree.requested_profile,
        memory_files=_count(tree, FileKind.MEMORY, parsed),
        session_recaps=_count(tree, FileKind.RECAP, parsed),
        has_index=tree.index is not None,
        health=_health(tree, parsed, selection, options, (findings, skipped, errors)),
        findings=tuple(f for f in ordered if f.fingerprint not in hidden),
        skipped=tuple(dataclasses.replace(s, reason=boundary.text(s.reason)) for s in skipped),
        errors=tuple((path, boundary.text(error)) for path, error in errors),
        checks=tuple(selection),
        dismissed=tuple(f for f in ordered if f.fingerprint in hidden),
        not_memories=tuple(tree.not_memories.items()),
    )


def _of_tree(tree: MemoryTree, findings: list[Finding]) -> list[Finding]:
    """Every fingerprint names its tree: a dismissal in one project never hides another's."""
    identity = tree_identity(tree.root)
    return [dataclasses.replace(f, fingerprint=scoped(identity, f.fingerprint)) for f in findings]


SESSION_DIMENSIONS = frozenset({"usage", "coverage"})
LEVELS = {d.id: d for d in DIMENSIONS}


def _leveled(finding: Finding) -> Finding:
    """The finding with its level: its check's word, or its dimension's table."""
    if finding.level is not None:
        return finding
    return dataclasses.replace(finding, level=LEVELS[finding.dimension].level(finding.code).value)


def _health(
    tree: MemoryTree,
    parsed: bool,
    selection: Sequence[str],
    options: Mapping[str, Any],
    outcome: tuple[list[Finding], list[Skip], list[tuple[str, str]]],
) -> Health:
    """The tree's numbers, and what sessions did with it when a session check ran."""
    health = measure(tree, frontmatter=parsed)
    if not SESSION_DIMENSIONS & set(selection):
        return health
    findings, skipped, errors = outcome
    failed = {s.dimension for s in skipped} | {d for d in selection if _failed(d, errors)}
    ran = [d for d in selection if d not in failed]
    usage = options.get("usage") or REGISTRY["usage"].Options()
    if getattr(usage, "orphans_only", False):
        return health  # review's run: it asks about moved stores, not about sessions
    return dataclasses.replace(health, sessions=session_use(tree, usage, ran, findings))


def _failed(dimension: str, errors: list[tuple[str, str]]) -> bool:
    return any(f"check {dimension!r} failed" in error for _, error in errors)


def run_isolated(
    tree: MemoryTree, dimension: str, check_options: Any
) -> tuple[list[Finding | Skip], list[tuple[str, str]]]:
    """One check over the tree; when it raises, the files that make it raise are found
    (by halving the tree) and left out with an error entry each, and the check runs
    again on the rest. A failure no single file causes fails the whole check."""
    try:
        return _items(tree, dimension, check_options), []
    except Exception as exc:
        whole = [("", f"check {dimension!r} failed: {describe(exc)}")]
    culprits: dict[str, str] = {}
    if _fails(_only(tree, []), dimension, check_options) is not None:
        return [], whole
    _find_culprits(tree, dimension, check_options, sorted(tree.files), culprits)
    rest = _only(tree, [p for p in tree.files if p not in culprits])
    if not culprits or _fails(rest, dimension, check_options) is not None:
        return [], whole
    errors = [
        (path, f"check {dimension!r} failed on this file: {why}") for path, why in culprits.items()
    ]
    return _items(rest, dimension, check_options), errors


def _items(tree: MemoryTree, dimension: str, check_options: Any) -> list[Finding | Skip]:
    return list(REGISTRY[dimension].check(tree, check_options))


def _fails(tree: MemoryTree, dimension: str, check_options: Any) -> str | None:
    try:
        _items(tree, dimension, check_options)
    except Exception as exc:
        return describe(exc)
    return None


def _find_culprits(
    tree: MemoryTree, dimension: str, check_options: Any, paths: list[str], out: dict[str, str]
) -> None:
    failure = _fails(_only(tree, paths), dimension, check_options)
    if failure is None:
        return
    if len(paths) == 1:
        out[paths[0]] = failure
        return
    middle = len(paths) // 2
    _find_culprits(tree, dimension, check_options, paths[:middle], out)
    _find_culprits(tree, dimension, check_options, paths[middle:], out)


def _only(tree: MemoryTree, paths: Iterable[str]) -> MemoryTree:
    return dataclasses.replace(tree, files={p: tree.files[p] for p in paths})


def redaction_boundary(
    tree: MemoryTree, secrets_options: Any, *, decode_frontmatter: bool = True
) -> Boundary:
    """The tree's redaction boundary, from the secrets check's rules (the bundled ones when
    its patterns file is unusable: the boundary never turns itself off)."""
    patterns = getattr(secrets_options, "patterns", None)
    state_dir = getattr(secrets_options, "state_dir", None)
    gitleaks = getattr(secrets_options, "gitleaks_config", None)
    try:
        scanner = scanner_for(patterns, state_dir, gitleaks)
    except RulesUnavailable:
        scanner = scanner_for(None, state_dir)
    return tree_boundary(tree, scanner, decode_frontmatter=decode_frontmatter)


def _count(tree: MemoryTree, kind: FileKind, parsed: bool) -> int:
    return sum(1 for f in tree.files.values() if (f.kind if parsed else f.listed_kind) is kind)


def order(
    tree: MemoryTree, findings: Iterable[Finding], *, by_references: bool = True
) -> list[Finding]:
    """Dimension order, leading codes, then files more referenced first, then place."""
    references: dict[str, int] = {}

    def key(finding: Finding) -> tuple[int, int, int, str, int, str]:
        if finding.path not in references:
            # Counting references reads relations (frontmatter): not in a text-only run.
            references[finding.path] = tree.references_to(finding.path) if by_references else 0
        return (
            ORDER[finding.dimension],
            0 if finding.code in LEADING_CODES else 1,
            -references[finding.path],
            finding.path,
            finding.line or 0,
            finding.code,
        )

    return sorted(findings, key=key)


def select_checks(requested: Sequence[str], skip: Sequence[str] = ()) -> tuple[str, ...]:
    """The dimensions to run: those asked for, else every registered one not skipped."""
    unknown = [r for r in requested if r not in REGISTRY]
    if unknown:
        raise UsageError(
            f"unknown dimension {', '.join(map(repr, unknown))}; valid: {', '.join(REGISTRY)}"
        )
    chosen = requested or [d for d in REGISTRY if d not in skip]
    return tuple(sorted(set(chosen), key=ORDER.__getitem__))


def audit_refs(
    refs: Sequence[TreeRef],
    config: Config,
    selection: Sequence[str],
    *,
    now: dt.datetime | None = None,
    dismissed: Iterable[str] = (),
    progress: Callable[[int, TreeRef], None] | None = None,
) -> Run:
    """Load and audit each tree; a tree being consolidated is reported, not read.

    ``progress`` is told before each tree how many are done, and which comes next."""
    now = now or dt.datetime.now().astimezone()
    # The secrets options also configure the redaction boundary, selected or not.
    options = {d: config.check_options(d) for d in {*selection, "secrets"}}
    dismissed = frozenset(dismissed)
    reports: list[TreeReport] = []
    for ref in refs:
        if progress is not None:
            progress(len(reports), ref)
        reports.append(_audit_ref(ref, config, selection, options, dismissed, now))
    return Run(tuple(reports), now, config.settings.audit.max_per_dimension, dimensions=DIMENSIONS)


def _audit_ref(
    ref: TreeRef,
    config: Config,
    selection: Sequence[str],
    options: Mapping[str, Any],
    dismissed: frozenset[str],
    now: dt.datetime,
) -> TreeReport:
    age = lock_age(ref.root, now.timestamp())
    if age is not None:
        return busy_report(ref, age)
    return audit_tree(load_ref(ref, config, now), selection, options, dismissed)


def load_ref(ref: TreeRef, config: Config, now: dt.datetime | None = None) -> MemoryTree:
    """One tree, read with the user's settings (profile, size limit, recap names)."""
    return load_tree(
        ref.root,
        location=ref.location,
        profile=config.settings.audit.profile,
        max_file_bytes=config.settings.audit.max_file_bytes,
        now=now,
        recap_globs=recap_globs(config),
    )


def recap_globs(config: Config) -> tuple[str, ...]:
    """The configured recap names; unconfigured, the default, without importing that check."""
    configured = config.checks.get("session-recaps")
    return DEFAULT_RECAP_GLOBS if configured is None else tuple(configured.recap_globs)


def busy_report(ref: TreeRef, age: float) -> TreeReport:
    message = (
        f"Claude Code is consolidating this tree (lock taken {int(age // 60)} min ago); "
        "not audited, try again later"
    )
    return not_audited(ref.root, ref.location, CONSOLIDATION_LOCK, message)


def not_audited(root: Path, location: ProjectLocation, path: str, message: str) -> TreeReport:
    """A tree none of whose findings are known: one error entry says why."""
    return TreeReport(
        root=root,
        project=location.slug,
        project_path=location.project_path,
        profile="claude-code",
        memory_files=0,
        session_recaps=0,
        has_index=False,
        health=Health(0, 0, 0, 0, (), 0, 0),
        findings=(),
        errors=((path, message),),
    )
