"""Frontmatter validity: every memory file carries the fields discovery relies on.

The block is read the way Claude Code 2.1.328 reads it (DESIGN §2): it ends
at the first ``---``, is parsed as YAML, and on failure parsed once more after
quoting the values that tripped the parser. So each file is in one of three
cases, each reported once:

- read by strict YAML: nothing to say;
- ``strict-yaml-only`` (low severity): only Claude Code's retry reads it;
  strict parsers (GitHub, most tools) reject it. Every field still counts
  for the other checks. Fix: quote the values. When the retry also quoted a
  flow mapping (``metadata: { ... }``), Claude Code reads that as text: one
  ``invalid-field`` says so and names the value strict YAML tripped on, and its
  fix quotes that value only;
- ``unparseable-frontmatter`` (high severity): read by neither, so Claude
  Code sees no frontmatter in this file: no name, description or type.

Also how Claude Code reads it: ``value-cut-by-comment`` (an unquoted `` #``
starts a YAML comment; the rest of the value is lost to Claude Code too) and
``frontmatter-cut-short`` (a ``---`` inside a value ends the block early; the
fields below it are lost, and are not reported again as missing).

Read and parse problems come first (a file that cannot be read cannot be
checked); three or more links to missing files are one ``dangling-symlink``
naming them and the folder their targets share (a memory repository's links into
its author's home, cloned on another machine); three or more blocks that YAML
reads as one text (``key:value`` lines with no space after the colon), most of the
folder, are the format of what writes them: one
``frontmatter-not-mapping`` suggestion, not one error each. Then, per file:

- ``no-frontmatter``: the file has no ``---`` block at all. One cause is one
  suggestion, not a finding per file: three or more files and none with one (a folder
  Claude Code did not write); a dated series a tool writes (three or more
  ``name-<date>.md``, none with a block); a sub-folder of documents of another kind
  (``specs/``: none with a block, while the rest of the tree has them). Outside
  Claude Code's own folders, a folder of any size whose files hold no block and that
  has no MEMORY.md either (no agent's store, nor the folder a project's settings name)
  is another program's notes: skipped, not reported. A file the
  project's CLAUDE.md imports (``@.claude/memory/plan.md``) or names by path (in an agent's
  store, also its agent's definition: ``Load `napkin.md` from your memory``) needs none:
  Claude Code loads it whole into every session, or reads it from there; nor does any file
  of a repository's copy that the project's CLAUDE.md reads (it loads the index, or names
  the folder itself): sessions reach those through the index or by path, not by a
  description (a series or sub-folder of another kind there is still one suggestion);
- ``own-schema`` (suggestion): most memories follow another convention (several blocks
  of another schema, such as ``created``/``tags``, or none with ``name``/``description``;
  in Claude Code's own folders, blocks of another schema must be most of the files: an
  owner's own memory system): reported once, not a ``no-frontmatter`` or
  ``missing-field`` per file, nor an ``invalid-type`` for a type those blocks use;
- ``missing-field`` / ``empty-field`` / ``invalid-field``: a required field is
  absent, blank, or not text. Profile ``claude-code`` requires ``name``,
  ``description`` and ``type`` (top level or under ``metadata:``); profile
  ``governed`` also ``scope`` and ``relevance`` (``type: session-recap`` is
  exempt from ``relevance``);
- ``invalid-type``: ``type`` outside user | feedback | project | reference |
  session-recap; ``conflicting-type``: top-level and ``metadata.type`` differ;
- ``invalid-kind``: ``kind`` outside architectural-rule | decision | lesson |
  preference | warning;
- ``broad-scope`` (governed, user judgment): ``scope`` is empty or generic
  while the first paragraph is clearly about a specific module or technology.

Session recaps are checked by ``session-recaps`` (only how Claude Code reads
their block is reported here); ``team/`` only for secrets; files that are not
memories (README.md, a CLAUDE.md or AGENTS.md for agents, encrypted files) are
listed as skipped.

Failing::

    ---
    name: testing policy
    type: feedbak
    ---

    testing.md:3 — type `feedbak` is not one of user, feedback, project, reference,
    session-recap. Suggest: set type to one of them.

Passing::

    ---
    name: testing-policy
    description: Integration tests hit a real database, never mocks
    metadata: {type: feedback}
    ---
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from memory_audit.analysis.file_problems import (
    BINARY,
    DANGLING_FLOOD,
    binary_floods,
    dangling_links_finding,
    problem_findings,
)
from memory_audit.analysis.frontmatter_reading import flow_quoted, reading_findings
from memory_audit.analysis.note_conventions import own_convention
from memory_audit.analysis.off_schema import (
    bare_findings,
    folder_without_blocks,
    none_anywhere,
    own_convention_finding,
    text_blocks_finding,
)
from memory_audit.analysis.tree_home import (
    on_this_machine,
    other_agent_workspace,
    read_by_instructions,
    written_by_another_program,
)
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.dangling import DANGLING
from memory_audit.tree.memory_file import FileKind, MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "frontmatter"
TYPES = ("user", "feedback", "project", "reference", "session-recap")
NOT_MAPPING = "frontmatter-not-mapping"
TEXT_BLOCKS = 3  # this many blocks read as one text, most of the folder: its own format
KINDS = ("architectural-rule", "decision", "lesson", "preference", "warning")
REQUIRED = {
    "claude-code": ("name", "description", "type"),
    "governed": ("name", "description", "type", "scope", "relevance"),
}
GENERIC_SCOPES = frozenset({"", "global", "general", "all", "any", "everything", "*"})
DOMAIN_WORDS = frozenset(
    [
        "python",
        "rust",
        "go",
        "golang",
        "java",
        "kotlin",
        "swift",
        "typescript",
        "javascript",
        "node",
        "react",
        "vue",
        "svelte",
        "django",
        "flask",
        "fastapi",
        "rails",
        "postgres",
        "postgresql",
        "mysql",
        "sqlite",
        "redis",
        "kafka",
        "docker",
        "kubernetes",
        "terraform",
        "ansible",
        "pytest",
        "jest",
        "vitest",
        "webpack",
        "vite",
        "graphql",
        "grpc",
        "aws",
        "gcp",
        "azure",
        "nginx",
        "linux",
        "macos",
        "ios",
        "android",
        "cargo",
        "npm",
        "pip",
        "poetry",
        "celery",
        "airflow",
        "spark",
        "pandas",
        "numpy",
    ]
)
# A code span, a path, a source file name. A path is tried once per run of path characters,
# from where the run starts (``\b[\w.-]+/`` was tried again from each word in the run: a
# 30 KB ``a.a.a.`` paragraph was quadratic); it is shown from the run's first letter or digit,
# where ``\b`` put it.
CODE_TOKEN = re.compile(
    r"`[^`]+`|(?<![\w.-])[.-]*(?P<path>\w[\w.-]*/[\w./-]+)"
    r"|\b\w+\.(?:py|ts|tsx|js|rs|go|rb|java|sql|toml|ya?ml)\b"
)


@dataclass(frozen=True)
class Options:
    pass


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    unread = {
        path: problems
        for path, problems in sorted(tree.unread.items())
        if path != "MEMORY.md" and not path.startswith("sessions/")
    }
    dangling = [path for path, found in unread.items() if any(p.code == DANGLING for p in found)]
    flood = len(dangling) >= DANGLING_FLOOD
    if flood:
        yield dangling_links_finding(ID, tree.root, dangling)
    floods, binary = binary_floods(ID, unread)
    yield from floods
    for path, problems in unread.items():
        kept = [
            p
            for p in problems
            if not (flood and p.code == DANGLING) and not (path in binary and p.code == BINARY)
        ]
        yield from problem_findings(ID, path, kept)
    readable: list[MemoryFile] = []
    textual = _text_blocks(tree.memories)
    if textual:
        yield text_blocks_finding(ID, textual, len(tree.memories))
    grouped = {m.path for m in textual}
    skills = _agents_skills(tree)
    for memory in sorted(tree.of_kind(FileKind.MEMORY, FileKind.RECAP), key=lambda m: m.path):
        yield from reading_findings(ID, memory, own_loader=memory.path in skills)
        if memory.kind is not FileKind.MEMORY:
            continue
        if memory.path not in grouped:
            yield from problem_findings(ID, memory.path, memory.problems)
        if memory.frontmatter is not None or not (memory.frontmatter_present or memory.problems):
            readable.append(memory)
    foreign = written_by_another_program(tree)
    if foreign is not None:
        yield Skip(ID, foreign)  # no block anywhere: none to ask for, no field to check
        return
    yield from _schema(tree, readable, skills)


def _text_blocks(memories: list[MemoryFile]) -> list[MemoryFile]:
    """The memories whose block YAML reads as one text (``key:value`` lines without a space
    after the colon), when they are most of the folder and at least ``TEXT_BLOCKS``: the
    format of whatever writes them, not a lapse of each."""
    only = sorted(
        (m for m in memories if m.problems and all(p.code == NOT_MAPPING for p in m.problems)),
        key=lambda m: m.path,
    )
    return only if len(only) >= TEXT_BLOCKS and len(only) * 2 > len(memories) else []


def _schema(
    tree: MemoryTree, readable: list[MemoryFile], skills: frozenset[str]
) -> Iterator[Finding]:
    """Fields file by file (not another agent's ``skills``), files without frontmatter file by
    file or by their one cause."""
    bare = [m for m in readable if not m.frontmatter_present]
    # In Claude Code's own folder, a file off its schema is a lapse of the files it writes,
    # unless blocks of another schema are most of the folder: the owner's own system
    own = own_convention(readable, blocks_only=on_this_machine(tree), types=TYPES)
    instructed = read_by_instructions(tree)
    if folder_without_blocks(len(bare), tree.memories):
        # one cause: this folder was not written by Claude Code; nothing to ask when the
        # project's CLAUDE.md says how it is read, or its instructions name every such file
        if not instructed and any(m.path not in tree.instruction_named for m in bare):
            yield none_anywhere(ID, bare)
        return
    if own is not None:
        yield own_convention_finding(ID, own)
    own_types = own.types(TYPES) if own else frozenset()
    for memory in readable:
        if (
            memory.frontmatter is not None
            and not (own and memory in own.other)
            and not _a_template(memory.path)
            and memory.path not in skills
        ):
            yield from _fields(memory, tree.profile, own_types)
    if own is None or not own.bare:  # Claude Code's own folder: its bare files are lapses
        # but not one the project's CLAUDE.md imports or names by path: loaded whole every
        # session, or read from there, it is found by no description (the folder's question
        # above counts it still)
        lapses = [m for m in bare if m.path not in tree.instruction_named]
        # nor any file of a repository's folder the project's CLAUDE.md reads by path; a
        # series or sub-folder of another kind stays one finding: it names once the files
        # no session saved, which orphans would otherwise list one by one
        yield from bare_findings(ID, lapses, tree.memories, groups_only=instructed)


# Folders of templates and examples: their blocks hold blanks to fill in (``name:
# [your-skill-name]``, a list to YAML), a form, not a memory's fields (held-out judges: false)
TEMPLATE_FOLDERS = frozenset({"template", "templates", "example", "examples"})
SKILL_FILE = "SKILL.md"


def _agents_skills(tree: MemoryTree) -> frozenset[str]:
    """Another agent's skills (``skills/<name>/SKILL.md`` in an OpenClaw workspace): their
    blocks are that agent's loader's to read (its ``metadata`` a JSON string or a flow
    mapping), no memory's fields (held-out judges: false); a stray ``---`` or broken
    braces still break them (judged true)."""
    if other_agent_workspace(tree) is None:
        return frozenset()
    return frozenset(path for path in tree.files if path.rsplit("/", 1)[-1] == SKILL_FILE)


# ... and a file named as one in capitals (``SKILL-TEMPLATE.md``); ``feedback_templates.md``
# is a memory about templates, named as Claude Code names memories
TEMPLATE_NAME = re.compile(r"(?:^|[-_.])TEMPLATES?(?:[-_.]|$)")


def _a_template(path: str) -> bool:
    # a folder named to sort first (``_templates``) is a folder of templates still
    *folders, name = path.split("/")
    named = TEMPLATE_NAME.search(name.removesuffix(".md")) is not None
    return named or not TEMPLATE_FOLDERS.isdisjoint(f.lower().lstrip("_.") for f in folders)


def _fields(
    memory: MemoryFile, profile: str, own_types: frozenset[str] = frozenset()
) -> Iterator[Finding]:
    """The block's fields; a ``type`` of the folder's own convention (``own_types``: the
    layers its own system files by, ``type: procedural``) is its, not a typo."""
    metadata = memory.frontmatter.get("metadata") if memory.frontmatter else None
    # a flow mapping the retry quoted is the reading's finding, with its cause
    quoted = any(q.key == "metadata" for q in flow_quoted(memory))
    if metadata is not None and not isinstance(metadata, Mapping) and not quoted:
        yield _field_finding(
            memory,
            "invalid-field",
            "metadata",
            "`metadata` is not a mapping",
            "make `metadata:` a block of key: value lines",
        )
    for name in REQUIRED[profile]:
        if name == "relevance" and memory.type == "session-recap":
            continue
        yield from _required(memory, name, profile)
    yield from _type(memory, own_types)
    kind = memory.meta_text("kind")
    if kind and kind not in KINDS:
        yield _field_finding(
            memory,
            "invalid-kind",
            "kind",
            f"kind `{kind}` is not one of {', '.join(KINDS)}",
            "set kind to one of them, or remove it",
        )
    if profile == "governed":
        yield from _scope(memory)


def _required(memory: MemoryFile, name: str, profile: str) -> Iterator[Finding]:
    value = memory.meta(name)
    block = memory.split.block
    lost = block.cut_short.lost_fields if block is not None and block.cut_short else ()
    if name in lost or (name == "type" and "metadata" in lost):
        return  # reported once, as lost to the `---` that cut the block short
    if value is None and name not in _keys(memory):
        where = " (top level or under metadata:)" if name == "type" else ""
        yield _field_finding(
            memory,
            "missing-field",
            name,
            f"missing required field `{name}`{where} ({profile} profile)",
            f"add `{name}:` to the frontmatter",
            fix={"action": "add-field", "path": memory.path, "field": name},
        )
    elif name == "scope":
        return  # an empty scope is judged by _scope, not flagged as missing
    elif isinstance(value, Mapping) or (isinstance(value, list) and name != "relevance"):
        yield _field_finding(
            memory,
            "invalid-field",
            name,
            f"`{name}` is a {type(value).__name__}, expected text",
            f"write `{name}` as one line of text",
        )
    elif value is None or not str(value).strip():
        if memory.read.cut_at_comment(name):
            return  # written, then cut at an unquoted ` #`
        yield _field_finding(
            memory,
            "empty-field",
            name,
            f"`{name}` is empty",
            f"fill in `{name}`",
            fix={"action": "add-field", "path": memory.path, "field": name},
        )


def _keys(memory: MemoryFile) -> set[str]:
    fm = memory.frontmatter or {}
    metadata = fm.get("metadata")
    return set(fm) | (set(metadata) if isinstance(metadata, Mapping) else set())


def _type(memory: MemoryFile, own_types: frozenset[str]) -> Iterator[Finding]:
    fm = memory.frontmatter or {}
    top, metadata = fm.get("type"), fm.get("metadata")
    nested = metadata.get("type") if isinstance(metadata, Mapping) else None
    if top is not None and nested is not None and str(top).strip() != str(nested).strip():
        yield _field_finding(
            memory,
            "conflicting-type",
            "type",
            f"top-level type `{top}` disagrees with metadata.type `{nested}`",
            "keep one of them (metadata.type in the current layout)",
        )
    value = memory.type
    if value and value not in TYPES and value not in own_types:
        yield _field_finding(
            memory,
            "invalid-type",
            "type",
            f"type `{value}` is not one of {', '.join(TYPES)}",
            "set type to one of them",
        )


def _scope(memory: MemoryFile) -> Iterator[Finding]:
    if "scope" not in _keys(memory):
        return
    scope = memory.scope
    if not scope <= GENERIC_SCOPES:
        return
    hint = _domain_hint(memory.first_paragraph)
    if hint:
        yield _field_finding(
            memory,
            "broad-scope",
            "scope",
            f"scope is {'generic' if scope - {''} else 'empty'} but the body is specific "
            f"(mentions {hint})",
            f"narrow the scope to the area it applies to (e.g. `{hint.strip('`')}`)",
            judgment=True,
        )


def _domain_hint(paragraph: str) -> str:
    match = CODE_TOKEN.search(paragraph)
    if match:
        return str(match.group("path") or match.group(0))
    words: list[str] = re.findall(r"[a-z]+", paragraph.lower())
    return next((word for word in words if word in DOMAIN_WORDS), "")


def _field_finding(
    memory: MemoryFile,
    code: str,
    name: str,
    message: str,
    suggestion: str,
    *,
    judgment: bool = False,
    fix: dict[str, str] | None = None,
) -> Finding:
    line = memory.frontmatter_line(f"{name}:") or 1
    return make_finding(
        ID, code, memory.path, line, message, suggestion, key=name, judgment=judgment, fix=fix
    )
