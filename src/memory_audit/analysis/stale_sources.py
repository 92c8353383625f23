"""What ``stale-refs`` checks against: the located project, its history, this machine.

:func:`locate` never guesses: no project located, a memory folder that is its own
repository, or a repository at the home folder (dotfiles) give no history, and
each limit becomes a line under ``skipped``. :func:`check_paths` sorts every
path reference into a verdict or a "not checked here" count.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.analysis.dated_series import note_day
from memory_audit.analysis.project_paths import (
    EXISTS,
    NOT_A_CLAIM,
    ProjectView,
    Status,
    Verdict,
    tree_prefixes,
)
from memory_audit.analysis.references import (
    RECORDS_HISTORY,
    LineSentences,
    Reference,
    entry_dates,
    has_extension,
    is_machine_path,
    path_references,
    recording_sections,
    says_done,
)
from memory_audit.analysis.tree_home import on_this_machine
from memory_audit.config.paths import default_state_dir
from memory_audit.config.user_dirs import claude_home
from memory_audit.sources.git import (
    GitUnavailable,
    Repository,
    ignored,
    open_repository,
    run_git,
)
from memory_audit.sources.git_history import History, Removal, history
from memory_audit.tree.file_kinds import in_archive
from memory_audit.tree.markdown import Document
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

TRANSIENT_ROOTS = ("tmp", "dev", "proc", "sys", "run", "mnt", "media", "var/tmp", "private/tmp")
NO_HISTORY = "paths checked for existence only"
CLAUDE_HOME_WRITTEN = "~/.claude"  # Claude Code's folder as memories write it
HEX_RUN = re.compile(r"[0-9a-f]{7,}")
# A line of git's own output pasted into a log: a diffstat ("x.sh | 81 ++--") or a
# --name-status line ("M<tab>x.sh"): what a past commit changed
DIFFSTAT_LINE = re.compile(
    r"\s*(?:[-*+]\s+)?`?(?:\S+\s+\|\s+(?:\d+ [-+]*|Bin [^`]*)|[AMDRCT]\d{0,3}\t\S[^`]*)`?\s*"
)
LIST_ITEM = re.compile(r"( *)(?:[-*+]|\d+[.)])\s")  # its indent: how deep in the list it is
INTRODUCER_REACH = 60  # lines above a list item searched for the line that opens its list
# A line that opens by reporting what its writer did, in the past tense ("- created
# `docs/why.html`", "Updated `docs/network.html` to pull live data"): in a note the project
# had before the path's removal, the act was done while the path existed, as a cycle's
# journal records it. Only the English past tense: Chinese 创建 or 添加 opening a numbered
# step is as often an instruction ("1. 在 `apps/` 下创建应用目录"), which still claims the path
REPORTS_AN_ACT = re.compile(
    r"(?i)\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*)?(?:created|added|wrote|built|generated|"
    r"implemented|updated|edited|modified|changed|fixed|refactored|drafted|documented|set up|"
    r"saved|committed|made|introduced|extracted|wired|shipped|deployed|published)(?:\*\*)?"
    # ... whose object is the path itself ("created `x`", "updated docs/x.html"): not an
    # adjective before a claim ("Generated pages live in `x`", "Updated weekly: `x`")
    r"\s+(?:(?:the|a|an|new)\s+)?(?:`|\[|[\w.-]+/|[\w-]+\.\w{1,5}\b)"
)
# A deleting commit's subject that says its files moved on to another home: they live on
# there, and a memory citing them is not stale for it.
MOVED_OUT = re.compile(
    r"(?i)(?<!should )(?<!users )\b(?:extract\w*|split\w*|mov(?:e|ed|es|ing)|migrat\w*"
    r"|spin(?:ning)? off|spun off"
    r"|carv\w* out|hand\w* over)\b.{0,80}?\b(?:to|into|out to|out into)\s+"
    # the destination named right after: "to the nanobot-brain package", "into lib/quality/
    # package", "into its own repo"; a tool ("migrate to pnpm") or a file name
    # ("package-lock.json") is no destination
    r"(?:(?:the|a|an|its|their|our|own|new|separate|shared)\s+){0,3}[\w./@-]{1,60}\s+"
    r"(?:(?:python|npm|go|rust|shared|own|separate|new)\s+)?"
    r"(?:repo|repos|repository|package|library|crate|gem|submodule)\b(?![-.]\w)"
)


@dataclass(frozen=True)
class Source:
    """A scanned file: a memory's body, or MEMORY.md."""

    path: str
    first_line: int
    markdown: Document | None  # the loader's parse, reused
    memory: MemoryFile | None = None  # None: MEMORY.md, whose lines are ``index_lines``
    index_lines: Sequence[str] = ()

    @property
    def lines(self) -> Sequence[str]:
        """A memory's body lines, cut when read: a memory keeps its text, not its lines,
        and every source's lines held at once weighed as much as the tree's text."""
        return self.memory.body_lines if self.memory is not None else self.index_lines


