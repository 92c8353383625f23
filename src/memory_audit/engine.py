"""Running checks over trees: isolate failures, order findings, count and cap.

The engine is the only place that knows about all checks at once. A check
that raises becomes an error entry naming the check (with the exception type
and where it happened, never its message: messages can carry file content),
and the other checks still run.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memory_audit.analysis.health import measure, session_use
from memory_audit.analysis.off_schema import UNSAVED, UNSAVED_FLOOD, unsaved_list
from memory_audit.analysis.store_facts import store_facts
from memory_audit.analysis.tree_home import (
    config_repository_copy,
    other_agent_workspace,
    repository_copy,
)
from memory_audit.checks import BY_ID, DIMENSIONS, ORDER, REGISTRY
from memory_audit.config.settings import Config
from memory_audit.errors import UsageError, describe
from memory_audit.model.dimension import Level, Need, Role
from memory_audit.model.finding import Finding, Skip, distinct, fingerprint, listed
from memory_audit.model.health import Health
from memory_audit.model.run import CONSOLIDATION_LOCK, TREE_FOLDER, Run, TreeReport
from memory_audit.model.stores import AgentStore
from memory_audit.model.tree_scope import scoped, tree_identity
from memory_audit.model.undecodable import encodes, escaped_all, printable
from memory_audit.secrets.boundary import Boundary, tree_boundary
from memory_audit.secrets.loading import masking_scanner
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.consolidation_lock import lock_age
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.file_kinds import DEFAULT_RECAP_GLOBS
from memory_audit.tree.location import ProjectLocation
from memory_audit.tree.memory_file import FileKind
from memory_audit.tree.settle import settled
from memory_audit.tree.snapshot import MemoryTree, load_tree
from memory_audit.tree.walk import DAMAGED_UTF8

# What the engine knows of a dimension is declared on it (model.dimension), never its id.
TEXT_ONLY = frozenset(d.id for d in DIMENSIONS if d.text_only)
OTHER_READERS = frozenset(d.id for d in DIMENSIONS if d.reads_other_files)
SESSION_DIMENSIONS = frozenset(d.id for d in DIMENSIONS if Need.TRANSCRIPTS in d.needs)


def holder(role: Role) -> str:
    """The dimension whose options play ``role`` for everyone (the secret rules, ...)."""
    return next(d.id for d in DIMENSIONS if role in d.roles)


SECRET_RULES = holder(Role.SECRET_RULES)


def audit_tree(
    tree: MemoryTree,
    selection: Sequence[str],
    options: Mapping[str, Any] | None = None,
    dismissed: Iterable[str] = (),
) -> TreeReport:
    """Run the selected dimensions (ids, in any order) over one snapshot."""
    unlisted = next((e.error for e in tree.errors if e.path == TREE_FOLDER), None)
    if unlisted is not None:  # nothing is known of it: no finding would be true, "missing" least
        message = f"the memory folder cannot be read ({unlisted}); not audited"
        return _shown(not_audited(tree.root, tree.location, TREE_FOLDER, message), options)
    options = options or {}
    selection = tree_selection(tree, selection)
    # A secrets-only run reads text, never frontmatter: its counts come from file places.
    parsed = not set(selection) <= TEXT_ONLY
    tree = settled(tree, parse=parsed)  # a file no reader can parse is an error entry
    findings: list[Finding] = []
    skipped: list[Skip] = []
    errors: list[tuple[str, str]] = [(e.path, e.error) for e in tree.errors]
    for dimension in sorted(selection, key=ORDER.__getitem__):
        check = REGISTRY[dimension]
        items, failures = run_isolated(tree, dimension, options.get(dimension) or check.Options())
        for item in items:
            (skipped if isinstance(item, Skip) else findings).append(item)  # type: ignore[arg-type]
        errors += failures
    findings = _one_report_of_undecodable_files(_one_report_of_unsaved_files(findings))
    boundary = redaction_boundary(tree, options.get(SECRET_RULES), decode_frontmatter=parsed)
    hidden = frozenset(dismissed)
    # Another agent's workspace holds files that are no Claude Code memories, as a copy does;
    # a dotfiles repository's copy lacks the notes kept out of git, as a project's does.
    copy = (
        repository_copy(tree)
        or config_repository_copy(tree)
        or other_agent_workspace(tree) is not None
    )
    facts = store_facts(tree)
    # An agent's store its project's agent no longer keeps is loaded by no session: what
    # is wrong in it waits until it is kept again, but a credential there leaked all the same.
    unloaded = facts.frozen is not None and tree.location.agent is not None
    leveled = [_leveled(f, copy=copy, unloaded=unloaded) for f in findings]
    # Ordered by the real paths (how often each is referenced), then shown masked.
    scoped_findings = _of_tree(tree, distinct(leveled))  # a fingerprint names its tree
    ordered = [boundary.finding(f) for f in order(tree, scoped_findings, by_references=parsed)]
    # A file name that is not UTF-8 leaves the engine as its escaped bytes (n\xffo.md); a
    # tree whose names are all UTF-8 (almost every tree) has nothing to escape.
    names = (
        str(tree.root),
        str(tree.location.project_path or ""),
        *tree.present,
        *tree.other_texts,
        facts.frozen or "",
    )
    undecodable = not all(encodes(name) for name in (*names, *(path for path, _ in errors)))
    if undecodable:
        ordered = [printable(f) for f in ordered]
    health = _health(tree, parsed, selection, options, (findings, skipped, errors))
    report = TreeReport(
        root=Path(boundary.path(str(tree.root))),
        project=_masked(boundary, tree.location.slug),
        project_path=_masked_folder(boundary, tree.location.project_path),
        profile=tree.profile if parsed else tree.requested_profile,
        # a workspace's documents are no memories, and every one of them was read
        memory_files=len(tree.files) if tree.documents else _count(tree, FileKind.MEMORY, parsed),
        session_recaps=_count(tree, FileKind.RECAP, parsed),
        has_index=tree.index is not None,
        other_files=len(tree.other_texts) if OTHER_READERS & set(selection) else 0,
        health=dataclasses.replace(
            health, largest=tuple((boundary.path(p), n) for p, n in health.largest)
        ),
        findings=tuple(f for f in ordered if f.fingerprint not in hidden),
        skipped=tuple(dataclasses.replace(s, reason=boundary.text(s.reason)) for s in skipped),
        errors=tuple((boundary.path(path), boundary.text(error)) for path, error in errors),
        checks=tuple(selection),
        dismissed=tuple(f for f in ordered if f.fingerprint in hidden),
        not_memories=_unscanned_documents(tree, boundary)
        if tree.documents  # all are documents: what is named is what was not scanned
        else tuple((boundary.path(p), why) for p, why in tree.not_memories.items()),
        agent=_masked_agent(boundary, facts.agent),
        frozen=boundary.text(facts.frozen) if facts.frozen else None,
        settings_notes=facts.settings_notes,
        transcripts=facts.transcripts,
        documents=tree.documents,
    )
    return escaped_all(report) if undecodable else report


def _unscanned_documents(tree: MemoryTree, boundary: Boundary) -> tuple[tuple[str, str], ...]:
    """A workspace's documents its secret scan could not read (a link out of the
    workspace, a dangling one, no text): said, never taken for clean (the frontmatter
    check, which names them in a tree of memories, does not run over documents)."""
    return tuple(
        (boundary.path(path), boundary.text(f"{problems[0].message}; not scanned"))
        for path, problems in sorted(tree.unread.items())
        if problems
    )


def tree_selection(tree: MemoryTree | TreeRef, selection: Sequence[str]) -> tuple[str, ...]:
    """What runs over this tree: the selection, or of it only the secret rules over a
    workspace's documents (no memories: what the other dimensions judge is not there)."""
    if tree.documents:
        return tuple(d for d in selection if d == SECRET_RULES)
    return tuple(selection)


