"""What a file in the memory folder is, beyond where it lies: recap, memory or not a memory.

- A session recap is a file under ``sessions/`` (the seed's layout), a file
  whose name matches one of the recap globs (real trees keep
  ``session_2026-04-14_<topic>.md`` and ``project_session_<date>.md`` at the
  top level; the default ``*_session_*`` glob asks for a year in the name so
  that ``feedback_session_management.md`` stays a memory), or a file with
  ``type: session-recap`` (``MemoryFile.kind``).
  MEMORY.md is never a recap, whatever the globs say.
- Not memories: a ``README.md`` (any case) explains the folder to people, a
  ``CLAUDE.md`` or ``AGENTS.md`` tells agents how to keep it (real trees hold one
  beside MEMORY.md: the folder's own conventions, no note with a name or a type);
  encrypted files (git-crypt's binary header, transcrypt's and openssl's
  ``Salted__`` header in base64, ``U2FsdGVkX1``, or any body that is one
  high-entropy base64 block) hold nothing Claude Code can read; a file whose first lines
  say a tool generates it (``Generated **2026-06-14 02:50 UTC**``, ``DO NOT EDIT``) is
  rewritten by that tool. They are listed as "not memories, skipped" and still scanned
  for secrets when text.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from fnmatch import fnmatchcase

from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.memory_file import FileKind

# Where a tree keeps memories it no longer loads but keeps for their history (review's
# archive action moves them there): finished work there is the point, not a finding, and
# so is their absence from the index. The first is the one review creates.
ARCHIVE_FOLDERS = (
    "archive",
    "archived",
    "_archive",
    "archives",
    "retired",
    "deprecated",
    "attic",
)


def in_archive(path: str) -> bool:
    """In an archive folder at any depth: a tree that files notes by topic keeps each
    topic's retired notes beside it (``tasks/deprecated/``, ``research/archive/``)."""
    return any(part.lower() in ARCHIVE_FOLDERS for part in path.split("/")[:-1])


# `*_session_*` with a year in it: `project_session_2026-03-15.md` is a recap, while
# `feedback_session_management.md` (seen in real trees) is a memory about sessions.
DEFAULT_RECAP_GLOBS = ("session_*.md", "*_session_*[0-9][0-9][0-9][0-9]*.md")
_INSTRUCTIONS = "instructions for agents on keeping the folder, not a memory"
# Files a folder holds for the people or agents who keep it, by their (lower-cased) names
NOT_MEMORY_NAMES = {
    "readme.md": "a README for people, not a memory",
    "claude.md": _INSTRUCTIONS,
    "agents.md": _INSTRUCTIONS,
}
# A test suite's data, kept broken on purpose (a parser's test of odd frontmatter): a
# project someone cloned into the folder, not a memory. A folder named only "fixtures" is a
# test's when a test folder holds it (``fixtures/arsenal.md`` may be a fan's notes)
FIXTURE_FOLDERS = frozenset({"__fixtures__", "testdata", "test-fixtures"})
FIXTURES = "fixtures"
TEST_FOLDERS = frozenset({"test", "tests", "spec", "specs", "__tests__", "testing"})
FIXTURE_REASON = "a test suite's fixture, not a memory"
OPENSSL_SALTED = "U2FsdGVkX1"  # base64 of "Salted__", how openssl enc and transcrypt begin
BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
# A character neither base64 nor whitespace (re's \s and str.split agree on whitespace).
NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/=\s]")
MIN_BASE64_BODY = 64  # shorter runs are ids and hashes, not files
MIN_ENTROPY = 4.8  # bits per character: random base64 is 5-6, letters-only prose near 4.2
# A file a tool writes says so at its top: a digest rebuilt every half hour, a page a script
# renders. Its wikilinks, length and missing frontmatter are the tool's, and an edit is lost
# at the next run: listed as not a memory (and still scanned for secrets).
GENERATED = re.compile(
    r"(?i)[\W_]{0,8}(?:(?:this (?:file|page|document|index) (?:is|was) )?(?:auto[- ]?)?"
    r"generated\W{1,6}(?:by\b|from\b|on\b|at\b|\d{4}-\d{2}-\d{2})"
    # a banner: a comment, or a line that is the warning alone ("DO NOT EDIT", "<!-- Do not
    # edit: built by make docs -->"); never a rule in a sentence ("do not edit X by hand")
    r"|<!--.{0,60}\bdo not edit\b|do not edit(?: this file| manually| directly| by hand)?\W{0,4}$)"
)
GENERATED_LINES = 5  # the title, a blank, the stamp: read no further than a few lines
GENERATED_WINDOW = 400  # characters: a title, a blank line, the stamp


def listed_kind(path: str, walked: FileKind, recap_globs: Sequence[str]) -> FileKind:
    """The kind a file's place and name give it (its frontmatter may add RECAP later)."""
    name = path.rsplit("/", 1)[-1]
    if walked is not FileKind.MEMORY or path == INDEX_NAME:
        return walked
    if name.lower() in NOT_MEMORY_NAMES:
        return FileKind.NOT_MEMORY
    if any(fnmatchcase(name, glob) for glob in recap_globs):
        return FileKind.RECAP
    return walked


INDEX_CASE_REASON = "the folder's index under another case: no memory of its own"


def index_by_another_case(path: str) -> bool:
    """``memory.md`` at the folder's top: its index, named in another case, when the folder
    has no MEMORY.md (beside one, on Linux, it is a memory of its own)."""
    return path != INDEX_NAME and path.lower() == INDEX_NAME.lower()


def not_memory_reason(path: str, text: str) -> str | None:
    """Why a readable file is not a memory, or None when it may be one."""
    reason = NOT_MEMORY_NAMES.get(path.rsplit("/", 1)[-1].lower())
    if reason is not None:
        return reason
    if _a_fixture(path):
        return FIXTURE_REASON
    body = text.strip()
    if body.startswith(OPENSSL_SALTED):
        return "encrypted: openssl / transcrypt"
    if _is_base64_block(body):
        return "encrypted or encoded: one high-entropy base64 block"
    if _says_generated(body):
        return "generated by a tool, which rewrites it: not a memory to edit"
    return None


def _a_fixture(path: str) -> bool:
    folders = [part.lower() for part in path.split("/")[:-1]]
    if any(part in FIXTURE_FOLDERS for part in folders):
        return True
    at = folders.index(FIXTURES) if FIXTURES in folders else -1
    return at > 0 and any(part in TEST_FOLDERS for part in folders[:at])


def _says_generated(body: str) -> bool:
    """Whether the file's first lines say a tool writes it (``Generated **2026-06-14**``,
    ``<!-- Auto-generated by build_graph.py -->``, ``DO NOT EDIT``). A file that opens with
    a frontmatter block was written as a memory: not asked (nor read: most files)."""
    if body.startswith("---"):
        return False
    head = body[:GENERATED_WINDOW]
    lowered = head.lower()
    if "generated" not in lowered and "do not edit" not in lowered:
        return False  # most files: two substring tests, no pattern (it backtracks per line)
    opening = [line for line in head.split("\n") if line.strip()]
    return any(GENERATED.match(line) for line in opening[:GENERATED_LINES])


def _is_base64_block(body: str) -> bool:
    if NOT_BASE64.search(body):  # found at once in prose; no copy of the body
        return False
    packed = "".join(body.split())
    if len(packed) < MIN_BASE64_BODY or not set(packed) <= BASE64_CHARS:
        return False
    counts = Counter(packed)
    entropy = -sum(n / len(packed) * math.log2(n / len(packed)) for n in counts.values())
    return entropy >= MIN_ENTROPY
