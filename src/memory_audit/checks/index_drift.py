"""MEMORY.md index drift: the index and the files on disk disagree.

Reports, for the index at the root of the tree:

- ``missing-index``: there is no MEMORY.md (or it cannot be read); when the
  folder above holds one (a copied memory folder), it says so: Claude Code reads
  the index only inside the memory folder (``orphans`` then judges nothing). For
  a folder outside Claude Code's own (a repository keeping a copy with its index
  one level up, its own layout) that is a suggestion: such a copy is not loaded.
  Outside Claude Code's own folders, a folder with no MEMORY.md and no frontmatter
  block in any file (no agent's store) is another program's notes: skipped, not
  reported (Claude Code writes both with its first memory);
- ``broken-index-link``: an index line links a file that does not exist. Not
  links: a template placeholder (``{module}_project.md``, ``<name>.md``,
  ``[your-name].md``); and in a
  copy of a tree (a repository, not Claude Code's folder on this machine) a link out
  of the repository or into a ``.claude`` folder the copy lacks resolves only where
  the tree is installed. Both are counted under ``skipped``, as are links to files
  the repository's ``.gitignore`` keeps out. In such a copy, a link to a file no commit
  of the repository ever held, in the tree or out of it (``../../docs/plan.md``: a
  document never committed), is a suggestion with no fix: the copy cannot tell it is gone.
  An index alone in its folder none of whose two or more notes exists (scaffolded before
  its notes were written, or copied without them) is one finding with no fix: each
  entry's hook is the only record of its fact. So is any entry of a missing note whose
  hook says something of its own (``— never leave the GPU idle``: not only the note's
  title or name again) when nothing shows the note deleted (a copy's history, or the
  entry itself: ``— removed``, ``— superseded by ...``): the finding proves the link
  wrong, not what the line says, so no fix removes the line. Two or more dead links out of
  the tree into one folder that does not exist at all (``../../../plans/``) are one finding
  listing them, with no fix: the folder moved or is not installed here. In such a copy,
  wikilink entries (``- [[origin]] - Origin``) that name a note of the repository outside
  the tree (a vault finds notes by name) are not broken (counted under ``skipped``), and
  those no commit of the repository ever held a note for (a vault's concepts, or notes
  never written) are one suggestion listing them, with no fix; a note of that name the
  tree's own history held and deleted leaves its entry broken;
- ``stale-index-path``: the linked file is gone but exactly one unindexed file
  with the same name exists elsewhere in the tree (it was moved), or exactly one unindexed
  note's frontmatter ``name`` is the linked file's name, or its file name is the linked one
  but for case and separators (``game-mvp`` for ``game_mvp``: it was renamed); in a copy kept in
  a repository, also when the one file of that name is elsewhere in the repository
  (a note moved to ``clients/<name>/memory/``): the fix updates the path;
- ``missing-index-entry`` (only with ``flat_index: true``, user judgment): a
  memory reachable from MEMORY.md through a hub, archive or relation, but with
  no index line of its own. Recaps (``sessions/``) and superseded files are
  exempt: the index should not list them. A memory that nothing reachable
  leads to is reported once, by ``orphans``, never here;
- ``duplicate-index-entry``: two index lines link the same file (a line naming the
  file without a link, ``See `notes.md` for the limits.``, is often a section's pointer
  beside the file's entry: never a duplicate, never a line to delete);
- ``index-not-read``: lines too long or too dense in ``[`` to parse in bounded
  time (a 1 MB line of brackets): entries there were not checked.

Entries are read as CommonMark reads them: a link inside a code span or code
block is no entry.

A folder without MEMORY.md that a CLAUDE.md, AGENTS.md or MEMORY.md above it (up to the
project root) names or links into (``clients/[domain]/memory/``, ``memory/roadmap.md``)
is read through that file: outside Claude Code's own folders, its ``missing-index`` is a
suggestion naming that file and line.

Failing::

    MEMORY.md:   - [Testing](feedback_testing.md) — no DB mocks
    on disk:     feedback/feedback_testing.md

    MEMORY.md:1 — index path `feedback_testing.md` is stale; the file is now at
    `feedback/feedback_testing.md`. Suggest: update the link.

Passing: every index link resolving, no file linked twice.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from urllib.parse import unquote

from memory_audit.analysis.file_problems import problem_findings
from memory_audit.analysis.outside_links import (
    leads_into_the_slug_folder,
    real_folder,
    resolves_where_written,
)
from memory_audit.analysis.routing_files import routed_from
from memory_audit.analysis.tree_home import (
    on_this_machine,
    repository_copy,
    written_by_another_program,
)
from memory_audit.analysis.wikilinks import as_wikilink, near_name, wikilink_resolves
from memory_audit.model.finding import Finding, Skip, listed_at, make_finding
from memory_audit.sources.git import (
    GitUnavailable,
    Repository,
    ignored,
    open_repository,
    run_git,
)
from memory_audit.sources.project_files import files_named
from memory_audit.tree.file_kinds import in_archive
from memory_audit.tree.index_file import INDEX_NAME, IndexEntry, IndexLink
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.slugs import auto_memory_projects
from memory_audit.tree.snapshot import MemoryTree, Target, name_key
from memory_audit.tree.walk import ENCRYPTED

ID = "index-drift"
MORE_WORDS = 2  # words a duplicate line's hook adds before removing it would lose them
# Words of its own a missing note's entry holds before removing it would lose what it said,
# not counting the note's title and name nor words that only announce them.
HOOK_WORDS = 1
FILLER_WORDS = frozenset(
    "notes note about on the a an of for and see details info more file".split()
)
# Words by which an entry records its note deleted: its removal is what the entry says.
# Not words a fact uses of its subject (``— deprecated endpoints to avoid``, ``— archived
# designs``): those keep the entry.
REMOVAL_WORDS = frozenset("removed deleted superseded obsolete".split())
# Link targets that name what a link holds, written as an example of a format.
PLACEHOLDER_TARGETS = frozenset("url uri link href path file target".split())
FOLDER_SHOWN = 5  # of the links into one missing folder, those a finding names


@dataclass(frozen=True)
class Options:
    flat_index: bool = False  # every memory needs its own MEMORY.md line, hubs or not


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    if tree.index is None:
        there = os.path.lexists(tree.root / INDEX_NAME)  # a folder, a dangling link, ...
        foreign = written_by_another_program(tree)
        if foreign is not None:
            yield Skip(ID, foreign)
        elif there or tree.memories or tree.unread or tree.errors or tree.index_above:
            yield _missing_index(tree)
        # else an empty store: Claude Code writes MEMORY.md with the first memory
        return
    # read, but with bytes that are no UTF-8 (a session reads them as replacement marks)
    yield from problem_findings(ID, INDEX_NAME, tree.index_problems)
    yield from _links(tree)
    if options.flat_index:
        for memory in sorted(tree.memories, key=lambda m: m.path):
            if (
                memory.path in tree.reachable  # unreachable files are orphans' to report
                and memory.path not in tree.index_targets
                and memory.path not in tree.moved_index_targets
                and memory.path not in tree.superseded
            ):
                yield _missing_entry(memory)
    yield from _duplicate_entries(tree)
    yield from _unread_lines(tree.index.unread)


def _links(tree: MemoryTree) -> Iterator[Finding | Skip]:
    """Index links to moved or missing files; missing ones the repository ignores aside."""
    assert tree.index is not None
    moved = {link.line: (link, path) for path, link in tree.moved_index_targets.items()}
    # an entry's own link (its first, on a pointer line): a link in its hook is not it
    pointers = {(e.line, e.links[0]) for e in tree.index.entries if e.is_pointer}
    broken: list[tuple[IndexLink, Target]] = []
    for link, target in tree.index_links:
        if link.line in moved and moved[link.line][0] == link:
            yield _stale_path(link, moved[link.line][1])
        elif not target.exists and not (link.wiki and wikilink_resolves(tree, link.target, "")):
            broken.append((link, target))
    templates, elsewhere, from_project, broken = _not_checkable(tree, broken)
    kept_out = _ignored(tree, [target for _, target in broken])
    broken = [pair for pair in broken if pair[1].path is None or pair[1].path not in kept_out]
    moved_out = _moved_out_of_tree(tree, [link for link, _ in broken])
    uncommitted, deleted = _commit_record(tree, [t for _, t in broken])
    settled, broken = _wiki_entries(tree, broken, pointers)
    yield from settled
    known = [_known_cause(tree, pair, moved_out, uncommitted) for pair in broken]
    missing = [pair for pair, found in zip(broken, known, strict=True) if found is None]
    lone = _lone_index(tree, missing, pointers)
    if lone:
        yield _notes_never_there(lone)
    hooks = {e.line: e.hook for e in tree.index.entries if e.is_pointer}
    in_gone_folders = _into_missing_folders([p for p in missing if p not in lone])
    for links in in_gone_folders.values():
        yield _missing_folder(links)
    grouped = {pair for links in in_gone_folders.values() for pair in links}
    for (link, target), found in zip(broken, known, strict=True):
        if found is not None:
            yield found
        elif (link, target) not in lone and (link, target) not in grouped:
            pointer = (link.line, link) in pointers
            aside = _wikilink_aside(tree, link, pointer=pointer)
            into_slug = leads_into_the_slug_folder(tree, target.absolute)
            gone = _gone(target, deleted) and not into_slug
            # A note no history shows deleted whose entry says something: the entry's hook
            # may be all that is left of it (never written, lost by a copy or a sync).
            only_record = (
                pointer
                and target.inside
                and _identity(target) not in deleted
                and _says_something(hooks.get(link.line, ""), link)
            )
            yield _broken_link(
                link,
                target,
                pointer=pointer,
                aside=aside,
                gone=gone,
                only_record=only_record,
                into_slug=into_slug,
            )
    yield from _skips(kept_out, templates, elsewhere, from_project)


Links = list[tuple[IndexLink, Target]]


def _into_missing_folders(missing: Links) -> dict[str, Links]:
    """Two or more dead links out of the tree into one folder that does not exist at all
    (``../../../plans/``): one cause, the folder gone or moved, not one per link."""
    by_folder: dict[str, Links] = {}
    for link, target in missing:
        if not target.inside and target.absolute is not None:
            by_folder.setdefault(os.path.dirname(target.absolute), []).append((link, target))
    # the disk asked once a folder, for folders with two links or more
    return {
        folder: links
        for folder, links in by_folder.items()
        if len(links) >= 2 and not os.path.isdir(folder)
    }


def _missing_folder(links: Links) -> Finding:
    """The links into one missing folder outside the tree: no fix, as no one link is proved
    wrong (the folder may have moved, or not be installed here)."""
    first = links[0][0]
    written = first.target.rsplit("/", 1)[0] + "/"
    names = [link.target.rsplit("/", 1)[-1] for link, _ in links]
    listed = listed_at(names, [link.line for link, _ in links], FOLDER_SHOWN)
    return make_finding(
        ID,
        "broken-index-link",
        INDEX_NAME,
        first.line,
        f"{len(links)} index links lead into `{written}`, a folder outside the tree that does"
        f" not exist: {listed}",
        "if the folder moved, correct the paths; if its documents are gone, remove the entries",
        key=f"missing-folder:{written}",
        related=tuple(link.target for link, _ in links),
    )


def _skips(
    kept_out: set[str], templates: Links, elsewhere: Links, from_project: Links
) -> Iterator[Skip]:
    """What the index links not reported were, counted by why."""
    if kept_out:
        yield Skip(
            ID,
            f"{len(kept_out)} index link(s) to files the repository ignores (kept out of git"
            " on purpose, so absent from this copy): not reported",
        )
    if from_project:
        yield Skip(
            ID,
            f"{len(from_project)} index link(s) written from the project's folder, where"
            " Claude Code runs (`.claude/agents/x.md`), and found there or in Claude Code's"
            " own folder: not reported",
        )
    if templates:
        yield Skip(ID, f"{len(templates)} index link(s) to a template placeholder: not links")
    if elsewhere:
        yield Skip(
            ID,
            f"{len(elsewhere)} index link(s) out of the repository (or into a .claude folder"
            " this copy lacks), which resolve only where the tree is deployed: not checked here",
        )


def _not_checkable(tree: MemoryTree, broken: Links) -> tuple[Links, Links, Links, Links]:
    """Missing targets split, in one pass (a MEMORY.md may hold thousands): template
    placeholders, links this copy cannot check, links found from the project's folder,
    and the rest."""
    templates: Links = []
    elsewhere: Links = []
    from_project: Links = []
    checked: Links = []
    for pair in broken:
        if resolves_where_written(tree, pair[0].target, pair[1]):
            from_project.append(pair)
        elif is_template(pair[0].target):
            templates.append(pair)
        elif _off_copy(tree, pair[1]):
            elsewhere.append(pair)
        else:
            checked.append(pair)
    return templates, elsewhere, from_project, checked


def is_template(target: str) -> bool:
    """``{module}_project.md``, ``<name>.md``, ``${TOPIC}.md``, a starter template's
    ``people/[your-name].md``: a placeholder to fill in; so is
    a bare word that names what a link holds (``[links](url)`` in a hook that describes a
    format)."""
    if target.lower() in PLACEHOLDER_TARGETS:
        return True
    for first, last in (("{", "}"), ("<", ">"), ("[", "]")):
        start = target.find(first)
        if start >= 0 and target.find(last, start + 1) > start + 1:
            return True
    return False


def _off_copy(tree: MemoryTree, target: Target) -> bool:
    """A link a copy of the tree cannot check: out of the repository holding it, or into a
    ``.claude`` folder it does not hold (``../../.claude/agents/x.md``, which resolves from
    ``~/.claude/projects/<slug>/memory/`` once installed). Claude Code's own trees are
    where their links resolve: there a missing file is missing."""
    if target.inside or target.absolute is None or on_this_machine(tree):
        return False
    parts = target.absolute.split(os.sep)
    if ".claude" in parts:
        claude = os.sep.join(parts[: parts.index(".claude") + 1])
        if not os.path.isdir(claude):
            return True
    repository = _repository(tree)
    if repository is None:
        return False
    return os.path.commonpath([repository, os.path.realpath(target.absolute)]) != repository


def _moved_out_of_tree(tree: MemoryTree, links: list[IndexLink]) -> dict[tuple[int, str], str]:
    """(line, target) -> the path, from the tree, of the one file of the link's name that
    the repository holds outside the tree: a copy whose notes were moved to another memory
    folder of the repository (``clients/<name>/memory/``). Only for copies: what the project
    beside Claude Code's own tree holds is not where its memories go."""
    wanted = {
        (link.line, link.target): name
        for link in links
        if not link.wiki and (name := _file_name(link.target)).endswith(".md")
    }
    in_tree = {path.rsplit("/", 1)[-1] for path in (*tree.files, *tree.present)}
    wanted = {key: name for key, name in wanted.items() if name not in in_tree}
    repository = _repository(tree) if wanted and not on_this_machine(tree) else None
    if repository is None:
        return {}
    found = files_named(Path(repository), set(wanted.values()), outside=tree.root)
    if found is None:
        return {}
    root = real_folder(tree, tree.root).path
    return {
        key: os.path.relpath(os.path.join(repository, found[name][0]), root)
        for key, name in wanted.items()
        if len(found[name]) == 1
    }


