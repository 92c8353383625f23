"""Values a tree uses as names: a document's id its links carry, and a password that is
also its owner's handle. Neither is a secret wherever the tree writes it as the name."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options as SecretsOptions
from memory_audit.fix.actions import actions
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.secrets.loading import secret_scanner
from memory_audit.tree.discovery import locate
from tests.harness import findings, index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.git_repo import Repo

DOC_ID = rnd(ALNUM, 27)  # a Feishu document's token, a look-alike
SYNC = f"- 03-28 飞书同步：苏轼版，token={DOC_ID}（用了临时脚本）"
HANDLE = "kestrel8841"  # a look-alike: one person's chat handle and database password


def one_note_places(tree_dir: Path, *lines: str) -> list[tuple[str, int]]:
    """The places of the one secrets finding of a tree whose one note holds ``lines``."""
    body = "\n".join(lines)
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    [found] = findings(tree_dir, "secrets")
    assert HANDLE not in repr(found)
    return places(found)


def places(finding: Finding) -> list[tuple[str, int]]:
    fix = finding.fix or {}
    listed = fix.get("places") or [{"path": finding.path, "line": finding.line}]
    return [(place["path"], place["line"]) for place in listed]


def test_a_token_the_tree_links_as_a_document_is_its_id(tree_dir: Path) -> None:
    link = f"- 飞书：https://acme42.feishu.cn/docx/{DOC_ID}"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=SYNC),
            "b.md": memory("b", body=link),
        },
    )
    assert findings(tree_dir, "secrets") == []


def test_a_design_file_key_the_note_links_is_its_id(tree_dir: Path) -> None:
    # Figma's file key is the file's name in its URL, written again under a bold label
    key = rnd(ALNUM, 22)
    body = f"- **URL**: https://www.figma.com/design/{key}/Main-Design\n- **File key**: `{key}`"
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    assert findings(tree_dir, "secrets") == []


def test_a_design_key_with_no_link_stays_a_finding(tree_dir: Path) -> None:
    key = rnd(ALNUM, 22)
    body = f"- **URL**: https://www.figma.com/design/{rnd(ALNUM, 22)}/Main\n- **File key**: `{key}`"
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    [found] = findings(tree_dir, "secrets")
    assert (found.code, found.line) == ("possible-secret", 7)
    assert key not in repr(found)


def test_the_same_token_with_no_document_link_stays_a_finding(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=SYNC)})
    [found] = findings(tree_dir, "secrets")
    assert (found.code, found.path, found.line) == ("possible-secret", "a.md", 6)
    assert DOC_ID not in repr(found)


def test_a_password_that_is_also_a_handle_is_redacted_only_where_a_line_names_it(
    tree_dir: Path,
) -> None:
    found = one_note_places(
        tree_dir,
        f"- 管理员: ops@kestrelmail.cn / {HANDLE}",  # the rule's own place
        f"- PostgreSQL 密码 {HANDLE}",  # a credential's line: the password again
        f"- @{HANDLE} asked for a status report",  # the handle
        f"| boss({HANDLE}) | kce5admao3d77dx |",  # the same person in a table of users
        f"- channel members: haodaer + {HANDLE} only",
    )
    assert found == [("a.md", 6), ("a.md", 7)]


def test_a_password_with_no_handle_is_redacted_everywhere_it_stands(tree_dir: Path) -> None:
    found = one_note_places(
        tree_dir,
        f"- 管理员: ops@kestrelmail.cn / {HANDLE}",
        f"| boss({HANDLE}) | kce5admao3d77dx |",
    )
    assert found == [("a.md", 6), ("a.md", 7)]


def test_a_handle_in_a_document_does_not_publish_the_password(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "ops")
    note = f"- 管理员: ops@kestrelmail.cn / {HANDLE}"
    repo.commit(
        "seed",
        {
            "docs/discussion-log.md": f"# Log\n\n@{HANDLE}: please keep the reports short\n",
            "memory/MEMORY.md": index("a.md"),
            "memory/a.md": memory("a", body=note),
        },
    )
    tree = repo.path / "memory"
    [found] = findings(tree, "secrets", location=locate(tree))
    assert found.level == "problem"
    assert "publishes" not in found.message


def test_the_redaction_leaves_the_handle_and_every_other_copy_redacted(tree_dir: Path) -> None:
    # The @handle is the name and stays; every other copy goes, listed or not (a copy left
    # would drop out of the report once the rules' own places are redacted).
    body = "\n".join(
        [
            f"- 管理员: ops@kestrelmail.cn / {HANDLE}",
            f"- PostgreSQL 密码 {HANDLE}",
            f"- @{HANDLE} asked for a status report",
            f"| boss({HANDLE}) | kce5admao3d77dx |",
        ]
    )
    other = f"- ftp ops / {HANDLE}"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=body),
            "b.md": memory("b", body=other),
        },
    )
    [found] = findings(tree_dir, "secrets")
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), dict(found.fix or {}), []).apply()
    lines = (tree_dir / "a.md").read_text().splitlines()
    assert HANDLE not in lines[5] + lines[6] + lines[8]
    assert lines[7] == f"- @{HANDLE} asked for a status report"
    assert HANDLE not in (tree_dir / "b.md").read_text()
    assert findings(tree_dir, "secrets") == []


def test_a_longer_handle_holding_the_password_makes_it_no_handle(tree_dir: Path) -> None:
    # "@<value>_bot" is another name: the value's bare copy in a command still repeats it
    found = one_note_places(
        tree_dir,
        f"- 管理员: ops@kestrelmail.cn / {HANDLE}",
        f"- alerts go to @{HANDLE}_bot",
        f"- run: mysqladmin -u ops -h db1 status {HANDLE}",
    )
    assert found == [("a.md", 6), ("a.md", 8)]


def test_a_handle_s_line_with_a_word_holding_key_or_auth_is_no_credential_line(
    tree_dir: Path,
) -> None:
    found = one_note_places(
        tree_dir,
        f"- 管理员: ops@kestrelmail.cn / {HANDLE}",
        f"- {HANDLE} is the author of the keynote deck",
        f"- @{HANDLE} owns the tokenizer work",
    )
    assert found == [("a.md", 6)]
