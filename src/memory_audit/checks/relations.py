"""Broken relations: typed links between memories that point nowhere or one way only.

When at least one file declares ``relations:`` (typed relations adopted):

- ``broken-relation``: a relation's target does not exist;
- ``bad-relation-type``: type outside supersedes | contradicts | supports | related_to;
- ``missing-superseded-by``: A ``supersedes`` B, but B has no ``superseded_by: A``;
- ``missing-supersedes``: B says ``superseded_by: A``, but A declares no
  ``supersedes`` relation to B.

Whenever the tree has them, whether or not relations are adopted:

- ``broken-superseded-by``: ``superseded_by`` names a file that does not exist;
- ``broken-relation`` for ``related:`` / ``relates_to:`` (a list or one value):
  a target that is neither a file nor a memory's name. Names match as
  wikilinks do: case, ``-``/``_`` and a type prefix (``project_``, ``project-``) aside; a value
  written as a wikilink (``"[[anti-patterns]] — why"``) is that link, and a name
  that means something outside the tree (a skill, a note above it: see
  ``broken-wikilink``) is not broken, in these fields as in ``relations:``;
- ``broken-link``: a body links a ``.md`` file that does not exist (from the memory's folder, nor,
  as a session writes it, from the project's folder or under Claude Code's own ``.claude/``);
- ``broken-wikilink`` (user judgment): ``[[name]]`` matches no memory's name,
  file name or title, and nothing else Claude Code may mean by it: a skill, agent
  or command (``~/.claude`` and the project's ``.claude``), a note in a folder above
  the tree (``[[CLAUDE]]``, a vault's ``[[anti-patterns]]``), a CLAUDE.md heading, a
  memory of another store on this machine, or one of the project's own other stores (its
  agents', a memory folder its repository tracks); ``[[MEMORY]]`` is the index; a ticket
  (``[[#12]]``, ``[[PROJ-42]]``) and a chat gateway's reply directive a saved session keeps
  (``[[reply_to_current]]``, ``[[audio_as_voice]]``) are no links. A name the link cuts
  short or runs past is offered ("did you mean"), unless the name is elided on purpose
  (``[[project_...]]``).
  Claude Code tolerates links to notes not yet written; one the text marks as such
  (``[[skill-library]] (not yet written)``) is no finding, nor one it places in the user's
  own store (``[[x]] in user memory``, ``See user auto-memory [[x]]``), in any of the tree's
  files once it does anywhere. Four or more in one file that
  are close to no memory's name (a vault's hub of concepts, a chat log's reply tag) are one
  finding listing them; one whole word cut from a name (``[[budget]]`` beside
  ``budget-constraints``) is a name of its own, no cut-short one.
- ``links-not-read``: a paragraph too long or too dense in ``[`` to parse in
  bounded time (a 1 MB line of brackets): its links were not checked; one finding a file,
  naming its first passages.

Links are read as CommonMark reads them: not inside code spans or code blocks.

Failing::

    feedback/baz.md:   relations: [{type: supersedes, target: lessons/qux.md}]
    lessons/qux.md:    (no superseded_by)

    feedback/baz.md:4 — supersedes `lessons/qux.md` but lessons/qux.md has no
    superseded_by back-pointer. Suggest: add `superseded_by: feedback/baz.md` to lessons/qux.md.

Passing: the same pair with ``superseded_by: feedback/baz.md`` on qux.md.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from memory_audit.analysis.outside_links import resolves_where_written
from memory_audit.analysis.wikilinks import as_wikilink, near_name, wikilink_resolves
from memory_audit.model.finding import Finding, Skip, lines_listed, listed_at, make_finding
from memory_audit.tree.markdown import Link
from memory_audit.tree.memory_file import FileKind, MemoryFile, Relation
from memory_audit.tree.snapshot import MemoryTree, name_key, reference_wikilink

ID = "relations"
SHOWN_LINKS = 6  # line numbers a finding for several broken links names
# Wikilinks of one file that name nothing: from this many, one finding lists them
GROUPED_WIKILINKS = 4
WIKILINKS_SHOWN = 8
# What marks a wikilink as a note still to write, right after it: "(not yet written)",
# "(if/when written)", "— to be written", "(planned)".
UNWRITTEN = re.compile(
    r"(?i)[\s*_]*(?:[(\[{—–:-][\s*_]*)?(?:not (?:yet )?(?:written|created)|not written yet"
    r"|(?:if/)?when written|to be (?:written|created)|to write)\b"
    # a bare word only as a marker of its own: "(planned)", "[TODO]"
    r"|[\s*_]*[(\[](?:planned|future|todo|tbd)[)\]]"
)
# What says a wikilink's note is kept in another store, right after it: "[[r6-decisions]]
# in user memory", "in the user's cross-session memory", "in user auto-memory": a store of
# the user's this audit may not see (a repository's copy, another machine).
ELSEWHERE = re.compile(
    r"(?i)[\s*_()\u2014\u2013:,-]*(?:(?:lives|is|kept|stored)\s+)?in\s+(?:the\s+)?"
    r"(?:user(?:['\u2019]?s)?|my|your|global|personal)\b[\w'\u2019 -]{0,25}?\bmemor(?:y|ies)\b"
)
# ... and the user's store named right before it: "See user auto-memory [[seam-keeps]]",
# "in the user's global memory: [[x]]"; not a kind of memory ("CUDA global memory",
# "user-space memory") nor one's own ("in my memory, [[x]] said so")
ELSEWHERE_BEFORE = re.compile(
    r"(?i)\b(?:user(?:['\u2019]?s)?[ \t]+(?:(?:auto|global|personal|cross-session)[ \t-]*)?"
    r"|auto-)memor(?:y|ies)\b[\s*_:,\u2014\u2013-]*$"
)
MEMORY_WORD = "memor"  # every ELSEWHERE and ELSEWHERE_BEFORE match holds it, lower-cased
RELATION_TYPES = ("supersedes", "contradicts", "supports", "related_to")


@dataclass(frozen=True)
class Options:
    pass


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    files = sorted(tree.of_kind(FileKind.MEMORY, FileKind.RECAP), key=lambda m: m.path)
    adopted = any(m.relations_declared for m in files)
    # read when a first wikilink does not resolve: most trees have none
    placed = functools.cache(lambda: _placed_elsewhere(files))
    for memory in files:
        if adopted:
            yield from _relations(tree, memory)
            yield from _back_pointers(tree, memory)
        yield from _superseded_by_targets(tree, memory)
        yield from _related_targets(tree, memory)
        yield from _body_links(tree, memory, placed)
        yield from _unread_links(memory)


def _relations(tree: MemoryTree, memory: MemoryFile) -> Iterator[Finding]:
    for problem in memory.problems:
        if problem.code == "malformed-relation":
            yield make_finding(
                ID,
                "malformed-relation",
                memory.path,
                problem.line,
                problem.message,
                "give each relation a type and a target",
                key=problem.message,
            )
    for relation in memory.relations:
        if relation.type not in RELATION_TYPES:
            shown = f"`{relation.type}`" if relation.type else "missing"
            yield make_finding(
                ID,
                "bad-relation-type",
                memory.path,
                relation.line,
                f"relation type {shown} (to `{relation.target}`) is not one of "
                f"{', '.join(RELATION_TYPES)}",
                "use one of the four relation types",
                key=f"{relation.type}>{relation.target}",
            )
        target = tree.resolve_reference(relation.target, memory.path)
        if not target.exists and not _names_outside(tree, relation.target, memory.path):
            yield _broken_relation(memory, relation)
        elif relation.type == "supersedes" and target.path is not None:
            successor = tree.files.get(target.path)
            if successor is not None:
                yield from _missing_back_pointer(tree, memory, relation, successor)


def _broken_relation(memory: MemoryFile, relation: Relation) -> Finding:
    return make_finding(
        ID,
        "broken-relation",
        memory.path,
        relation.line,
        f"{relation.type or 'relation'} target `{relation.target}` doesn't exist",
        "remove the relation, or update the path if the target was moved",
        key=f"{relation.type}>{relation.target}",
        fix={
            "action": "remove-relation",
            "path": memory.path,
            "type": relation.type,
            "target": relation.target,
        },
    )


def _missing_back_pointer(
    tree: MemoryTree, memory: MemoryFile, relation: Relation, target: MemoryFile
) -> Iterator[Finding]:
    points_back = any(
        tree.resolve_reference(raw, target.path).path == memory.path for raw in target.superseded_by
    )
    if not points_back:
        yield make_finding(
            ID,
            "missing-superseded-by",
            memory.path,
            relation.line,
            f"supersedes `{target.path}` but {target.path} has no superseded_by back-pointer",
            f"add `superseded_by: {memory.path}` to {target.path}",
            key=target.path,
            related=(target.path,),
            fix={"action": "add-superseded-by", "path": target.path, "value": memory.path},
        )


def _back_pointers(tree: MemoryTree, memory: MemoryFile) -> Iterator[Finding]:
    for raw in memory.superseded_by:
        target = tree.resolve_reference(raw, memory.path)
        successor = tree.files.get(target.path) if target.path is not None else None
        if successor is None:
            continue
        declares = any(
            r.type == "supersedes"
            and tree.resolve_reference(r.target, successor.path).path == memory.path
            for r in successor.relations
        )
        if not declares:
            yield make_finding(
                ID,
                "missing-supersedes",
                memory.path,
                memory.frontmatter_line("superseded_by"),
                f"superseded_by `{successor.path}`, but {successor.path} declares no "
                "supersedes relation back",
                f"add `{{type: supersedes, target: {memory.path}}}` to the relations of "
                f"{successor.path}",
                key=successor.path,
                related=(successor.path,),
                fix={
                    "action": "add-relation",
                    "path": successor.path,
                    "type": "supersedes",
                    "target": memory.path,
                },
            )


def _superseded_by_targets(tree: MemoryTree, memory: MemoryFile) -> Iterator[Finding]:
    for raw in memory.superseded_by:
        if not tree.resolve_reference(raw, memory.path).exists:
            yield make_finding(
                ID,
                "broken-superseded-by",
                memory.path,
                memory.frontmatter_line("superseded_by"),
                f"superseded_by `{raw}` doesn't exist",
                "point superseded_by at the memory that replaced this one, or remove it",
                key=raw,
            )


def _related_targets(tree: MemoryTree, memory: MemoryFile) -> Iterator[Finding]:
    for relation in memory.related:
        target = tree.resolve_reference(relation.target, memory.path)
        if not target.exists and not _names_outside(tree, relation.target, memory.path):
            yield make_finding(
                ID,
                "broken-relation",
                memory.path,
                relation.line,
                f"{relation.type} target `{relation.target}` matches no memory's file or name",
                "point it at an existing memory (file name or name), or remove it",
                key=f"{relation.type}>{relation.target}",
            )


def _names_outside(tree: MemoryTree, raw: str, source: str) -> bool:
    """A relation value that is a name (``karpathy-guidelines``, ``[[anti-patterns]] — why``)
    Claude Code may mean outside the tree: a skill, agent, command, a note above the tree,
    as a wikilink in a body would."""
    name = reference_wikilink(raw)
    if name is None and ("/" in raw or raw.endswith(".md")):
        return False  # a path: it resolves or it does not
    return wikilink_resolves(tree, raw if name is None else name, source)


def _body_links(
    tree: MemoryTree, memory: MemoryFile, placed: Callable[[], frozenset[str]]
) -> Iterator[Finding]:
    broken: list[tuple[int, str]] = []
    unresolved: list[Link] = []
    top_level = "/" not in memory.path  # ``../x.md`` from here may mean the project's file
    for link in memory.links:
        if link.mention:
            continue  # a path in a code span: stale-refs' concern, not a link
        if link.wiki:
            if _unresolved(tree, memory, link, placed):
                unresolved.append(link)
            continue
        path_part = link.target.split("#", 1)[0]
        if not path_part.endswith(".md") or ":" in path_part.split("/", 1)[0]:
            continue
        target = tree.resolve_path(link.target, memory.path)
        if not target.exists and not resolves_where_written(
            tree, link.target, target, top_level=top_level
        ):
            broken.append((link.line, link.target))
    if broken:
        yield _broken_links(tree, memory, broken)
    yield from _wikilink_findings(tree, memory, unresolved)


def _unresolved(
    tree: MemoryTree, memory: MemoryFile, link: Link, placed: Callable[[], frozenset[str]]
) -> bool:
    return (
        not wikilink_resolves(tree, link.target, memory.path)
        and not _marked(memory, link, (UNWRITTEN, ELSEWHERE))
        and name_key(link.target) not in placed()
    )


def _wikilink_findings(
    tree: MemoryTree, memory: MemoryFile, links: list[Link]
) -> Iterator[Finding]:
    """A wikilink close to a memory's name is a typo of its own; many that are close to
    none are one finding for the file."""
    unnamed = [link for link in links if near_name(tree, link.target) is None]
    grouped = unnamed if len(unnamed) >= GROUPED_WIKILINKS else []
    for link in links:
        if link not in grouped:
            yield _broken_wikilink(tree, memory, link.target, link.line)
    if grouped:
        yield _unnamed_wikilinks(memory, grouped)


def _unnamed_wikilinks(memory: MemoryFile, links: list[Link]) -> Finding:
    """Many wikilinks of one file that name nothing and are close to no memory's name (a
    vault's hub linking concepts with no note of their own): one finding for the file,
    one look, not one per link (issue 25: counts instead of floods)."""
    names = list(dict.fromkeys(link.target for link in links))
    lines = list(dict.fromkeys(link.line for link in links))
    shown = listed_at(names, lines, WIKILINKS_SHOWN, as_wikilink)
    return make_finding(
        ID,
        "broken-wikilink",
        memory.path,
        links[0].line,
        f"{len(names)} wikilinks match no memory's name, file name or title: {shown}"
        if len(names) > 1
        else f"wikilink [[{names[0]}]] matches no memory's name, file name or title"
        f" ({lines_listed(lines, WIKILINKS_SHOWN)})",
        "write the memories they name, fix the names, or drop the brackets; in a vault whose"
        " links name concepts with no note of their own, they are fine as they are",
        key="unnamed-wikilinks",  # the file's one such finding: more names keep it dismissed
        related=tuple(names),
        judgment=True,
    )


def _broken_links(tree: MemoryTree, memory: MemoryFile, broken: list[tuple[int, str]]) -> Finding:
    """One finding a file, however many of its links are broken: one cause (a folder
    moved, links written from the wrong folder), one decision. When each resolves with one
    more ``../`` (written as if the memory folder sat where its project's folder is), the
    suggestion says so."""
    line, target = broken[0]
    deeper = all(tree.resolve_path("../" + t, memory.path).exists for _, t in broken)
    if len(broken) == 1:
        message = f"link to `{target}` doesn't resolve"
        if deeper:
            message += f"; `../{target}` exists"
        key = target
    else:
        numbers = list(dict.fromkeys(n for n, _ in broken))
        lines = ", ".join(map(str, numbers[:SHOWN_LINKS]))
        more = f" and {len(numbers) - SHOWN_LINKS} more" if len(numbers) > SHOWN_LINKS else ""
        where = f"line{'s' if len(numbers) > 1 else ''} {lines}{more}"
        message = f"{len(broken)} links don't resolve ({where}), the first to `{target}`"
        if deeper:
            message += "; each resolves with one more `../`"
        # the broken targets themselves: a dismissal covers these, and a link that breaks
        # later raises the finding again
        key = "\n".join(sorted({t for _, t in broken}))
    if deeper:
        suggestion = "add one `../` to " + ("the link" if len(broken) == 1 else "each link")
    elif len(broken) == 1:
        suggestion = "update the link to the file's current path, or remove it"
    else:
        suggestion = "update each link to its file's current path, or remove it"
    return make_finding(ID, "broken-link", memory.path, line, message, suggestion, key=key)


def _unread_links(memory: MemoryFile) -> Iterator[Finding]:
    """One finding for a file's passages not read, however many: a chat log's dump of
    hundreds of dense lines is one thing to move out of memory, not hundreds."""
    spans = list(memory.links_unread)
    if not spans:
        return
    where = ", ".join(
        f"line {first}" if first == last else f"lines {first}–{last}"
        for first, last in spans[:SHOWN_LINKS]
    )
    if len(spans) > SHOWN_LINKS:
        where += f" and {len(spans) - SHOWN_LINKS} more passages"
    yield make_finding(
        ID,
        "links-not-read",
        memory.path,
        spans[0][0],
        f"{where}: too long or too dense in link syntax to parse; links there were not checked",
        "split the text into shorter paragraphs, or move bulk data out of memory",
        # every passage's first line: a dismissal covers these, a new passage raises it again
        key="\n".join(str(first) for first, _ in spans),
    )


def _placed_elsewhere(files: Sequence[MemoryFile]) -> frozenset[str]:
    """The wikilink names the tree itself places in the user's own store, in any file: a
    name kept there once is that store's wherever else the tree links it."""
    return frozenset(
        name_key(link.target)
        for memory in files
        for link in memory.links
        if link.wiki
        and MEMORY_WORD in _line(memory, link).lower()  # a cheap test first: most lines fail
        and (_marked(memory, link, (ELSEWHERE,)) or _marked_before(memory, link))
    )


def _line(memory: MemoryFile, link: Link) -> str:
    return memory.lines[link.line - 1] if 0 < link.line <= len(memory.lines) else ""


def _own_brackets(text: str, link: Link) -> Iterator[re.Match[str]]:
    """This link's own brackets on its line: [[name]], [[name|alias]] or [[name#part]], not
    a longer name's."""
    return re.finditer(rf"\[\[{re.escape(link.target)}(?:[|#][^\]]*)?\]\]", text)


def _marked_before(memory: MemoryFile, link: Link) -> bool:
    """The text right before the link places it in the user's own store (``See user
    auto-memory [[seam-keeps-peeling]]``)."""
    text = _line(memory, link)
    return any(
        ELSEWHERE_BEFORE.search(text, max(0, m.start() - 60), m.start())
        for m in _own_brackets(text, link)
    )


def _marked(memory: MemoryFile, link: Link, markers: tuple[re.Pattern[str], ...]) -> bool:
    """The text right after the link marks it: a note to write (``[[skill-library]] (not
    yet written)``, :data:`UNWRITTEN`) or one kept in another store (:data:`ELSEWHERE`)."""
    text = _line(memory, link)
    return any(marker.match(text, m.end()) for m in _own_brackets(text, link) for marker in markers)


def _broken_wikilink(tree: MemoryTree, memory: MemoryFile, target: str, line: int) -> Finding:
    near = near_name(tree, target)
    hint = f"; did you mean `{near}`?" if near else ""
    return make_finding(
        ID,
        "broken-wikilink",
        memory.path,
        line,
        f"wikilink [[{target}]] matches no memory's name, file name or title{hint}",
        f"point it at `{near}`"
        if near
        else "write that memory, fix the name, or drop the brackets",
        key=target,
        judgment=True,
        # a link that cuts a memory's name short is a typo to fix; the rest may be notes
        # not written yet, or names of things outside Claude Code's reach
        level="problem" if near else None,
    )