@dataclass
class Project:
    view: ProjectView | None = None
    repository: Repository | None = None
    notes: list[str] = field(default_factory=list)
    commit_skip: str | None = None  # why commits cannot be checked


def scanned_sources(tree: MemoryTree) -> list[Source]:
    found = [Source(m.path, m.body_start, m.markdown, m) for m in tree.memories]
    if tree.index is not None:
        found.append(Source("MEMORY.md", 1, tree.index.markdown, index_lines=tree.index.lines))
    return sorted(found, key=lambda s: s.path)


def locate(
    tree: MemoryTree,
    state_dir: str | None,
    *,
    report_never: bool = False,
    storable: Callable[[list[str]], bool] | None = None,
) -> Project:
    """The tree's project and its history (``storable``: which paths its cache may hold)."""
    folder = tree.location.project_path
    if folder is None:
        return Project(commit_skip="project not located")
    bases = (tree.root, folder, folder.parent, *((tree.home,) if on_this_machine(tree) else ()))
    try:
        repo = open_repository(folder)
    except GitUnavailable as exc:
        view = ProjectView(folder, None, ("",), bases)
        return Project(view, None, [f"history not read ({exc}) — {NO_HISTORY}"], str(exc))
    refusal = _wrong_repository(tree, repo)
    if refusal is not None:
        view = ProjectView(folder, None, ("",), bases)
        return Project(view, None, [f"history not read — {refusal}; {NO_HISTORY}"], refusal)
    project = _with_history(tree, folder, repo, bases, state_dir, storable)
    if project.view is not None:
        project.view.report_never = report_never
    return project


def _wrong_repository(tree: MemoryTree, repo: Repository) -> str | None:
    if repo.path == tree.root.resolve():
        return "the memory folder is its own git repository, not the project's"
    if repo.path == tree.home.resolve():
        return "the repository is the home folder (dotfiles), not the project"
    return None


def _with_history(
    tree: MemoryTree,
    folder: Path,
    repo: Repository,
    bases: tuple[Path, ...],
    state: str | None,
    storable: Callable[[list[str]], bool] | None = None,
) -> Project:
    prefixes = tree_prefixes(tree.root, folder, repo.path)
    root = folder if repo.bare else repo.path
    if repo.shallow:
        note = f"the project is a shallow clone: its history is missing — {NO_HISTORY}"
        return Project(ProjectView(root, None, prefixes, bases), repo, [note], "shallow clone")
    cache = Path(state or default_state_dir()) / "cache"
    try:
        found: History | None = history(repo, cache, storable)
    except GitUnavailable as exc:
        note = f"history not read ({exc}) — {NO_HISTORY}"
        return Project(ProjectView(root, None, prefixes, bases), repo, [note])
    notes = ["the project is a bare repository: files compared with HEAD"] if repo.bare else []
    if found is not None and not found.renames_complete:
        notes.append("renames not detected in part of the history — objects missing from the clone")
    view = ProjectView(root, found, prefixes, bases, check_disk=not repo.bare)
    return Project(view, repo, notes)


