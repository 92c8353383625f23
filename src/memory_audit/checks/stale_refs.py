"""Stale references: memories that describe files or commits the project no longer has.

Stale means the project once had it, and each finding says why:

- ``deleted-file-reference``: a path the project's history deleted ("deleted in
  1a2b3c4 (2026-05-02)"); when the project has one file of the same name now, the
  suggestion names it; more than three in one memory are one finding listing them
  (a file table after a cleanup). A file whose deleting commit says it moved into a package
  or another repository ("extract brain logic to nanobot-brain package") lives on there:
  skipped, with the count. ``renamed-file-reference`` when git saw a rename, or when the
  deleting commit added one file of the same name (a move whose content changed too
  much for git to pair them), with the new path as the suggestion (``review`` offers
  the replacement); more than three in one memory are one finding whose one edit updates
  them all (skills each moved into a folder of its own). A bare file name is looked up
  wherever the history had it; a folder is deleted when the history had files under it
  and none remain.
- ``missing-file-reference`` (a note): a path with an extension, in a folder the
  project has, that was never in its history; or, on this machine, a ``~/`` or
  absolute path that is not there. More than three in one memory, missing for one
  reason, are one finding listing them (a memory written on another machine).
- ``stale-commit-reference``: a hash the line labels a commit ("commit abc1234",
  "fixed in") that no branch or tag of the project reaches, unless the line
  names another repository ("frontend-app commit …"); the message says whether the
  object is still in the repository (rebased or squashed away) or was never in this
  clone (a rewritten history, or another repository's commit). A hash the project
  lacks is looked up in its checked-out submodules, whose commits are its own work; while
  one is not checked out, such a hash is skipped with the count. A suggestion: on
  unseen trees most such hashes were another repository's, or a rewrite the memory
  itself records.
- ``outdated-reference``: an id matching a configured ``design_docs`` pattern
  that its planning file no longer mentions.

A reference is a claim only when it looks like one (see
``analysis/references.py``): word lists, branches, globs, placeholders, URLs,
examples, generated folders and lines that say a thing was renamed, moved or
deleted (or lists such a line introduces) are not; nor is a path whose sentence
says it is absent, empty or not to be used. A removed path is history, not a
claim, in an entry of a dated log written on or before the removal (a line that
starts with its date, or one under a dated heading that says what was done, itself or
in the line that opens its list: "Files changed:"), in a pasted diffstat, and
in a memory that cites the removing commit, or on a line that reports its writer's act
("- created `docs/why.html`") in a memory the project had before the removal. A removed
or moved path is history in a
note named for a day on or before it (a daily log, a briefing: ``2026-05-01.md``) or
added by the removing commit itself (a compaction's record of what it moved), and in an
archived memory (counted under ``skipped``). The history is one ``git
log`` for the whole tree, cached by HEAD. ``~/`` and absolute paths are checked
only for a Claude Code tree on this machine. MEMORY.md is scanned; session
recaps (stale by nature) are not. What
could not be checked (no project, shallow clone, no git) is listed under
``skipped``.

Failing::

    deploy.md:   Deploys run `scripts/deploy.sh` (fixed in commit 4f2a91c).
    (git rm scripts/deploy.sh in 1a2b3c4; 4f2a91c was rebased away)

Passing: the same memory after the change, citing the current script and a commit in history.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.analysis.project_paths import Status, Verdict
from memory_audit.analysis.references import Reference, commit_references
from memory_audit.analysis.stale_sources import (
    Project,
    Source,
    check_paths,
    locate,
    scanned_sources,
)
from memory_audit.config.fields import INTERNAL
from memory_audit.model.finding import Finding, Skip, listed_at, make_finding
from memory_audit.regular_files import read_regular
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.loading import ScannerConfig, masking_scanner
from memory_audit.sources.git import (
    GitUnavailable,
    Repository,
    checked_out_submodules,
    look_up_objects,
    reachable,
)
from memory_audit.sources.git_history import Removal
from memory_audit.tree.snapshot import MemoryTree

ID = "stale-refs"
GROUPED = 3  # more deleted (or missing) files than this in one memory: one finding for it
SHOWN = 8  # names and lines shown in a grouped finding's message
DOC_READ_LIMIT = 4 * 1024 * 1024
CODE_SPAN = re.compile(r"`([^`\n]+)`")  # a name a finding shows, as its messages quote them
# When no commit the tree cites is in the project, the tree cites another repository's
# history (global memory kept in a dotfiles repository): none of them is evidence here.
NOT_THIS_PROJECTS = "none of them is in this project's history (another repository's commits?)"


def _regex_error(value: str) -> str | None:
    try:
        re.compile(value)
    except re.error as exc:
        return f"not a valid regular expression ({exc})"
    return None if value else "must not be empty"


def _nonempty(value: str) -> str | None:
    return None if value.strip() else "must not be empty"


@dataclass(frozen=True)
class DesignDoc:
    pattern: str = field(default="", metadata={"check": _regex_error})
    file: str = field(default="", metadata={"check": _nonempty})


@dataclass(frozen=True)
class Options:
    paths: bool = True
    commits: bool = True
    design_docs: tuple[DesignDoc, ...] = ()
    # also report paths never in the history (a note): off by default, because on real
    # trees most were planned files, runtime files or another repository's (docs/benchmarks.md)
    never_existed: bool = False
    # where the history cache lives: the configured state.dir
    state_dir: str | None = field(default=None, metadata=INTERNAL)


def _names_without_secrets(state_dir: str | None) -> Callable[[list[str]], bool]:
    """Whether none of the paths' names holds a secret, as outputs mask names: the history
    cache (a stored file) keeps a project's paths only then."""

    def storable(paths: list[str]) -> bool:
        return not Boundary.for_names(masking_scanner(ScannerConfig(state_dir=state_dir)), paths)

    return storable


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    yield from _names_masked(list(_check(tree, options)), options.state_dir)