def audited_refs(refs: Sequence[TreeRef], selection: Sequence[str]) -> list[TreeRef]:
    """The trees the selection has something to run over (a workspace's documents only
    when the secret rules run)."""
    return [ref for ref in refs if tree_selection(ref, selection)]


UNDECODABLE_FLOOD = 3  # files that are no UTF-8, each its own finding up to this many
SHOWN_UNDECODABLE = 5  # named in the finding that lists them


def _one_report_of_unsaved_files(findings: list[Finding]) -> list[Finding]:
    """A file with neither frontmatter nor a way in from the index is one cause (no session
    saved it as a memory), reported once: by the frontmatter dimension's one finding when it
    ran and named the file's folder or series as documents of another kind; else by
    ``orphans``, one finding a file, or one listing them all past ``UNSAVED_FLOOD``; the
    file's own ``no-frontmatter`` goes."""
    unsaved = [f for f in findings if f.code == "orphan-candidate" and UNSAVED in f.message]
    if not unsaved:
        return findings
    grouped = {
        path
        for f in findings
        if f.code == "no-frontmatter" and f.related
        for path in (f.path, *f.related)
    }
    rest = [f for f in unsaved if f.path not in grouped]
    listed = len(rest) > UNSAVED_FLOOD
    dropped = {id(f) for f in unsaved if listed or f.path in grouped}
    orphaned = {f.path for f in unsaved}
    kept: list[Finding] = []
    for f in findings:
        if f.code == "no-frontmatter" and not f.related and f.path in orphaned:
            continue
        if id(f) in dropped:
            if listed and f is rest[0]:  # the list where its first file's finding stood
                kept.append(unsaved_list(f.dimension, [r.path for r in rest]))
            continue
        kept.append(f)
    return kept