def check_paths(
    tree: MemoryTree, project: Project, sources: Sequence[Source]
) -> tuple[list[tuple[Source, Reference, Verdict]], list[str]]:
    """Each stale or missing path reference with its verdict, and what was not checked."""
    local = on_this_machine(tree)
    found: list[tuple[Source, Reference, Verdict]] = []
    unchecked = {"machine": 0, "relative": 0, "dotdot": 0}
    folder = _folder_in_project(tree, project)
    project_history = project.view.history if project.view is not None else None
    for source in sources:
        here = tree.root.joinpath(*source.path.split("/")[:-1])
        stale = []
        for ref in path_references(source.lines, source.first_line, source.markdown):
            verdict = _verdict(tree, project, ref.text, here, local, unchecked)
            if verdict.status not in (Status.EXISTS, Status.NOT_A_CLAIM):
                stale.append((source, ref, verdict))
        added = _added_by(project_history, folder, source) if stale else None
        stale = _drop_written_with(added, source, stale)
        found += _drop_agreeing(source, stale, added.date if added is not None else None)
    found, archived = _drop_archived(found)
    found, moved = _drop_moved_out(project, _drop_ignored(project, found))
    return found, archived + _skips(unchecked) + moved


def _folder_in_project(tree: MemoryTree, project: Project) -> str | None:
    """The tree's folder as the project's history names it (``.claude/memory``), or None
    when the tree lives outside the project or there is no history."""
    view = project.view
    if view is None or view.history is None:
        return None
    try:
        folder = tree.root.resolve().relative_to(view.root.resolve()).as_posix()
    except (OSError, ValueError):
        return None
    return "" if folder == "." else f"{folder}/"


def _added_by(
    project_history: History | None, folder: str | None, source: Source
) -> Removal | None:
    """The commit that added the memory to the project's history (its day is when the
    memory was written), or None: the tree lives outside the project, or no history."""
    if project_history is None or folder is None:
        return None
    return project_history.added_by(folder + source.path)


def _drop_written_with(
    added: Removal | None, source: Source, stale: list[tuple[Source, Reference, Verdict]]
) -> list[tuple[Source, Reference, Verdict]]:
    """A lesson (a ``feedback`` memory) the removing commit itself added cites that
    removal as its incident (the agent that deleted the file wrote the lesson in the same
    commit): not stale. So does a note named for its day that the commit added: the
    record of what the commit did (a compaction that moved its notes to ``archive/`` and
    wrote down their old places; its name's day may be the commit's next, in UTC). Any
    other memory written in that commit (a ``project`` note) still claims the project's
    state, and a file it names that the commit removed is stale from the start."""
    if not stale or added is None:
        return stale
    lesson = source.memory is not None and source.memory.type == "feedback"
    if not lesson and note_day(source.path) is None:
        return stale
    return [
        item for item in stale if item[2].removal is None or item[2].removal.commit != added.commit
    ]


def _drop_archived(
    found: list[tuple[Source, Reference, Verdict]],
) -> tuple[list[tuple[Source, Reference, Verdict]], list[str]]:
    """An archived memory (``_archive/``) records work whose files the project may since
    have deleted or moved on purpose: its paths are its history, not claims (a skip). No
    session loads it, so rewriting a moved path there helps no one: on unseen trees every
    such rename was judged a record of where the file was (a compaction moving notes from
    ``inbox/`` to ``archive/``, and the archived notes naming each other's old places)."""
    kept = [
        item
        for item in found
        if not (in_archive(item[0].path) and item[2].status is Status.REMOVED)
    ]
    dropped = len(found) - len(kept)
    return kept, [
        f"{dropped} deleted or moved path(s) in archived memories: their history"
    ] if dropped else []