def _file_name(target: str) -> str:
    return unquote(target.split("#", 1)[0].split("?", 1)[0]).rstrip("/").rsplit("/", 1)[-1]


def _repository(tree: MemoryTree) -> str | None:
    """The folder of the project holding this copy of the tree: the one the audit was given,
    or the git repository around it."""
    project = tree.location.project_path
    if project is not None:
        folder = real_folder(tree, project)
        if folder.holds_real(real_folder(tree, tree.root).path):
            return folder.path
    repo = _git_repository(tree)
    return os.path.realpath(repo.path) if repo is not None else None


def _git_repository(tree: MemoryTree) -> Repository | None:
    """The git repository the tree is in, asked of git once per snapshot (every broken link
    of a copy asks where its repository ends)."""
    key = ("index-drift-repository",)
    if key not in tree.scratch:
        try:
            tree.scratch[key] = open_repository(tree.root)
        except (GitUnavailable, OSError, ValueError):
            tree.scratch[key] = None
    return cast(Repository | None, tree.scratch[key])


def _in_repository(tree: MemoryTree, targets: list[Target]) -> tuple[Repository, dict[str, str]]:
    """The repository and, for each missing target inside the tree, its path in the
    repository -> its path in the tree; raises GitUnavailable when there is no repository."""
    repo = _git_repository(tree)
    if repo is None:
        raise GitUnavailable("no repository")
    base = os.path.relpath(tree.root, repo.path)
    inside = sorted({t.path for t in targets if t.path is not None})
    return repo, {os.path.normpath(os.path.join(base, p)): p for p in inside}