def _one_report_of_undecodable_files(findings: list[Finding]) -> list[Finding]:
    """Files that are no UTF-8 for one cause are one finding past ``UNDECODABLE_FLOOD`` of
    them (what writes them; a held-out tree had 76 files damaged alike, one finding each),
    where the first one's stood, listing them all; the cause is told by the advice (another
    encoding, or characters cut short), each dimension's apart. A file whose characters were
    cut short has no ``unparseable-frontmatter`` of its own: its block broke with the damage,
    which the restore the damage finding asks for mends (on that tree, a quote lost with a
    character's last byte)."""
    bad = [f for f in findings if f.code == "not-utf8"]
    damaged = {f.path for f in bad if f.suggestion == DAMAGED_UTF8}
    causes: dict[tuple[str, str | None], list[Finding]] = {}
    for f in bad:
        causes.setdefault((f.dimension, f.suggestion), []).append(f)
    replaced: dict[int, Finding | None] = {}
    for group in causes.values():
        if len(group) <= UNDECODABLE_FLOOD:
            continue
        first, paths = group[0], [f.path for f in group]
        replaced |= {id(f): None for f in group[1:]}
        replaced[id(first)] = dataclasses.replace(
            first,
            message=f"{len(group)} files are no valid UTF-8 ({listed(paths, SHOWN_UNDECODABLE)});"
            f" the first, line {first.line}: {first.message}",
            related=tuple(paths[1:]),
            # one cause: the same whichever file sorts first as files come and go
            fingerprint=fingerprint(first.dimension, first.code, "", f"files:{first.suggestion}"),
        )
    kept: list[Finding] = []
    for f in findings:
        if f.code == "unparseable-frontmatter" and f.path in damaged:
            continue
        found = replaced.get(id(f), f)
        if found is not None:
            kept.append(found)
    return kept


def _of_tree(tree: MemoryTree, findings: list[Finding]) -> list[Finding]:
    """Every fingerprint names its tree: a dismissal in one project never hides another's."""
    identity = tree_identity(tree.root)
    return [dataclasses.replace(f, fingerprint=scoped(identity, f.fingerprint)) for f in findings]


def _shown(report: TreeReport, options: Mapping[str, Any] | None) -> TreeReport:
    """A tree not read, as reports show it: a secret in its folder's names masked."""
    where = [str(report.root), report.project or "", str(report.project_path or "")]
    boundary = names_boundary((options or {}).get(SECRET_RULES), where)
    return dataclasses.replace(
        report,
        root=Path(boundary.path(str(report.root))),
        project=_masked(boundary, report.project),
        project_path=_masked_folder(boundary, report.project_path),
    )


def _masked_agent(boundary: Boundary, agent: AgentStore | None) -> AgentStore | None:
    return None if agent is None else dataclasses.replace(agent, name=boundary.path(agent.name))


def _masked(boundary: Boundary, text: str | None) -> str | None:
    return None if text is None else boundary.path(text)


def _masked_folder(boundary: Boundary, folder: Path | None) -> Path | None:
    return None if folder is None else Path(boundary.path(str(folder)))