def _drop_agreeing(
    source: Source, stale: list[tuple[Source, Reference, Verdict]], written: str | None = None
) -> list[tuple[Source, Reference, Verdict]]:
    """What a stale path's memory records rather than claims: a sentence that says the
    path is absent or not to be used (``SAYS_ABSENT``), a section whose heading records a
    change ("## Removed in the cleanup"), a past commit's diffstat; for a removed path, an
    entry of a dated log written on or before the removal ("2026-05-01: created `x.py`"
    stays true after `x.py` is deleted; an entry dated after it claims a file already gone;
    a list item counts as saying what its list's opening line says: "Files changed:"), the same
    for a whole note named for its day (a daily log, a briefing: ``2026-05-01.md``), or any
    mention in a memory that cites the removing commit itself (it knows of the deletion),
    and a line that reports its writer's act ("- created `x.html`") in a memory the
    project had before the removal (``written``: the day its history added the memory).
    A renamed path in a note named for a day on or before the move is history too (a
    day's briefing listing its outputs, a compaction's record of what it moved): on unseen
    trees every such rename was judged a record, never a claim worth rewriting. In any
    other note a renamed path stays: its new place leads the note's reader on."""
    if not stale:
        return stale
    lines = source.lines  # cut from the memory's text on each read: read once
    text = "\n".join(lines)
    day = note_day(source.path)
    dates = entry_dates(lines, source.first_line, source.markdown, text)
    recording = recording_sections(lines, source.first_line, source.markdown)
    sentences: dict[int, LineSentences] = {}  # a line's sentences cut once for all its paths
    cited: set[str] | None = None  # the commits the memory names, read once when needed
    kept = []
    for item in stale:
        ref, removal = item[1], item[2].removal
        line = lines[ref.line - source.first_line]
        if ref.line not in sentences:
            sentences[ref.line] = LineSentences(line)
        if sentences[ref.line].says_absent(ref.text) or ref.line in recording:
            continue  # "`x/` is empty", "never commit to `x/`": what the project shows
        if _records_itself(line, renamed=item[2].renamed_to is not None):
            continue
        if removal is not None:
            if day is not None and day <= removal.date:
                continue  # a note of one day before the deletion or move: it was there then
            cited = _cited_commits(text) if cited is None else cited
            number = ref.line - source.first_line
            if removal.commit[:7] in cited or _recorded(
                lines, number, dates.get(ref.line), removal
            ):
                continue
            if (
                written is not None
                and written <= removal.date
                and item[2].renamed_to is None
                and REPORTS_AN_ACT.match(line)
            ):
                continue  # "- created `docs/why.html`" in a note written before its deletion
        kept.append(item)
    return kept


def _records_itself(line: str, *, renamed: bool) -> bool:
    """History by its own words: where a lesson was first seen (a deleted file there), or a
    past commit's diffstat or name-status line pasted into a log ("scripts/deploy.sh | 81
    ++++--", round 137's session history: correct at the time, never to be rewritten)."""
    if not renamed and RECORDS_HISTORY.search(line) is not None:
        return True
    return DIFFSTAT_LINE.fullmatch(line) is not None


def _cited_commits(text: str) -> set[str]:
    """The first seven characters of every run of hex digits long enough to cite a commit:
    one pass over the memory, where asking for each removal would read it once apiece."""
    return {run[:7] for run in HEX_RUN.findall(text)}


def _introducing(lines: Sequence[str], number: int) -> str:
    """The line that introduces the list item ``lines[number]`` belongs to ("Files
    changed:" over a commit's files), or "" when it is no list item: what a dated entry
    says was done may be said once above its list."""
    item = LIST_ITEM.match(lines[number])
    if item is None:
        return ""
    depth = len(item.group(1))
    for above in range(number - 1, max(number - INTRODUCER_REACH, -1), -1):
        text = lines[above]
        if not text.strip():
            continue
        outer = LIST_ITEM.match(text)
        if outer is None or len(outer.group(1)) < depth:
            return text
    return ""


def _recorded(
    lines: Sequence[str], number: int, dated: tuple[str, bool] | None, removal: Removal
) -> bool:
    """``lines[number]`` is an entry of a dated log, dated on or before the removal: one
    that starts with its date, or one under a dated heading that says what was done, itself
    or in the line that opens its list ("Files changed:" over a commit's files; a dated
    heading may also be a version's stamp: "## Plan v5 (2026-04-16)" over paths it still
    cites)."""
    if dated is None or dated[0] > removal.date:
        return False
    return dated[1] or says_done(lines[number]) or says_done(_introducing(lines, number))


def _verdict(
    tree: MemoryTree,
    project: Project,
    text: str,
    here: Path,
    local: bool,
    unchecked: dict[str, int],
) -> Verdict:
    if ".." in text.split("/"):
        unchecked["dotdot"] += 1
        return NOT_A_CLAIM
    if is_machine_path(text):
        if not local:
            unchecked["machine"] += 1
            return NOT_A_CLAIM
        return _machine_verdict(tree, project, text)
    if project.view is None:
        unchecked["relative"] += 1
        return NOT_A_CLAIM
    return project.view.verdict(text, (here,))