def _commit_record(tree: MemoryTree, targets: list[Target]) -> tuple[set[str], set[str]]:
    """The missing targets of a copy kept in a repository that no commit ever held, and
    those a commit held (deleted since: broken for sure), by :func:`_identity`. The index
    came from the owner's folder, a note (or, out of the tree, a document:
    ``../../docs/plan.md``) no commit held never did, so the copy cannot tell whether it is
    gone there. One ``git log`` for all of them; Claude Code's own trees are not copies."""
    if not any(t.absolute is not None for t in targets) or not repository_copy(tree):
        return set(), set()
    try:
        repo = _git_repository(tree)
        if repo is None or repo.shallow:
            # a file deleted before the clone's depth would look never committed
            return set(), set()
        names = _repository_paths(repo, targets)
        if not names:
            return set(), set()  # no path would list every file of every commit
        specs = [f":(literal){name}" for name in names]
        # -z: without it git quotes a name that is not ASCII ("caf\303\251.md")
        out = run_git(repo.path, "log", "--all", "--format=", "--name-only", "-z", "--", *specs)
    except (GitUnavailable, OSError, ValueError):
        return set(), set()  # no repository, or git could not tell: the links stay broken
    seen = set(out.split("\0"))
    never = {key for name, key in names.items() if name not in seen}
    return never, {key for name, key in names.items() if name in seen}