def _names_masked(items: list[Finding | Skip], state_dir: str | None) -> Iterator[Finding | Skip]:
    """The findings with a secret in a name they show masked: names come from the project's
    history and folders too (a file renamed to ``keys/<token>.sh``, a submodule's path), which
    the engine's boundary, made of the tree, does not know. Such a finding offers no edit:
    it would write the name, the secret with it, into the memory (or a masked name)."""
    shown = [s.reason for s in items if isinstance(s, Skip)]
    for item in items:
        if isinstance(item, Finding):
            shown += CODE_SPAN.findall(f"{item.message}\n{item.suggestion or ''}")
    boundary = (
        Boundary.for_names(masking_scanner(ScannerConfig(state_dir=state_dir)), shown)
        if shown
        else Boundary(())
    )
    if not boundary:
        yield from items
        return
    for item in items:
        if isinstance(item, Skip):
            yield dataclasses.replace(item, reason=boundary.text(item.reason))
            continue
        message = boundary.text(item.message)
        suggestion = None if item.suggestion is None else boundary.text(item.suggestion)
        if message == item.message and suggestion == item.suggestion:
            yield item
        else:
            yield dataclasses.replace(item, message=message, suggestion=suggestion, fix=None)


def _check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    sources = scanned_sources(tree)
    project = locate(
        tree,
        options.state_dir,
        report_never=options.never_existed,
        storable=_names_without_secrets(options.state_dir),
    )
    yield from (Skip(ID, reason) for reason in project.notes)
    if options.paths:
        stale, skipped = check_paths(tree, project, sources)
        yield from _grouped(stale)
        yield from (Skip(ID, reason) for reason in skipped)
    if options.commits:
        yield from _commits(project, sources)
    for doc in options.design_docs:
        yield from _design_doc(tree, sources, doc)


def _path_finding(source: Source, ref: Reference, verdict: Verdict) -> Finding:
    shown = f"`{ref.text}`"
    removal = verdict.removal
    if verdict.status is Status.REMOVED and removal is not None:
        when = f"{removal.commit[:7]} ({removal.date})"
        if verdict.renamed_to:
            how = "moved" if verdict.moved else "renamed"
            return make_finding(
                ID,
                "renamed-file-reference",
                source.path,
                ref.line,
                f"{shown} was {how} to `{verdict.renamed_to}` in {when}",
                f"update the reference to `{verdict.renamed_to}`",
                key=ref.text,
                fix=_replace(source, ref, verdict.renamed_to, verdict.path),
            )
        return make_finding(
            ID,
            "deleted-file-reference",
            source.path,
            ref.line,
            f"{shown} was deleted from the project in {when}",
            _deleted_suggestion(verdict, removal),
            key=ref.text,
        )
    return _missing(source, ref, verdict)