def _leveled(finding: Finding, *, copy: bool = False, unloaded: bool = False) -> Finding:
    """The finding with its level: its check's word, or its dimension's table (in a
    repository's copy of memory, the codes measured mostly wrong there are suggestions; in
    a store no agent loads, all but a secret's)."""
    dimension = BY_ID[finding.dimension]
    if unloaded and finding.dimension != SECRET_RULES:  # the secrets dimension
        return dataclasses.replace(finding, level=Level.SUGGESTION.value)
    if copy and finding.code in dimension.copy_suggestions:
        return dataclasses.replace(finding, level=Level.SUGGESTION.value)
    if finding.level is not None:
        return finding
    return dataclasses.replace(finding, level=dimension.level(finding.code).value)


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
    window = holder(Role.SESSION_WINDOW)
    sessions = options.get(window) or REGISTRY[window].Options()
    return dataclasses.replace(health, sessions=session_use(tree, sessions, ran, findings))


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
    """The tree's redaction boundary, from the secret rules."""
    return tree_boundary(
        tree, boundary_scanner(secrets_options), decode_frontmatter=decode_frontmatter
    )


def names_boundary(secrets_options: Any, names: Iterable[str]) -> Boundary:
    """The boundary of paths shown without a tree loaded (``projects``, ``history``): a
    secret in a folder or file name is masked like one in a file."""
    return Boundary.for_names(boundary_scanner(secrets_options), names)


def shown_tree(config: Config, ref: TreeRef) -> Callable[[str], str]:
    """A tree's path and label as commands show them and name their files after them: a
    secret in a folder's name (a project folder that is a token) masked, the same way at
    every run (the path alone is scanned, not the tree)."""
    return names_boundary(config.check_options(SECRET_RULES), [str(ref.root), ref.label]).path


def boundary_scanner(secrets_options: Any) -> Scanner:
    """The secret rules' masking scanner (the bundled ones when the patterns file is
    unusable: the boundary never turns itself off)."""
    return masking_scanner(secrets_options)


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
            0 if finding.code in BY_ID[finding.dimension].leading else 1,
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
    # The secret rules also configure the redaction boundary, selected or not.
    options = {d: config.check_options(d) for d in {*selection, SECRET_RULES}}
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
        return _shown(busy_report(ref, age), options)
    try:
        with collection_paused():
            return audit_tree(load_ref(ref, config, now), selection, options, dismissed)
    except Exception as exc:  # one tree's failure is that tree's error entry, not the run's
        message = f"the audit of this tree failed ({describe(exc)}); not audited"
        return _shown(not_audited(ref.root, ref.location, TREE_FOLDER, message), options)


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection while one tree is loaded and audited.

    A snapshot holds a tree's parses (millions of objects at 10,000 files) until its
    report is made, and makes almost no cycles: each full collection walked every one of
    them and freed nothing (7 in a 10,000-file audit, about 15% of its CPU time).
    Reference counting frees all the rest as before; collection resumes, where it was on,
    once the tree is done, and its next collection frees what cycles the tree left."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def load_ref(ref: TreeRef, config: Config, now: dt.datetime | None = None) -> MemoryTree:
    """One tree, read with the user's settings (profile, size limit, recap names)."""
    return load_tree(
        ref.root,
        location=ref.location,
        documents=ref.documents,
        profile=config.settings.audit.profile,
        max_file_bytes=config.settings.audit.max_file_bytes,
        now=now,
        recap_globs=recap_globs(config),
    )


def recap_globs(config: Config) -> tuple[str, ...]:
    """The configured recap names; unconfigured, the default, without importing that check."""
    configured = config.checks.get(holder(Role.RECAP_NAMES))
    return DEFAULT_RECAP_GLOBS if configured is None else tuple(configured.recap_globs)


def busy_report(ref: TreeRef, age: float) -> TreeReport:
    message = (
        f"Claude Code is consolidating this tree (lock taken {int(age // 60)} min ago); "
        "not audited, try again later"
    )
    return not_audited(ref.root, ref.location, CONSOLIDATION_LOCK, message)


def not_audited(root: Path, location: ProjectLocation, path: str, message: str) -> TreeReport:
    """A tree none of whose findings are known: one error entry says why."""
    return escaped_all(
        TreeReport(
            root=root,
            project=location.slug,
            project_path=location.project_path,
            agent=location.agent,
            profile="claude-code",
            memory_files=0,
            session_recaps=0,
            has_index=False,
            health=Health(0, 0, 0, 0, (), 0, 0),
            findings=(),
            errors=((path, message),),
        )
    )