def _machine_verdict(tree: MemoryTree, project: Project, text: str) -> Verdict:
    path = tree.home / text[2:] if text.startswith("~/") else Path(text)
    moved = _in_moved_claude_home(text)
    if moved is not None and os.path.lexists(moved):
        return EXISTS
    if project.view is not None and path.is_relative_to(project.view.root):
        inside = path.relative_to(project.view.root).as_posix()
        return project.view.verdict(inside) if inside != "." else EXISTS
    if os.path.lexists(path) or text.lstrip("/").startswith(TRANSIENT_ROOTS):
        return EXISTS  # transient and device paths say nothing about staleness
    first = Path(*path.parts[:2])  # "/api/v1/users" is a route: only judge real top folders
    return Verdict(Status.MISSING, text) if first.is_dir() else NOT_A_CLAIM


def _in_moved_claude_home(text: str) -> Path | None:
    """``~/.claude/...`` in Claude Code's own folder when ``CLAUDE_CONFIG_DIR`` moved it: a
    memory a session wrote means the folder Claude Code uses, whatever it is called."""
    if text != CLAUDE_HOME_WRITTEN and not text.startswith(CLAUDE_HOME_WRITTEN + "/"):
        return None
    return Path(claude_home(), text[len(CLAUDE_HOME_WRITTEN) :].lstrip("/"))


def _drop_ignored(
    project: Project, found: list[tuple[Source, Reference, Verdict]]
) -> list[tuple[Source, Reference, Verdict]]:
    """A path .gitignore excludes is a local file (``git rm --cached``, then ignored), not a
    stale one: it most likely still exists where the memory says."""
    paths = {v.path for _, _, v in found if v.path}
    if not paths or project.repository is None:
        return found
    # A folder asked for with its slash: `selleyo/` in .gitignore matches only a directory,
    # and a folder no longer on disk is asked about as a file without it.
    folders = {p + "/" for p in paths if not has_extension(p)}
    try:
        local = ignored(project.repository, paths | folders)
    except GitUnavailable:
        return found  # git could not tell: the history's evidence stands
    return [item for item in found if not {item[2].path, item[2].path + "/"} & local]


def _drop_moved_out(
    project: Project, found: list[tuple[Source, Reference, Verdict]]
) -> tuple[list[tuple[Source, Reference, Verdict]], list[str]]:
    """A file whose deleting commit says it moved into a package or another repository
    ("brainsplit: extract brain logic to nanobot-brain package", "split lib/quality.py into
    lib/quality/ package") lives on there: no stale claim, a skip. The
    subjects of the few deleting commits are read once; never shown (they are the
    project's words, and may hold anything)."""
    commits = {
        v.removal.commit
        for _, _, v in found
        if v.status is Status.REMOVED and v.removal is not None and not v.renamed_to
    }
    if not commits or project.repository is None:
        return found, []
    try:
        out = run_git(project.repository.path, "show", "-s", "--format=%H%x09%s", *sorted(commits))
    except GitUnavailable:
        return found, []
    subjects = dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)
    out_of = {c for c in commits if MOVED_OUT.search(subjects.get(c, ""))}
    if not out_of:
        return found, []
    kept = [
        item
        for item in found
        if item[2].removal is None or item[2].renamed_to or item[2].removal.commit not in out_of
    ]
    dropped = len(found) - len(kept)
    reason = (
        f"{dropped} reference(s) to files their deleting commit moved into a package or"
        " another repository not checked"
    )
    return kept, [reason]


def _skips(unchecked: dict[str, int]) -> list[str]:
    reasons = []
    if unchecked["machine"]:
        reasons.append(
            f"{unchecked['machine']} home or absolute path(s) not checked here — "
            "the tree is not a Claude Code tree on this machine"
        )
    if unchecked["relative"]:
        reasons.append(
            f"{unchecked['relative']} relative path(s) not checked — project root not located"
        )
    if unchecked["dotdot"]:
        reasons.append(f"{unchecked['dotdot']} path(s) with `..` segments not checked")
    return reasons