def _grouped(stale: list[tuple[Source, Reference, Verdict]]) -> Iterator[Finding]:
    """A memory describing more than ``GROUPED`` deleted files (a module's file table after
    a cleanup), or naming more than ``GROUPED`` paths missing for one reason (a machine's
    folders, written on another machine), is one decision about that memory: one finding
    listing them, not a flood."""
    deleted: dict[str, list[tuple[Reference, Verdict]]] = defaultdict(list)
    renamed: dict[str, list[tuple[Source, Reference, Verdict]]] = defaultdict(list)
    missing: dict[tuple[str, str], list[Reference]] = defaultdict(list)
    for source, ref, verdict in stale:
        removed = verdict.status is Status.REMOVED and verdict.removal is not None
        if removed and verdict.renamed_to:
            renamed[source.path].append((source, ref, verdict))
        elif removed:
            deleted[source.path].append((ref, verdict))
        else:  # what _path_finding reports as missing
            missing[(source.path, _missing_why(ref, verdict))].append(ref)
    many = {path for path, items in deleted.items() if len(items) > GROUPED}
    many_renamed = {path for path, items in renamed.items() if len(items) > GROUPED}
    many_missing = {key for key, refs in missing.items() if len(refs) > GROUPED}
    folded = {id(ref) for path in many for ref, _ in deleted[path]}
    folded |= {id(ref) for path in many_renamed for _, ref, _ in renamed[path]}
    folded |= {id(ref) for key in many_missing for ref in missing[key]}
    for source, ref, verdict in stale:
        if id(ref) not in folded:
            yield _path_finding(source, ref, verdict)
    for path in sorted(many):
        yield _deleted_files(path, deleted[path])
    for path in sorted(many_renamed):
        yield _renamed_files(path, renamed[path])
    for path, why in sorted(many_missing):
        yield _missing_files(path, why, missing[(path, why)])


def _listing(refs: list[Reference]) -> tuple[list[str], list[int], str]:
    """A grouped finding's paths, its lines, and how its message lists them (the first
    ``SHOWN`` paths, "and 3 more", then "(lines 4, 9, …)")."""
    names = list(dict.fromkeys(ref.text for ref in refs))
    lines = sorted({ref.line for ref in refs})
    return names, lines, listed_at(names, lines, SHOWN)


def _missing_files(path: str, why: str, refs: list[Reference]) -> Finding:
    names, lines, listed = _listing(refs)
    verb = why.replace("is not", "are not").replace("was never", "were never")
    return make_finding(
        ID,
        "missing-file-reference",
        path,
        lines[0],
        f"{len(names)} paths it names {verb}: {listed}",
        "check the paths: fix them, or remove what no longer applies (a memory written on"
        " another machine names that machine's folders)",
        key="missing-files",
        related=tuple(names),
        judgment=True,
    )


def _deleted_files(path: str, items: list[tuple[Reference, Verdict]]) -> Finding:
    names, lines, listed = _listing([ref for ref, _ in items])
    return make_finding(
        ID,
        "deleted-file-reference",
        path,
        lines[0],
        f"{len(names)} files it describes were deleted from the project: {listed}",
        "update the memory to what the project has now, or remove it if it only describes"
        " what was deleted",
        key="deleted-files",
        related=tuple(names),
    )


def _renamed_files(path: str, items: list[tuple[Source, Reference, Verdict]]) -> Finding:
    """References to files the project renamed or moved since (a folder of skills each
    given its own folder), one memory's worth: one finding, and one edit for all of them."""
    moves = {ref.text: str(verdict.renamed_to) for _, ref, verdict in items}
    names, lines, _ = _listing([ref for _, ref, _ in items])
    listing = listed_at(names, lines, SHOWN, lambda name: f"`{name}` → `{moves[name]}`")
    replacements: dict[tuple[object, object], dict[str, object]] = {}
    for source, ref, verdict in items:  # a path cited twice on a line: one replacement
        edit = _replace(source, ref, str(verdict.renamed_to), verdict.path)
        replacements[(edit["line"], edit["old"])] = {k: edit[k] for k in ("line", "old", "new")}
    return make_finding(
        ID,
        "renamed-file-reference",
        path,
        lines[0],
        f"{len(names)} files it names were renamed or moved: {listing}",
        "update the references to where the files are now",
        key="renamed-files",
        related=tuple(names),
        fix={"action": "replace-texts", "path": path, "replacements": list(replacements.values())},
    )


