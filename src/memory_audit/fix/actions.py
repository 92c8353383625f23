"""The fix actions: one small function per ``fix.action`` a finding can propose.

Each takes the tree (its guard), the finding's ``fix`` and the user's answers to the
action's questions, re-reads the files it touches, and returns an
:class:`Edit`. Nothing is written here. When the file no longer matches what
the audit saw, :class:`StaleTarget` asks the session to re-check the finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import frontmatter as frontmatter_lib

from memory_audit.analysis.note_conventions import unfenced_fields
from memory_audit.fix import frontmatter_edit as fm
from memory_audit.fix import tree_access
from memory_audit.fix.edits import (
    Edit,
    FileChange,
    NeedsValue,
    StaleTarget,
    index_line_added,
    new_name,
)
from memory_audit.fix.text_file import TextFile, new_file
from memory_audit.fix.todo_note import capture_todo_note
from memory_audit.fix.todo_note import description as todo_description
from memory_audit.fix.tree_access import Tree
from memory_audit.secrets.file_text import rules_text
from memory_audit.secrets.repeats import a_mention, standalone_places
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.tree.index_file import INDEX_LIMITS, INDEX_NAME, LIST_ITEM
from memory_audit.tree.markdown import parse_markdown

Fix = Mapping[str, Any]
TOPIC_NAME = "index-notes.md"  # move-to-topic's proposal, when the user names nothing
TOPIC_DESCRIPTION = "Notes moved out of MEMORY.md"


@dataclass(frozen=True)
class Action:
    build: Callable[[Tree, Fix, list[str]], Edit]
    questions: tuple[tuple[str, Callable[[Fix], str]], ...] = ()  # (question, default from fix)
    touches_index: bool = False
    # The first answer may not be empty for this fix: Apply never writes a blank value
    # where one is required (the session asks for it before showing the change).
    required: Callable[[Fix], bool] = lambda fix: False


def answers_for(action: Action, fix: Fix, value: str = "") -> list[str]:
    """The proposal's own answers; ``value`` for a required first answer it leaves empty."""
    answers = [default(fix) for _, default in action.questions]
    if answers and not answers[0].strip() and action.required(fix):
        answers[0] = value
    return answers


def _read(tree: Tree, rel: str) -> TextFile:
    """Through the tree guard: a fix reads (and later writes) only regular files inside
    the tree, whatever path a report or a finding names."""
    try:
        return TextFile.read_in(tree, rel)
    except tree_access.NotInTree as exc:
        raise StaleTarget(str(exc)) from None


def _read_if_present(tree: Tree, rel: str) -> TextFile | None:
    """:func:`_read`, or None for a file deleted since the audit: it holds nothing now."""
    try:
        return TextFile.read_in(tree, rel)
    except tree_access.Missing:
        return None
    except tree_access.NotInTree as exc:
        raise StaleTarget(str(exc)) from None


def _change(before: TextFile, lines: list[str]) -> FileChange:
    return FileChange(before, before.with_text("\n".join(lines)))


# ---- MEMORY.md -------------------------------------------------------------------------


def _index_line(index: TextFile, line: int, target: str) -> int:
    """The 0-based index of the MEMORY.md line linking ``target``: at ``line`` if it is
    still there, else wherever it moved (when exactly one line links it)."""
    patterns = (f"]({target})", f"]({target}#", f"](<{target}>)", f"[[{target}]]")
    lines = index.lines
    if 0 < line <= len(lines) and any(p in lines[line - 1] for p in patterns):
        return line - 1
    if 0 < line <= len(lines) and _masked_link(lines[line - 1], target):
        return line - 1
    found = [i for i, text in enumerate(lines) if any(p in text for p in patterns)]
    if len(found) == 1:
        return found[0]
    raise StaleTarget(f"MEMORY.md no longer has one line linking `{target}`")


def _entry_end(lines: list[str], at: int) -> int:
    """The line after the index entry at ``at`` (0-based): a list item's hook may wrap onto
    the lines below it, which left behind would join the entry above as its hook. The
    item's paragraph, as the index is parsed, says where it ends."""
    if LIST_ITEM.match(lines[at]) is None:
        return at + 1
    document = parse_markdown(lines, limits=INDEX_LIMITS)
    item = next((b for b in document.blocks if b.first == at + 1 and b.opens_item), None)
    return item.last if item is not None and item.kind == "paragraph" else at + 1