def _repository_paths(repo: Repository, targets: list[Target]) -> dict[str, str]:
    """Each target inside the repository, by its path there -> its :func:`_identity`."""
    top = os.path.realpath(repo.path)
    names: dict[str, str] = {}
    for target in targets:
        if target.absolute is None:
            continue
        real = os.path.realpath(target.absolute)
        if real.startswith(top + os.sep):
            names[os.path.relpath(real, top).replace(os.sep, "/")] = _identity(target)
    return names


def _identity(target: Target) -> str:
    """A target inside the tree by its path there, one outside it by its absolute path."""
    return target.path if target.path is not None else target.absolute or ""


def _wiki_entries(
    tree: MemoryTree, broken: Links, pointers: set[tuple[int, IndexLink]]
) -> tuple[list[Finding | Skip], Links]:
    """What the copy's history settles of its wikilink entries (:func:`_wiki_record`), and
    the broken links left to judge."""
    in_repository, unwritten = _wiki_record(tree, broken, pointers)
    settled: list[Finding | Skip] = []
    if unwritten:
        settled.append(_wiki_entries_unwritten(unwritten))
    if in_repository:
        entries = "entry" if len(in_repository) == 1 else "entries"
        settled.append(
            Skip(
                ID,
                f"{len(in_repository)} wikilink {entries} naming a note of the repository"
                " outside the tree (a vault finds notes by name): not reported",
            )
        )
    done = {id(pair[0]) for pair in (*unwritten, *in_repository)}
    return settled, [pair for pair in broken if id(pair[0]) not in done]


