"""What a ``[[wikilink]]`` resolves to, for every check that reads one (index and bodies).

A memory of this tree first (by its name, or by its path: ``[[categories/decisions]]``);
then a ticket reference, a route folder's segment (``[[...slug]]``) or a chat gateway's reply
directive (``[[reply_to_current]]``), which are no links at all; then
anything else Claude Code may mean by the name (:mod:`memory_audit.sources.claude_names`:
skills, agents, commands, notes above the tree, CLAUDE.md headings, other stores).
"""

from __future__ import annotations

import re
from typing import cast

from memory_audit.sources.claude_names import outside_names
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.snapshot import MemoryTree, name_key

# [[#123]], [[issue-123]], [[PROJ-42]], [[PR 17]]: a ticket, not a note.
# A tracker's key is upper case (PROJ-42): [[phase-2]] is a note's name.
TICKET = re.compile(
    r"#?\d+|(?:issue|pr|bug|ticket|gh)[-_ #]?\d+|(?-i:[A-Z][A-Z0-9]{1,9}-\d+)", re.I
)
# [[...slug]]: a route folder's name (Next.js' optional catch-all segment), not a note
ROUTE_SEGMENT = re.compile(r"\.\.\.[\w-]+")
# [[reply_to_current]], [[reply_to:<id>]], [[audio_as_voice]], [[tts:...]]: a chat gateway's
# reply directives (OpenClaw's), which a saved session keeps in the assistant's text
CHAT_DIRECTIVE = re.compile(r"reply_to_current|reply_to\s*:\s*\S+|audio_as_voice|/?tts:.*", re.I)
NEAR_MINIMUM = 6  # shorter names match too much as prefixes
ELISION = "\u2026"
INDEX_KEY = name_key(INDEX_NAME)


def wikilink_resolves(tree: MemoryTree, target: str, source: str) -> bool:
    if tree.resolve_link(target, source, wiki=True).exists:
        return True
    if name_key(target) == INDEX_KEY and INDEX_NAME in tree.present:
        return True  # [[MEMORY]]: the index itself
    bare = target.strip()
    if TICKET.fullmatch(bare) or ROUTE_SEGMENT.fullmatch(bare) or CHAT_DIRECTIVE.fullmatch(bare):
        return True
    return name_key(target.split("|", 1)[0].split("#", 1)[0]) in _outside(tree)


def _outside(tree: MemoryTree) -> frozenset[str]:
    key = ("wikilink-outside-names",)
    if key not in tree.scratch:  # listed once per tree, and only when a wikilink is unresolved
        names = outside_names(tree.root, tree.location.project_path)
        tree.scratch[key] = frozenset(name_key(n) for n in names) - {""}
    return cast(frozenset[str], tree.scratch[key])


def near_name(tree: MemoryTree, target: str) -> str | None:
    """A memory whose name the link cuts short or runs past (a truncated file name)."""
    key = name_key(target)
    if len(key) < NEAR_MINIMUM or ELISION in target or "..." in target:
        return None  # [[project_...]]: a name left out on purpose, no truncated one
    for name, path in sorted(tree.names.items()):
        if len(name) >= NEAR_MINIMUM and (_cut_short(name, key) or key.startswith(name)):
            return path
    return None


def _cut_short(name: str, key: str) -> bool:
    """``[[deploy-chec]]`` for ``deploy-checklist``: cut inside a word, or after two words
    or more (``[[knowledge-blender-geometry]]``). One whole word (``[[budget]]`` beside
    ``budget-constraints``) is a name of its own, a broader topic or a vault's concept."""
    if not name.startswith(key):
        return False
    return len(name) == len(key) or name[len(key)].isalnum() or "-" in key


def as_wikilink(name: str) -> str:
    """How a finding writes a wikilink's name: ``[[name]]``."""
    return f"[[{name}]]"