def _masked_link(line: str, target: str) -> bool:
    """A target the redaction boundary masked (``ghp_...aE7u.md``) still names the link of
    its own line: its visible head and tail, in that order, inside one link."""
    head, dots, tail = target.partition("...")
    if not dots:
        return False
    for opening, closing in (("](", ")"), ("[[", "]]")):
        start = line.find(opening + head)
        if start != -1 and line.find(tail + closing, start + len(opening + head)) != -1:
            return True
    return False


def remove_index_line(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    index = _read(tree, INDEX_NAME)
    at = _index_line(index, int(fix["line"]), str(fix["target"]))
    lines = index.lines
    removed = _change(index, lines[:at] + lines[_entry_end(lines, at) :])
    relate = fix.get("relate")
    if not isinstance(relate, Mapping):
        return Edit(f"MEMORY.md: removed the index line for `{fix['target']}`", (removed,))
    # The follow-up in the same decision: the successor declares what it supersedes, so
    # the file stays reachable once out of the index.
    successor = _read(tree, str(relate["path"]))
    related = fm.add_relation(successor.lines, str(relate["type"]), str(relate["target"]))
    return Edit(
        f"MEMORY.md: removed the index line for `{fix['target']}`; `{relate['path']}` "
        f"{relate['type']} `{relate['target']}`",
        (removed, _change(successor, related)),
    )


def update_index_path(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    index = _read(tree, INDEX_NAME)
    old, new = str(fix["old"]), (answers[0] if answers else str(fix["new"]))
    at = _index_line(index, int(fix["line"]), old)
    lines = index.lines
    if f"]({old}" not in lines[at] and f"](<{old}>)" not in lines[at]:
        raise fm.CannotEdit("the link holds a possible secret; redact it first")
    lines[at] = (
        lines[at].replace(f"]({old}", f"]({new}", 1).replace(f"](<{old}>)", f"](<{new}>)", 1)
    )
    return Edit(f"MEMORY.md: index link `{old}` now points at `{new}`", (_change(index, lines),))


def add_index_line(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    text = answers[0] if answers and answers[0].strip() else str(fix["text"])
    change = index_line_added(tree, text)
    return Edit(f"MEMORY.md: added an index line for `{fix['path']}`", (change,))


def create_index(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    """A tree with no MEMORY.md gets one, a pointer per memory (``missing-index``)."""
    if tree.exists(INDEX_NAME):
        raise StaleTarget("MEMORY.md exists now")
    text = str(fix["text"])
    count = sum(1 for line in text.splitlines() if line.startswith("- ["))
    change = FileChange(None, new_file(tree, INDEX_NAME, text))
    return Edit(f"MEMORY.md: created, with a line for each of {count} memories", (change,))


def move_to_topic(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    """Knowledge written into the index moves to a topic file; a pointer stays.

    A pointer-only index: docs/dimensions.md, "The memory model".
    """
    index = _read(tree, INDEX_NAME)
    # One block (first..last), or every block of the index at once (``ranges``: the grouped
    # finding's one fix); the pointer takes the first block's place.
    spans = [(int(a) - 1, int(b)) for a, b in fix.get("ranges") or [(fix["first"], fix["last"])]]
    first = spans[0][0]
    lines = index.lines
    if any(a < 0 or a >= b or b > len(lines) for a, b in spans):
        raise StaleTarget("MEMORY.md changed: those lines are no longer there")
    name = (answers[0] if answers else "").strip() or TOPIC_NAME
    description = (answers[1] if len(answers) > 1 else "").strip() or TOPIC_DESCRIPTION
    rel = new_name(tree, name)
    body = "\n\n".join("\n".join(lines[a:b]).strip() for a, b in spans) + "\n"
    post = frontmatter_lib.Post(
        body, name=Path(name).stem, description=description, type="reference"
    )
    topic = new_file(tree, rel, frontmatter_lib.dumps(post) + "\n")
    title = Path(name).stem.replace("-", " ").replace("_", " ").capitalize()
    pointer = f"- [{title}]({name}) — {description}"
    moved = {number for a, b in spans for number in range(a, b)}
    kept = [
        pointer if number == first else line
        for number, line in enumerate(lines)
        if number == first or number not in moved
    ]
    where = ", ".join(f"{a + 1}–{b}" for a, b in spans)
    return Edit(
        f"MEMORY.md: moved lines {where} into `{name}`",
        (FileChange(None, topic), _change(index, kept)),
    )


# ---- frontmatter -------------------------------------------------------------------------


def add_superseded_by(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    memory = _read(tree, str(fix["path"]))
    lines = fm.add_list_value(memory.lines, "superseded_by", str(fix["value"]))
    return Edit(f"{fix['path']}: superseded_by `{fix['value']}`", (_change(memory, lines),))


def add_relation(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    memory = _read(tree, str(fix["path"]))
    lines = fm.add_relation(memory.lines, str(fix["type"]), str(fix["target"]))
    return Edit(
        f"{fix['path']}: added relation {fix['type']} `{fix['target']}`", (_change(memory, lines),)
    )


def remove_relation(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    memory = _read(tree, str(fix["path"]))
    lines = fm.remove_relation(memory.lines, str(fix["type"]), str(fix["target"]))
    return Edit(
        f"{fix['path']}: removed the broken relation to `{fix['target']}`",
        (_change(memory, lines),),
    )


def set_field(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    value = answers[0] if answers else str(fix["value"])
    if not value.strip():
        raise NeedsValue(f"`{fix['field']}` needs a value; an empty one is reported as empty")
    memory = _read(tree, str(fix["path"]))
    if not memory.text.startswith("---"):
        lines = ["---", f"{fix['field']}: {fm.scalar(value)}", "---", *memory.lines]
    else:
        lines = fm.set_value(memory.lines, str(fix["field"]), value)
    return Edit(f"{fix['path']}: set {fix['field']} to `{value}`", (_change(memory, lines),))


def quote_values(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    """Write values that only Claude Code's lenient retry reads as proper YAML strings."""
    memory = _read(tree, str(fix["path"]))
    lines = memory.lines
    values: Mapping[str, Any] = fix["values"]
    for key, value in values.items():
        lines = fm.set_value(lines, str(key), str(value))
    keys = ", ".join(f"`{key}`" for key in values)
    return Edit(f"{fix['path']}: quoted {keys}", (_change(memory, lines),))


def add_frontmatter(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    """A new block; or, with ``fence``, the file's first lines (``name:`` and the like
    written without ``---``) fenced, with the fields they lack added."""
    rel = str(fix["path"])
    memory = _read(tree, rel)
    description, kind = ([*answers, "", ""])[:2]
    fields = {
        "name": Path(rel).stem.replace("_", "-"),
        "description": description or "TODO: one line saying when this matters",
        "type": kind or "project",
    }
    fenced = int(fix.get("fence") or 0)
    kept = memory.lines[:fenced]
    if fenced and unfenced_fields(kept)[0] != fenced:
        raise StaleTarget(f"{rel} no longer opens with those field lines")
    # A fenced field that would not parse as YAML is written again as a quoted scalar:
    # "description: Deploy notes: how we ship" was prose, unfenced; the others stay as typed.
    pairs = [line.partition(":")[::2] for line in kept]
    present = {key for key, _ in pairs}
    rewritten = [
        line if fm.parses(line) else f"{key}: {fm.scalar(value.strip())}"
        for line, (key, value) in zip(kept, pairs, strict=True)
    ]
    added = [f"{key}: {fm.scalar(value)}" for key, value in fields.items() if key not in present]
    header = ["---", *rewritten, *added, "---"]
    done = "fenced its frontmatter" if fenced else "added frontmatter"
    return Edit(f"{rel}: {done}", (_change(memory, header + memory.lines[fenced:]),))


def demote_relevance(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    memory = _read(tree, str(fix["path"]))
    value = (answers[0] if answers else "").strip()
    if not value and fix.get("keep_field"):
        raise NeedsValue("the governed profile requires `relevance`; removing it is a new finding")
    if value == "always":
        raise NeedsValue("`always` is what this fix removes; name the phase or area it is for")
    lines = (
        fm.set_value(memory.lines, "relevance", value)
        if value
        else fm.remove_key(memory.lines, "relevance")
    )
    shown = f"relevance `{value}`" if value else "no relevance"
    return Edit(f"{fix['path']}: relevance always → {shown}", (_change(memory, lines),))


# ---- files and secrets -----------------------------------------------------------------


def rename_file(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    rel = str(fix["path"])
    to = answers[0] if answers and answers[0].strip() else str(fix["to"])
    memory = _read(tree, rel)
    target = new_name(tree, to)
    kind = str(fix.get("set_type") or "")
    if not kind:
        return Edit(f"renamed `{rel}` to `{to}`", (FileChange(memory, memory, rename_to=target),))
    typed = _change(memory, fm.set_value(memory.lines, "type", kind))
    return Edit(
        f"renamed `{rel}` to `{to}`, type `{kind}`",
        (FileChange(memory, typed.after, rename_to=target),),
    )


def replace_text(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    """A stale reference becomes its new form: ``old`` -> ``new`` on the finding's line, or
    on the one line that still holds ``old`` if the file moved on."""
    rel, old = str(fix["path"]), str(fix["old"])
    new = answers[0] if answers and answers[0].strip() else str(fix["new"])
    memory = _read(tree, rel)
    lines = memory.lines
    at = _replace_on_line(lines, rel, int(fix.get("line") or 0), old, new)
    return Edit(f"{rel}: `{old}` → `{new}` (line {at + 1})", (_change(memory, lines),))


def replace_texts(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
    """Several stale references of one memory (files one commit renamed) become their new
    forms in one edit; any of them the file no longer cites refuses the whole edit."""
    rel = str(fix["path"])
    memory = _read(tree, rel)
    lines = memory.lines
    done = []
    for item in fix["replacements"]:
        old, new = str(item["old"]), str(item["new"])
        at = _replace_on_line(lines, rel, int(item.get("line") or 0), old, new)
        done.append(f"`{old}` → `{new}` (line {at + 1})")
    return Edit(f"{rel}: " + ", ".join(done), (_change(memory, lines),))


def _replace_on_line(lines: list[str], rel: str, line: int, old: str, new: str) -> int:
    """``old`` -> ``new`` on ``line`` (1-based), or on the one line that still holds ``old``
    if the file moved on; the 0-based line changed."""
    # the path itself, not the tail of a longer one (`vendor/skills/timer.py` holds
    # `skills/timer.py`; `./skills/timer.py` is it) nor the head of one (`timer.py.bak`)
    cited = re.compile(rf"(?<![\w-])(?<![\w-]/){re.escape(old)}(?![\w/-]|\.\w)")
    if 0 < line <= len(lines) and cited.search(lines[line - 1]):
        at = line - 1
    else:
        found = [i for i, text in enumerate(lines) if cited.search(text)]
        if len(found) != 1:
            raise StaleTarget(f"{rel} no longer has one line citing `{old}`")
        at = found[0]
    lines[at] = cited.sub(lambda _: new, lines[at])
    return at


def redact_secret(scanner: Scanner) -> Callable[[Tree, Fix, list[str]], Edit]:
    def build(tree: Tree, fix: Fix, answers: list[str]) -> Edit:
        rel = str(fix["path"])
        read = {path: _read_if_present(tree, path) for path in _secret_files(fix)}
        files = {path: memory for path, memory in read.items() if memory is not None}
        as_read = {path: rules_text(path, memory.text) for path, memory in files.items()}
        found = {
            path: [m for m in scanner.scan(as_read[path]) if _the_value(m, fix)]
            for path, memory in files.items()
        }
        if not any(found.values()):
            raise StaleTarget(f"that secret is no longer in {rel}")
        # The value's text, wherever a rule matched it: its repeats, where no rule sees it
        # (``repeated-credential``), go in the same decision, or they would drop out of the
        # report unredacted.
        secrets = {as_read[p][m.start : m.end]: m.rule for p in files for m in found[p]}
        changes = {
            path: FileChange(memory, memory.with_text(redacted))
            for path, memory in files.items()
            if (redacted := _redacted_all(memory.text, as_read[path], found[path], secrets))
            != memory.text
        }
        first = next(m for matches in found.values() for m in matches)
        others = len(changes.keys() - {rel})
        also = f", and its copies in {others} other file(s)" if others else ""
        return Edit(
            f"{rel}: redacted a possible {first.label} (line {first.line}){also}",
            tuple(changes.values()),
        )

    return build


def _the_value(match: SecretMatch, fix: Fix) -> bool:
    """The finding's value, whatever rule matched it here (``value``; only ``fingerprint``,
    its first place's rule's, in fixes written before one value was one finding)."""
    return match.value_fingerprint == fix.get("value") or match.fingerprint == fix["fingerprint"]


def _redacted_all(text: str, read: str, matches: list[SecretMatch], secrets: dict[str, str]) -> str:
    """``text`` with the rules' matches of the value redacted, then its repeats; ``read``:
    the text as the rules read it (:func:`rules_text`: a string's escapes blanked, the same
    places), where the places are looked for."""
    for match in sorted(matches, key=lambda m: m.start, reverse=True):
        text, read = _redacted_at(text, read, match.start, match.end, match.rule)
    for secret, rule in secrets.items():
        text, read = _redacted(text, read, secret, rule)
    return text


def _secret_files(fix: Fix) -> list[str]:
    """The finding's file first, then every other file holding the value: its ``places``
    (``also`` in fixes written before places were listed)."""
    places = [str(place["path"]) for place in fix.get("places") or ()]
    also = [str(path) for path in fix.get("also") or ()]
    return list(dict.fromkeys([str(fix["path"]), *places, *sorted(also)]))


def _redacted(text: str, read: str, secret: str, rule: str) -> tuple[str, str]:
    """``text`` with each place that repeats ``secret`` redacted: never a shorter value
    inside a word ("rust" in "trust"), a host or a file name, nor someone's handle that is
    the password's text too (``@<secret>``: the name, which the audit does not list).
    Every other copy goes, listed or not: a copy left would drop out of the report with
    the rules' own places redacted."""
    for start, end in reversed(standalone_places(read, secret)):
        if a_mention(read, start, end):
            continue
        text, read = _redacted_at(text, read, start, end, rule)
    return text, read


def _redacted_at(text: str, read: str, start: int, end: int, rule: str) -> tuple[str, str]:
    """``text`` and the same text as the rules read it, each with ``start:end`` redacted:
    both keep the same places for the redactions after this one."""
    mark = f"<REDACTED:{rule}>"
    return text[:start] + mark + text[end:], read[:start] + mark + read[end:]


def actions(scanner: Scanner) -> dict[str, Action]:
    """Every fix action, by the ``fix.action`` name the checks use."""
    return {
        "remove-index-line": Action(remove_index_line, touches_index=True),
        "update-index-path": Action(
            update_index_path, (("New path", lambda f: str(f["new"])),), touches_index=True
        ),
        "add-index-line": Action(
            add_index_line, (("Index line", lambda f: str(f["text"])),), touches_index=True
        ),
        "create-index": Action(create_index, touches_index=True),
        "move-to-topic": Action(
            move_to_topic,
            (
                # The finding may propose them (the entries a cut index hides: their own file)
                ("New topic file", lambda f: str(f.get("name") or TOPIC_NAME)),
                (
                    "Its one-line description",
                    lambda f: str(f.get("description") or TOPIC_DESCRIPTION),
                ),
            ),
            touches_index=True,
        ),
        "add-superseded-by": Action(add_superseded_by),
        "add-relation": Action(add_relation),
        "remove-relation": Action(remove_relation),
        "set-field": Action(set_field, (("Value", lambda f: str(f["value"])),)),
        "add-field": Action(set_field, (("Value", lambda f: ""),), required=lambda f: True),
        "quote-values": Action(quote_values),
        "add-frontmatter": Action(
            add_frontmatter,
            (
                ("Description (one line: when does this matter?)", lambda f: ""),
                ("Type (user, feedback, project, reference)", lambda f: "project"),
            ),
        ),
        "demote-relevance": Action(
            demote_relevance,
            (("New relevance (empty: remove the field)", lambda f: ""),),
            required=lambda f: bool(f.get("keep_field")),
        ),
        "rename-file": Action(rename_file, (("New name", lambda f: str(f["to"])),)),
        "redact-secret": Action(redact_secret(scanner)),
        "replace-text": Action(replace_text, (("Replace with", lambda f: str(f["new"])),)),
        "replace-texts": Action(replace_texts),
        "capture-todo-note": Action(
            capture_todo_note,
            (("Note file", lambda f: str(f["path"])), ("Its description", todo_description)),
            touches_index=True,
        ),
    }