def _deleted_suggestion(verdict: Verdict, removal: Removal) -> str:
    """The one same-named file the project has now, when there is one: added with or after
    the deletion it is most likely the file's successor; added before, it may be."""
    namesake, added = verdict.namesake, verdict.namesake_added
    if namesake is None:
        return "remove or update the memory: it describes a file the project no longer has"
    since = f" (added in {added.commit[:7]} ({added.date}))" if added is not None else ""
    if added is not None and added.date >= removal.date:
        return f"`{namesake}` exists now{since}: update the reference"
    return (
        f"`{namesake}` exists now{since}: update the reference if it is the same file, "
        "otherwise remove or update the memory"
    )


def _replace(source: Source, ref: Reference, new: str, matched: str) -> dict[str, object]:
    """The fix: the cited path becomes the new one, keeping the memory's way of writing it
    (a memory citing ``src/x.py`` for the project's ``app/src/x.py`` gets ``src/y.py``)."""
    head = matched[: len(matched) - len(ref.text)] if matched.endswith(ref.text) else ""
    replacement = new[len(head) :] if head and new.startswith(head) else new
    return {
        "action": "replace-text",
        "path": source.path,
        "line": ref.line,
        "old": ref.text,
        "new": replacement,
    }


def _missing_why(ref: Reference, verdict: Verdict) -> str:
    if verdict.status is Status.NEVER:
        return "was never in the project's history"
    if ref.text.startswith(("~/", "/")):
        return "is not on this machine"
    return "is not in the project (its history could not be read)"


def _missing(source: Source, ref: Reference, verdict: Verdict) -> Finding:
    why = _missing_why(ref, verdict)
    return make_finding(
        ID,
        "missing-file-reference",
        source.path,
        ref.line,
        f"`{ref.text}` {why}",
        "check the path: fix it, or remove it if the memory no longer applies",
        key=ref.text,
        judgment=True,
    )


def _commits(project: Project, sources: list[Source]) -> Iterator[Finding | Skip]:
    refs = [(s, r) for s in sources for r in commit_references(s.lines, s.first_line, s.markdown)]
    if not refs:
        return
    if project.repository is None or project.repository.shallow:
        why = project.commit_skip or "project not located"
        yield Skip(ID, f"{len(refs)} commit reference(s) not checked — {why}")
        return
    try:
        answers = look_up_objects(project.repository, {r.text for _, r in refs})
        live = reachable(project.repository, answers.commits.values())
    except GitUnavailable as exc:
        yield Skip(ID, f"{len(refs)} commit reference(s) not checked — {exc}")
        return
    if answers.other_objects:
        kinds = ", ".join(sorted(set(answers.other_objects.values())))
        yield Skip(ID, f"{len(answers.other_objects)} hash(es) name a {kinds}, not a commit")
    if not live:
        yield Skip(ID, f"{len(refs)} commit reference(s) not checked — {NOT_THIS_PROJECTS}")
        return
    foreign = _foreign_files(refs, answers.commits)
    for path, count in sorted(foreign.items()):
        yield Skip(ID, f"{count} commit reference(s) in {path} not checked — {NOT_THIS_PROJECTS}")
    absent = {r.text for _, r in refs} - answers.commits.keys() - answers.other_objects.keys()
    try:
        submodules = _submodule_commits(project.repository, absent)
    except GitUnavailable:
        submodules = _Submodules()
    checked = [(s, r) for s, r in refs if r.text not in answers.other_objects]
    yield from _stale_commits(
        [(s, r) for s, r in checked if s.path not in foreign], answers.commits, live, submodules
    )


@dataclass
class _Submodules:
    """What the project's submodules say of the hashes it lacks: those a submodule's branch
    or tag reaches, those a submodule has but no longer reaches (rebased away there), and
    the submodules not checked out (whose commits no lookup here can tell from a rewrite)."""

    live: set[str] = field(default_factory=set)
    unreachable: set[str] = field(default_factory=set)
    not_checked_out: list[str] = field(default_factory=list)