def _wiki_record(
    tree: MemoryTree, broken: Links, pointers: set[tuple[int, IndexLink]]
) -> tuple[Links, Links]:
    """The wikilink entries of a repository's copy (``- [[origin]] - Origin``) that name no
    note of the tree, split: those a note of the repository outside the tree answers by
    name (a vault finds ``vault/Projects/Emet-AI.md`` for ``[[emet-ai]]``), and those no
    commit ever held a note for, in any folder: concepts of a graph or notes never written,
    not notes gone, so no fix removes one. A note of that name the tree's own history held
    and deleted leaves its entry broken, as do names that are not ASCII (their keys are
    empty) and names close to a memory's. One ``git log`` of the Markdown files for all."""
    wanted = [
        (link, target)
        for link, target in broken
        if link.wiki
        and target.absolute is None
        and (link.line, link) in pointers
        and name_key(link.target)
        and near_name(tree, link.target) is None
    ]
    if not wanted or not repository_copy(tree):
        return [], []
    try:
        repo = _git_repository(tree)
        if repo is None or repo.shallow:
            return [], []
        markdown = (":(glob)**/*.md", ":(glob)**/*.MD")
        now = run_git(repo.path, "ls-files", "-z", "--", *markdown)
        ever = run_git(repo.path, "log", "--all", "--format=", "--name-only", "-z", "--", *markdown)
    except (GitUnavailable, OSError, ValueError):
        return [], []
    inside = os.path.relpath(tree.root, repo.path).replace(os.sep, "/")
    history = ever.split("\0")
    present = _note_keys(now.split("\0"))
    held = _note_keys(history)
    deleted_here = _note_keys(
        name for name in history if name.startswith(f"{inside}/") or inside == "."
    )
    answered: Links = []
    unwritten: Links = []
    for pair in wanted:
        key = name_key(pair[0].target)
        if key in deleted_here:
            continue  # the tree's own note, deleted: the entry is broken
        if key in present:
            answered.append(pair)
        elif key not in held:
            unwritten.append(pair)
    return answered, unwritten


def _note_keys(names: Iterable[str]) -> set[str]:
    """The name keys of the Markdown files among git's paths."""
    return {name_key(name.rsplit("/", 1)[-1]) for name in names if name.lower().endswith(".md")}


def _wiki_entries_unwritten(links: Links) -> Finding:
    first = links[0][0]
    if len(links) == 1:
        message = (
            f"wikilink entry [[{first.target}]] names no note of this copy, and no commit of"
            " the repository ever held one of that name"
        )
    else:
        names = [link.target for link, _ in links]
        shown = listed_at(names, [link.line for link, _ in links], FOLDER_SHOWN, as_wikilink)
        message = (
            f"{len(links)} wikilink entries name no note of this copy, and no commit of the"
            f" repository ever held one of their names: {shown}"
        )
    return make_finding(
        ID,
        "broken-index-link",
        INDEX_NAME,
        first.line,
        message,
        "write the notes the entries promise, or point them at the notes meant; in a vault"
        " whose links name concepts with no note of their own, they are fine as they are",
        key="wiki-unwritten",  # the index's one such finding: more names keep it dismissed
        related=tuple(link.target for link, _ in links),
        level="suggestion",
    )


def _uncommitted_link(link: IndexLink, *, inside: bool) -> Finding:
    where = "this copy" if inside else "this repository"
    source = "memory folder" if inside else "folder"
    return make_finding(
        ID,
        "broken-index-link",
        INDEX_NAME,
        link.line,
        f"link target `{link.target}` is not in {where}, and no commit of the repository ever"
        " held it",
        f"if the {source} this copy comes from has the file, commit it; if not, remove the entry",
        key=link.target,
        level="suggestion",
    )


def _ignored(tree: MemoryTree, targets: list[Target]) -> set[str]:
    """The missing targets a ``.gitignore`` of the repository holding the tree excludes: a
    memory folder committed with its private notes ignored links files this copy lacks."""
    if not any(t.path is not None for t in targets):
        return set()
    try:
        repo, names = _in_repository(tree, targets)
        return {names[p] for p in ignored(repo, names) if p in names}
    except (GitUnavailable, OSError, ValueError):
        return set()  # no repository, or git could not tell: the links stay broken


def _missing_index(tree: MemoryTree) -> Finding:
    problems = tree.unread.get(INDEX_NAME, ())
    errors = [e.error for e in tree.errors if e.path == INDEX_NAME]
    reason = "; ".join([p.message for p in problems] + errors)
    level = None
    if any(p.code == ENCRYPTED for p in problems):
        # encrypted on purpose (a git-crypt repository not unlocked here): nothing to
        # restore; sessions on the owner's machine read it decrypted
        level = "suggestion"
        message = f"MEMORY.md is encrypted ({reason}) — index cannot be checked"
        suggestion = "unlock the repository (`git-crypt unlock`) and audit again"
    elif reason:
        message = f"MEMORY.md cannot be read ({reason}) — index cannot be checked"
        suggestion = "restore MEMORY.md as UTF-8 text, one pointer line per memory file"
    elif tree.index_above:
        message = (
            "MEMORY.md is missing here; the one in the folder above is not this folder's index"
            " for Claude Code, which reads MEMORY.md only inside the memory folder"
        )
        suggestion = "move ../MEMORY.md into this folder, its links made relative to it"
        if not on_this_machine(tree):
            # A repository's copy indexed one level up is its owner's layout, not a tree
            # Claude Code loads: whether to move the index is theirs to decide.
            level = "suggestion"
            suggestion = f"if Claude Code loads this folder, {suggestion}"
    else:
        return _no_index(tree)
    return make_finding(ID, "missing-index", INDEX_NAME, None, message, suggestion, level=level)


