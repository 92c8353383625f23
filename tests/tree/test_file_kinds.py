"""Recaps by place, name or type; README and encrypted files are not memories."""

from __future__ import annotations

import base64
import math
import os
import string
from collections import Counter
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_audit.tree import file_kinds
from memory_audit.tree.file_kinds import not_memory_reason
from memory_audit.tree.memory_file import FileKind
from memory_audit.tree.snapshot import load_tree
from tests.harness import findings, index, load, memory, report, write_tree

RECAP = "---\nname: r\ndescription: what the session did\ntype: project\n---\nBody.\n"


def test_recap_by_top_level_name_is_exempt_from_index_drift_and_orphans(tree_dir: Path) -> None:
    files = {
        "session_2026-04-14_rate-limits.md": RECAP,
        "project_session_2026-03-15.md": RECAP,
        "feedback_session_management.md": memory("feedback_session_management"),
        "typed.md": memory("typed", type="session-recap"),
    }
    write_tree(tree_dir, {"MEMORY.md": index(), **files})
    tree = load(tree_dir)
    kinds = {path: f.kind for path, f in tree.files.items()}
    assert kinds == {
        "session_2026-04-14_rate-limits.md": FileKind.RECAP,
        "project_session_2026-03-15.md": FileKind.RECAP,
        "feedback_session_management.md": FileKind.MEMORY,  # a memory about sessions
        "typed.md": FileKind.RECAP,
    }
    paths = {f.path for f in findings(tree_dir, "index-drift", "orphans", "session-recaps")}
    assert paths == {"feedback_session_management.md"}


def test_recap_globs_are_configurable_and_never_match_the_index(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("notes.md"), "notes.md": memory("notes")})
    tree = load_tree(tree_dir, recap_globs=("*.md",))
    assert tree.files["notes.md"].kind is FileKind.RECAP
    assert tree.index is not None  # MEMORY.md is still the index, never a recap
    assert "MEMORY.md" not in tree.files


def test_readme_and_encrypted_files_are_listed_as_not_memories(tree_dir: Path) -> None:
    ciphertext = base64.b64encode(b"Salted__" + os.urandom(200)).decode()
    random_b64 = base64.b64encode(os.urandom(300)).decode()
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "README.md": "# My memory\n\nPassword: hunter2hunter2 is not a secret rule hit.\n",
            "CLAUDE.md": "# Memory module\n\n`MEMORY.md` is the active index; link notes there.\n",
            "refs.secret.md": ciphertext + "\n",
            "blob.md": "\n".join(random_b64[i : i + 76] for i in range(0, len(random_b64), 76)),
            "crypt.md": b"\x00GITCRYPT\x00" + os.urandom(64),
        },
    )
    found = report(tree_dir)
    assert dict(found.not_memories) == {
        "CLAUDE.md": "instructions for agents on keeping the folder, not a memory",
        "README.md": "a README for people, not a memory",
        "blob.md": "encrypted or encoded: one high-entropy base64 block",
        "crypt.md": "encrypted: git-crypt",
        "refs.secret.md": "encrypted: openssl / transcrypt",
    }
    assert found.memory_files == 1
    assert {f.path for f in found.findings} <= {"a.md", "MEMORY.md"}


def test_readme_is_still_scanned_for_secrets(tree_dir: Path) -> None:
    token = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD5fG0hJ2aE7u"
    write_tree(tree_dir, {"MEMORY.md": index(), "README.md": f"# Notes\n\ntoken {token}\n"})
    assert [f.path for f in findings(tree_dir, "secrets")] == ["README.md"]


def test_prose_without_punctuation_is_not_taken_for_base64(tree_dir: Path) -> None:
    prose = "This memory has no frontmatter and no punctuation at all just words " * 3
    write_tree(tree_dir, {"MEMORY.md": index("p.md"), "p.md": prose})
    assert load(tree_dir).files["p.md"].kind is FileKind.MEMORY


def test_a_base64_block_is_known_by_its_characters_whatever_whitespace_wraps_it() -> None:
    block = base64.b64encode(os.urandom(300)).decode()
    lines = [block[i : i + 64] for i in range(0, len(block), 64)]
    for wrap in ("\n", "\r\n", "\t", "\u00a0", "\u2028"):
        reason = not_memory_reason("x.md", wrap.join(lines))
        assert reason == "encrypted or encoded: one high-entropy base64 block", repr(wrap)
    assert not_memory_reason("x.md", "\n".join(lines[:2]) + "\n-\n" + "\n".join(lines[2:])) is None


def _base64_block_in_full(body: str) -> bool:
    """The test before its early search (issue 19): pack, compare sets, measure entropy."""
    packed = "".join(body.split())
    if len(packed) < file_kinds.MIN_BASE64_BODY or not set(packed) <= file_kinds.BASE64_CHARS:
        return False
    counts = Counter(packed)
    entropy = -sum(n / len(packed) * math.log2(n / len(packed)) for n in counts.values())
    return entropy >= file_kinds.MIN_ENTROPY


BASE64_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(string.ascii_letters + string.digits + "+/="),
        st.sampled_from(" \t\n\r\v\f\x1c\x1d\x1e\x1f\x85\xa0\u2028\u3000-_.,!é日"),
    ),
    max_size=300,
)


@settings(max_examples=400, deadline=None)
@given(BASE64_TEXT)
@example(base64.b64encode(os.urandom(120)).decode())
@example(base64.b64encode(os.urandom(120)).decode().replace("A", "\u3000"))
@example(base64.encodebytes(os.urandom(200)).decode().replace("\n", "\x1c"))
def test_the_early_search_for_a_non_base64_character_changes_no_answer(body: str) -> None:
    assert file_kinds._is_base64_block(body) == _base64_block_in_full(body)