def _stale_commits(
    refs: list[tuple[Source, Reference]],
    present: Mapping[str, str],
    live: set[str],
    submodules: _Submodules,
) -> Iterator[Finding | Skip]:
    """The references to commits no branch reaches (``present``: the full hash of each the
    repository has), past the live commits of the checked-out submodules; one skip counts
    those that the submodules not checked out may hold."""
    unverifiable = 0
    for source, ref in refs:
        full = present.get(ref.text)
        if full is None and ref.text in submodules.live:
            continue  # a submodule's commit: the project's, kept in its own repository
        if full is None and ref.text in submodules.unreachable:
            yield _stale_commit(source, ref, present=True)  # rebased away in the submodule
            continue
        if full is None and submodules.not_checked_out:
            unverifiable += 1
            continue
        if full is None or full not in live:
            yield _stale_commit(source, ref, present=full is not None)
    if unverifiable:
        names = submodules.not_checked_out
        more = ", ..." if len(names) > SHOWN else ""
        yield Skip(
            ID,
            f"{unverifiable} commit reference(s) not checked — not in this repository, and"
            f" its submodules {', '.join(names[:SHOWN])}{more} are not checked out"
            " (their commits?)",
        )


def _submodule_commits(repository: Repository, hashes: set[str]) -> _Submodules:
    """What the project's submodules say of ``hashes``: a superproject's memories cite its
    submodules' commits as its own."""
    found = _Submodules()
    if not hashes:
        return found
    checked_out, found.not_checked_out = checked_out_submodules(repository)
    for submodule in checked_out:
        left = hashes - found.live - found.unreachable
        if not left:
            break
        commits = look_up_objects(submodule, left).commits
        reached = reachable(submodule, commits.values())
        for asked, full in commits.items():
            (found.live if full in reached else found.unreachable).add(asked)
    return found


def _foreign_files(
    refs: list[tuple[Source, Reference]], present: Mapping[str, str]
) -> dict[str, int]:
    """Files citing two or more hashes of which none is in this repository at all: a log of
    other projects' work (the tree-wide rule above, for one file)."""
    cited: dict[str, set[str]] = defaultdict(set)
    for source, ref in refs:
        cited[source.path].add(ref.text)
    return {
        path: len(hashes)
        for path, hashes in cited.items()
        if len(hashes) >= 2 and not any(h in present for h in hashes)
    }


def _stale_commit(source: Source, ref: Reference, *, present: bool) -> Finding:
    if present:  # this project's commit, rebased or squashed away: the object is here
        return make_finding(
            ID,
            "stale-commit-reference",
            source.path,
            ref.line,
            f"commit `{ref.text}` is no longer reachable from any branch or tag (rebased or"
            " squashed away)",
            "update the hash to the commit that now holds the change, or remove it",
            key=ref.text,
        )
    # Never in this clone: a rewritten history, or (on real trees, most often) another
    # repository's commit the line does not name: worth a look, not a proven problem.
    return make_finding(
        ID,
        "stale-commit-reference",
        source.path,
        ref.line,
        f"commit `{ref.text}` is not in the project's history (rewritten away, or another"
        " repository's?)",
        "if it was this project's, update the hash to the commit that now holds the change;"
        " if it is another repository's, name that repository beside it",
        key=ref.text,
    )


def _design_doc(
    tree: MemoryTree, sources: list[Source], doc: DesignDoc
) -> Iterator[Finding | Skip]:
    path = Path(doc.file).expanduser()
    if not path.is_absolute():
        if tree.location.project_path is None:
            yield Skip(ID, f"design ids ({doc.pattern}) not checked — project root not located")
            return
        path = tree.location.project_path / path
    try:
        planning = read_regular(path, DOC_READ_LIMIT).decode("utf-8", "replace")
    except OSError:
        yield Skip(ID, f"design ids ({doc.pattern}) not checked — {path} not found")
        return
    pattern = re.compile(doc.pattern)
    cited: dict[tuple[str, str], int] = defaultdict(int)
    for source in sources:
        for number, text in enumerate(source.lines, start=source.first_line):
            for match in pattern.finditer(text):
                if match.group(0) not in planning and (source.path, match.group(0)) not in cited:
                    cited[(source.path, match.group(0))] = number
    for (memory_path, ident), number in sorted(cited.items()):
        yield make_finding(
            ID,
            "outdated-reference",
            memory_path,
            number,
            f"cites `{ident}`, which {doc.file} no longer mentions",
            f"look up what `{ident}` became in {doc.file} and update the memory",
            key=ident,
        )