def _no_index(tree: MemoryTree) -> Finding:
    variant = next(
        (p for p in sorted(tree.present) if p.lower() == INDEX_NAME.lower() and p != INDEX_NAME),
        None,
    )
    if variant is not None:
        return _index_by_another_case(tree, variant)
    message = "MEMORY.md is missing — index cannot be checked"
    suggestion = "create MEMORY.md with one `- [Title](file.md) — hook` line per memory file"
    level = None
    route = None if on_this_machine(tree) else routed_from(tree)
    if route is not None:
        # The repository's own instructions lead sessions here: the folder is read
        # through them, not loaded as Claude Code's memory.
        message = (
            f"MEMORY.md is missing; {route.file} (line {route.line}) routes sessions to"
            " this folder, which is read through it"
        )
        suggestion = f"if Claude Code should load this folder as its memory, {suggestion}"
        level = "suggestion"
    fix = _new_index(tree)
    return make_finding(
        ID, "missing-index", INDEX_NAME, None, message, suggestion, fix=fix, level=level
    )


def _index_by_another_case(tree: MemoryTree, variant: str) -> Finding:
    """``memory.md`` where MEMORY.md belongs: the folder's index under another case. Claude
    Code opens MEMORY.md by that name: a disk that ignores case (macOS, Windows) gives it
    this file, Linux none. No new MEMORY.md is offered: on such a disk it is this file, and
    writing it would replace the index the owner keeps (judged so on tuning trees, one
    project's CLAUDE.md naming ``memory.md`` its index)."""
    message = (
        f"MEMORY.md is missing; the index is `{variant}`, which Claude Code finds by the name"
        " MEMORY.md only on a disk that ignores case (macOS, Windows), not on Linux"
    )
    suggestion = (
        f"if Claude Code should load it everywhere, rename `{variant}` to MEMORY.md (`git mv`);"
        " if it is read by this name (the project's CLAUDE.md), nothing to do"
    )
    return make_finding(
        ID, "missing-index", INDEX_NAME, None, message, suggestion, level="suggestion"
    )


def _new_index(tree: MemoryTree) -> dict[str, str] | None:
    """MEMORY.md with a pointer for each memory (archived ones stay out, as they were)."""
    pointers = [m.index_pointer() for m in tree.memories if not in_archive(m.path)]
    if not pointers:
        return None
    text = "# Memory index\n\n" + "\n".join(sorted(pointers)) + "\n"
    return {"action": "create-index", "path": INDEX_NAME, "text": text}


def _stale_path(link: IndexLink, actual: str) -> Finding:
    return make_finding(
        ID,
        "stale-index-path",
        INDEX_NAME,
        link.line,
        f"index path `{link.target}` is stale; the file is now at `{actual}`",
        f"update the link to `{actual}`",
        key=link.target,
        related=(actual,),
        fix={"action": "update-index-path", "line": link.line, "old": link.target, "new": actual},
    )


def _wikilink_aside(tree: MemoryTree, link: IndexLink, *, pointer: bool) -> bool:
    """A wikilink in a hook or a sentence, not an entry's own pointer, that is close to no
    memory's name: a note of another tool, a table's name (Cargo's ``[[bin]]``), an entity
    of a vault never written. Worth a look, not a broken entry (issue 25: what is still
    unresolved and looks like a memory name is a problem, the rest a suggestion)."""
    return link.wiki and not pointer and near_name(tree, link.target) is None


def _in_another_project(tree: MemoryTree, target: Target) -> str | None:
    """The project (its folder's name) whose memory holds the note this tree's index names
    and lacks, when the tree is one of Claude Code's ``projects/<slug>/memory`` folders:
    index lines a session copied from another project's index (the home folder's from
    ``~/.claude``'s). Checked for existence only, never read."""
    found = auto_memory_projects(tree.root)
    if target.path is None or found is None:
        return None
    projects = Path(found)
    key = ("index-drift-projects", str(tree.root))
    if key not in tree.scratch:
        own = tree.root.parent.name
        try:
            with os.scandir(projects) as entries:
                names = sorted(e.name for e in entries if e.name != own and e.is_dir())
        except OSError:
            names = []
        tree.scratch[key] = names
    for name in cast(list[str], tree.scratch[key]):
        if os.path.isfile(projects / name / "memory" / target.path):
            return name
    return None


def _elsewhere_link(link: IndexLink, project: str) -> Finding:
    return make_finding(
        ID,
        "broken-index-link",
        INDEX_NAME,
        link.line,
        f"link target `{link.target}` doesn't exist here; the memory of project `{project}`"
        " has it (lines copied from that project's index?)",
        f"copy the file from `{project}`'s memory folder, or point the entry at it; remove"
        " the entry if this project should not recall it",
        key=link.target,
    )


def _known_cause(
    tree: MemoryTree,
    pair: tuple[IndexLink, Target],
    moved_out: dict[tuple[int, str], str],
    uncommitted: set[str],
) -> Finding | None:
    """A missing link's finding when its cause is known: moved out of the tree, never
    committed to the copy's repository, another project's note. None: plainly missing,
    judged with the index's other missing links."""
    link, target = pair
    new = moved_out.get((link.line, link.target))
    if new is not None:
        return _stale_path(link, new)
    if _identity(target) in uncommitted:
        return _uncommitted_link(link, inside=target.inside)
    holder = _in_another_project(tree, target)
    return None if holder is None else _elsewhere_link(link, holder)


def _lone_index(tree: MemoryTree, missing: Links, pointers: set[tuple[int, IndexLink]]) -> Links:
    """The entries of an index that is alone in its folder, when every note it points at is
    plainly missing (``missing``: not moved, not in another project's memory, not absent
    from a copy's history): nothing to remove them for. A folder holding only MEMORY.md was
    scaffolded before its notes were written, or copied without them (a backup that kept
    the index); either way each entry's hook is the only record of its fact, and removing
    the entries one by one would empty the index. Entries whose target is out of the tree
    keep their own findings."""
    if tree.present - {INDEX_NAME} or tree.unread or tree.errors or tree.skipped_files:
        return []
    lone = [
        (link, target)
        for link, target in missing
        if target.inside and (link.line, link) in pointers
    ]
    # Every entry, and more than one: one missing note is most often a deleted one, and an
    # index with an entry that resolves elsewhere (a moved note) points at notes kept apart.
    return lone if len(lone) > 1 and len(lone) == len(pointers) else []


def _notes_never_there(lone: Links) -> Finding:
    """One finding for an index none of whose notes exists (one cause: the notes are not
    there), with no fix: the facts live only in the entries' hooks."""
    first = lone[0][0]
    names = ", ".join(f"`{link.target}`" for link, _ in lone[:5])
    more = f" and {len(lone) - 5} more" if len(lone) > 5 else ""
    return make_finding(
        ID,
        "broken-index-link",
        INDEX_NAME,
        first.line,
        f"MEMORY.md is alone in its folder: none of its {len(lone)} notes exists ({names}{more})",
        "write the notes the index promises (each entry's line holds what is known of it),"
        " or restore them if a copy or sync lost them; remove an entry only if its fact is"
        " no longer true",
        key=" ".join(link.target for link, _ in lone),
    )


def _gone(target: Target, deleted: set[str]) -> bool:
    """Whether the entry's document is missing, not its path wrong: a note of the tree (or
    a wikilink's, which names one); out of the tree, a document the repository's history
    held and deleted, or one whose folder is there without it (``~/.claude/skills/x/``).
    A path whose folders reach nothing was most often written from another folder."""
    if target.absolute is None or target.inside or _identity(target) in deleted:
        return True
    return os.path.isdir(os.path.dirname(target.absolute))


def _says_something(hook: str, link: IndexLink) -> bool:
    """Whether an entry's hook holds words of its own (``— never mock the database``), not
    just the note's title or name again (``— notes about gone.md``): removing such an entry
    loses them."""
    words = _words(hook.replace(".md", " "))
    if REMOVAL_WORDS & words:
        return False  # ``— removed long ago``: the entry itself records the note gone
    named = _words(f"{link.title} {link.target.replace('.md', ' ')}") | FILLER_WORDS
    return len(words - named) >= HOOK_WORDS


def _broken_link(
    link: IndexLink,
    target: Target,
    *,
    pointer: bool,
    aside: bool = False,
    gone: bool = True,
    only_record: bool = False,
    into_slug: bool = False,
) -> Finding:
    """``gone``: the target is proved missing (a note of the tree; a document out of it that
    the repository's history held and deleted), so its entry can go, unless ``only_record``:
    a note nothing shows deleted, whose entry's hook may be all that is left of it (a note
    never written, or lost by a copy or a sync), which no fix removes. ``into_slug``: the
    path ends in the folder Claude Code keeps for the project beside its memory, which holds
    no documents."""
    where = "outside the tree " if target.absolute is not None and not target.inside else ""
    shown = f"[[{link.target}]]" if link.wiki else f"`{link.target}`"
    suggestion = "remove the entry, or update the path if the file was renamed"
    fix: dict[str, object] | None = {
        "action": "remove-index-line",
        "line": link.line,
        "target": link.target,
    }
    if not pointer:  # a sentence that mentions the file: the link is wrong, not the sentence
        suggestion = "update the path in this sentence, or drop the link and keep the text"
        fix = None
    elif into_slug:
        # ``../README.md`` from ``projects/<slug>/memory``: written as if the memory folder
        # sat in the project; the project's file is most often in place.
        suggestion = (
            "correct the path: from the memory folder, `../` leads into Claude Code's own"
            " folder for this project, which holds no documents (written from the project's"
            " folder?); remove the entry if the document is gone"
        )
        fix = None
    elif not gone:
        # A path out of the memory folder whose folders reach nothing, no history saying
        # the document was deleted: most often written from another folder (the project's,
        # a `../` too few), the document itself in place. The path is proved wrong, not
        # the entry: no fix removes it.
        suggestion = (
            "correct the path (no folder on it exists; a relative path is read from"
            " MEMORY.md's folder), or remove the entry if the document is gone"
        )
        fix = None
    elif only_record:
        suggestion = (
            "if the note was deleted on purpose, remove the entry; if not, restore it or write"
            " it from the entry's hook, the only record of it left here"
        )
        fix = None
    message = f"link target {shown} {where}doesn't exist"
    if aside:
        message = f"{shown} names no memory, skill, agent or note Claude Code has here"
        suggestion = (
            "if it should name a memory, write its name; else drop the brackets and keep the text"
        )
    return make_finding(
        ID,
        "broken-index-link",
        INDEX_NAME,
        link.line,
        message,
        suggestion,
        key=link.target,
        fix=fix,
        level="suggestion" if aside else None,
    )


def _missing_entry(memory: MemoryFile) -> Finding:
    line = memory.index_pointer()  # one line, as the author wrote its name and description
    return make_finding(
        ID,
        "missing-index-entry",
        memory.path,
        None,
        "reachable through other memories, but not listed in MEMORY.md (flat_index)",
        f"add an index line: `{_clip(line)}`",
        judgment=True,
        fix={"action": "add-index-line", "path": memory.path, "text": line},
    )


def _duplicate_entries(tree: MemoryTree) -> Iterator[Finding]:
    """Pointer lines that index one file twice: the best of them stays, the others go.

    Prose that mentions a file (``... See [x](x.md).``) is not an entry, so it is
    never a duplicate and never a line to delete.
    """
    lines_by_target: dict[str, list[IndexEntry]] = {}
    for entry in tree.index.entries if tree.index else ():
        if not entry.is_pointer:
            continue
        target = tree.resolve_link(entry.target, "", wiki=entry.links[0].wiki)
        if target.path is not None and target.exists:
            lines_by_target.setdefault(target.path, []).append(entry)
    for path, entries in lines_by_target.items():
        if len(entries) < 2:
            continue
        memory = tree.files.get(path)
        kept = max(entries, key=lambda e: (_fit(e, memory), -e.line))
        for entry in entries:
            if entry is not kept:
                better = _fit(kept, memory) > _fit(entry, memory)
                why = ", which names it better" if better else ""
                yield _duplicate(entry, kept, why, path)


def _fit(entry: IndexEntry, memory: MemoryFile | None) -> tuple[bool, bool]:
    """How well a pointer names its file: a title matching the file's name, stem or
    description first, then a line with a hook."""
    names = {name_key(memory.stem), name_key(memory.name or "")} if memory else set()
    title = name_key(entry.title)
    described = bool(memory and title and title in name_key(memory.description))
    return (title in names - {""} or described, bool(entry.hook.strip(" .-—–:")))


def _duplicate(entry: IndexEntry, kept: IndexEntry, why: str, path: str) -> Finding:
    # A second line that says more than the kept one (a newer result, another use) is a
    # duplicate, not a wrong line: removing it would lose what it says, so it is merged.
    says_more = len(_words(entry.hook) - _words(f"{kept.title} {kept.hook}")) >= MORE_WORDS
    suggestion = (
        f"merge what this line adds into line {kept.line}, then remove it"
        if says_more
        else f"remove this line; line {kept.line} stays"
    )
    return make_finding(
        ID,
        "duplicate-index-entry",
        INDEX_NAME,
        entry.line,
        f"`{path}` is also indexed on line {kept.line}{why}",
        suggestion,
        # Keyed on the line's own words, not on its place among the file's entries: when
        # another duplicate of the file goes, this one keeps its identity (and dismissal).
        key=f"{path}\x1f{entry.target}\x1f{entry.title}\x1f{entry.hook}",
        related=(path,),
        fix=None
        if says_more
        else {"action": "remove-index-line", "line": entry.line, "target": entry.target},
    )


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.casefold()) if len(w) > 2 or w.isdigit()}


def _unread_lines(unread: tuple[tuple[int, int], ...]) -> Iterator[Finding]:
    for first, last in unread:
        where = f"line {first}" if first == last else f"lines {first}–{last}"
        yield make_finding(
            ID,
            "index-not-read",
            INDEX_NAME,
            first,
            f"{where}: too long or too dense in link syntax to parse; entries there were not"
            " checked",
            "keep index entries to one short line each",
            key=f"{first}",
        )


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
