"""Every fix action on a small tree: the exact bytes before and after."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.checks.secrets import Options as SecretsOptions
from memory_audit.fix.actions import actions
from memory_audit.fix.edits import Edit, StaleTarget
from memory_audit.fix.frontmatter_edit import CannotEdit
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.secrets.loading import secret_scanner
from memory_audit.secrets.redact import fingerprint
from memory_audit.secrets.rules import bundled_rules
from memory_audit.secrets.scanner import Scanner
from tests.harness import findings, index, memory, write_tree
from tests.secrets.samples import CASES

SALT = b"salt"
SCANNER = Scanner(bundled_rules(), SALT)
ACTIONS = actions(SCANNER)


def build(root: Path, fix: dict[str, object], answers: list[str] | None = None) -> Edit:
    action = ACTIONS[str(fix["action"])]
    defaults = [default(fix) for _, default in action.questions]
    return action.build(Tree.open(root), fix, answers if answers is not None else defaults)


def apply(root: Path, fix: dict[str, object], answers: list[str] | None = None) -> Edit:
    edit = build(root, fix, answers)
    edit.apply()
    return edit


def test_remove_index_line(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {"MEMORY.md": "# Index\n- [A](a.md) — a\n- [Gone](gone.md) — x\n- [B](b.md) — b\n"},
    )
    edit = apply(tree_dir, {"action": "remove-index-line", "line": 3, "target": "gone.md"})
    assert (tree_dir / "MEMORY.md").read_text() == "# Index\n- [A](a.md) — a\n- [B](b.md) — b\n"
    assert "-- [Gone](gone.md) — x" in edit.diff()


def test_removing_a_wrapped_entry_takes_its_continuation_lines_with_it(tree_dir: Path) -> None:
    # Left behind, the continuation would join the entry above as its hook.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [A](a.md) — about a\n- [Gone](gone.md) — the old\n"
            "  catalog of tools,\n  kept for the migration\n- [B](b.md) — b\n"
            "  wrapped too\n\nTrailing prose.\n"
        },
    )
    apply(tree_dir, {"action": "remove-index-line", "line": 3, "target": "gone.md"})
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Index\n- [A](a.md) — about a\n- [B](b.md) — b\n  wrapped too\n\nTrailing prose.\n"
    )
    apply(tree_dir, {"action": "remove-index-line", "line": 3, "target": "b.md"})
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Index\n- [A](a.md) — about a\n\nTrailing prose.\n"
    )


def test_removing_an_entry_keeps_what_follows_its_item(tree_dir: Path) -> None:
    # Its continuation may start like anything (an issue number, a link, a year); a
    # thematic break, a heading or a nested item after it is no part of it.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [A](a.md) — a\n- [Gone](gone.md) — tracked in\n"
            "  #1234 and [the wiki](https://wiki.fern.dev)\n  2024) notes\n---\n"
            "Use the staging DB for tests.\n- [B](b.md) — b\n  - [C](c.md) — nested\n"
        },
    )
    apply(tree_dir, {"action": "remove-index-line", "line": 3, "target": "gone.md"})
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Index\n- [A](a.md) — a\n---\nUse the staging DB for tests.\n"
        "- [B](b.md) — b\n  - [C](c.md) — nested\n"
    )
    apply(tree_dir, {"action": "remove-index-line", "line": 5, "target": "b.md"})
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Index\n- [A](a.md) — a\n---\nUse the staging DB for tests.\n  - [C](c.md) — nested\n"
    )


def test_a_symlinked_file_is_not_fixed_through_its_link(tmp_path: Path) -> None:
    """DESIGN §6.7: review writes only regular files inside the tree, never through a link."""
    target = tmp_path / "dotfiles/MEMORY.md"
    target.parent.mkdir()
    target.write_text("# Index\n- [Gone](gone.md) — x\n")
    tree = tmp_path / "memory"
    tree.mkdir()
    (tree / "MEMORY.md").symlink_to(target)
    with pytest.raises(StaleTarget, match="symlink"):
        apply(tree, {"action": "remove-index-line", "line": 2, "target": "gone.md"})
    assert (tree / "MEMORY.md").is_symlink()
    assert target.read_text() == "# Index\n- [Gone](gone.md) — x\n"


def test_remove_index_line_that_moved_and_one_that_vanished(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\n\nNew intro line.\n- [Gone](gone.md) — x\n"})
    apply(tree_dir, {"action": "remove-index-line", "line": 2, "target": "gone.md"})
    assert (tree_dir / "MEMORY.md").read_text() == "# Index\n\nNew intro line.\n"
    with pytest.raises(StaleTarget, match=r"no longer has one line linking `gone\.md`"):
        build(tree_dir, {"action": "remove-index-line", "line": 2, "target": "gone.md"})


def test_update_index_path_keeps_crlf_and_bom(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "\ufeff# Index\r\n- [Style](style.md) — rules\r\n".encode()})
    apply(
        tree_dir,
        {"action": "update-index-path", "line": 2, "old": "style.md", "new": "ref/style.md"},
    )
    assert (
        tree_dir / "MEMORY.md"
    ).read_bytes() == "\ufeff# Index\r\n- [Style](ref/style.md) — rules\r\n".encode()


def test_add_index_line_appends_and_creates_a_missing_index(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\n- [A](a.md) — a", "b.md": memory("b")})
    apply(tree_dir, {"action": "add-index-line", "path": "b.md", "text": "- [b](b.md) — About b"})
    assert (
        tree_dir / "MEMORY.md"
    ).read_text() == "# Index\n- [A](a.md) — a\n- [b](b.md) — About b\n"
    (tree_dir / "MEMORY.md").unlink()
    apply(tree_dir, {"action": "add-index-line", "path": "b.md", "text": "- [b](b.md) — B"})
    assert (tree_dir / "MEMORY.md").read_text() == "# Memory index\n- [b](b.md) — B\n"


def test_move_inline_index_content_into_a_topic_file(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\nInvoices are immutable.\nCredit notes fix them.\n- [A](a.md) — a\n",
            "a.md": memory("a"),
        },
    )
    apply(
        tree_dir,
        {"action": "move-to-topic", "first": 2, "last": 3},
        ["invoices.md", "How invoices are corrected after sending"],
    )
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Index\n- [Invoices](invoices.md) — How invoices are corrected after sending\n- [A](a.md) — a\n"
    )
    topic = (tree_dir / "invoices.md").read_text()
    assert topic.startswith("---\n")
    assert "description: How invoices are corrected after sending" in topic
    assert topic.endswith("Invoices are immutable.\nCredit notes fix them.\n")
    assert [f.code for f in findings(tree_dir, "frontmatter", "index-drift", "index-budget")] == []


def test_move_every_inline_block_into_one_topic_file(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\nInvoices are immutable.\n\n## Billing\nCredit notes fix them."
            "\nThey carry the invoice id.\n- [A](a.md) — a\n",
            "a.md": memory("a"),
        },
    )
    edit = apply(
        tree_dir,
        {"action": "move-to-topic", "first": 2, "last": 2, "ranges": [[2, 2], [5, 6]]},
        ["invoices.md", "How invoices are corrected after sending"],
    )
    assert edit.description == "MEMORY.md: moved lines 2–2, 5–6 into `invoices.md`"
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Index\n- [Invoices](invoices.md) — How invoices are corrected after sending\n\n"
        "## Billing\n- [A](a.md) — a\n"
    )
    topic = (tree_dir / "invoices.md").read_text()
    assert topic.endswith(
        "Invoices are immutable.\n\nCredit notes fix them.\nThey carry the invoice id.\n"
    )


def test_add_superseded_by_and_supersedes_relation(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "old.md": memory("old"),
            "new.md": memory("new", relations="[{type: supports, target: x.md}]"),
            "x.md": memory("x"),
        },
    )
    apply(tree_dir, {"action": "add-superseded-by", "path": "old.md", "value": "new.md"})
    assert (tree_dir / "old.md").read_text() == memory("old", superseded_by="new.md")
    apply(
        tree_dir,
        {"action": "add-relation", "path": "new.md", "type": "supersedes", "target": "old.md"},
    )
    assert (
        "relations: [{target: x.md, type: supports}, {target: old.md, type: supersedes}]"
        in (tree_dir / "new.md").read_text()
    )
    assert findings(tree_dir, "relations") == []


def test_add_relation_to_a_block_list_keeps_its_indentation(tree_dir: Path) -> None:
    text = "---\nname: n\nrelations:\n    - type: supports\n      target: x.md\n---\nbody\n"
    write_tree(tree_dir, {"n.md": text, "x.md": memory("x"), "o.md": memory("o")})
    apply(
        tree_dir, {"action": "add-relation", "path": "n.md", "type": "supersedes", "target": "o.md"}
    )
    assert (tree_dir / "n.md").read_text() == (
        "---\nname: n\nrelations:\n    - type: supports\n      target: x.md\n"
        "    - type: supersedes\n      target: o.md\n---\nbody\n"
    )


def test_remove_broken_relation_from_block_and_flow_lists(tree_dir: Path) -> None:
    block = "---\nname: n\nrelations:\n  - type: supports\n    target: gone.md\n  - type: supports\n    target: x.md\n---\nb\n"
    write_tree(
        tree_dir,
        {"n.md": block, "f.md": memory("f", relations="[{type: supports, target: gone.md}]")},
    )
    apply(
        tree_dir,
        {"action": "remove-relation", "path": "n.md", "type": "supports", "target": "gone.md"},
    )
    assert (
        tree_dir / "n.md"
    ).read_text() == "---\nname: n\nrelations:\n  - type: supports\n    target: x.md\n---\nb\n"
    apply(
        tree_dir,
        {"action": "remove-relation", "path": "f.md", "type": "supports", "target": "gone.md"},
    )
    assert "relations: []" in (tree_dir / "f.md").read_text()


def test_set_field_in_either_layout_and_add_a_missing_field(tree_dir: Path) -> None:
    current = (
        "---\nname: r\ndescription: d\nmetadata:\n  type: project\n  node_type: memory\n---\nbody\n"
    )
    write_tree(tree_dir, {"sessions/r.md": current, "a.md": "---\nname: a\ntype: user\n---\nx\n"})
    apply(
        tree_dir,
        {"action": "set-field", "path": "sessions/r.md", "field": "type", "value": "session-recap"},
    )
    assert (tree_dir / "sessions/r.md").read_text() == current.replace(
        "  type: project", "  type: session-recap"
    )
    apply(
        tree_dir,
        {"action": "add-field", "path": "a.md", "field": "description"},
        ["The user's role: backend lead"],
    )
    assert (
        (tree_dir / "a.md").read_text()
        == "---\nname: a\ntype: user\ndescription: 'The user''s role: backend lead'\n---\nx\n"
    )


def test_add_frontmatter_to_a_bare_file(tree_dir: Path) -> None:
    write_tree(tree_dir, {"deploy_notes.md": "Deploys need approval.\n"})
    apply(
        tree_dir,
        {"action": "add-frontmatter", "path": "deploy_notes.md"},
        ["How production deploys are approved", "project"],
    )
    assert (tree_dir / "deploy_notes.md").read_text() == (
        "---\nname: deploy-notes\ndescription: How production deploys are approved\ntype: project\n---\n"
        "Deploys need approval.\n"
    )


def test_a_utf16_byte_order_mark_alone_takes_its_frontmatter_in_utf8(tree_dir: Path) -> None:
    # the audit reads such a file as empty (the second reader: its fix could never apply)
    write_tree(tree_dir, {"empty.md": b"\xff\xfe" + "\r\n".encode("utf-16-le")})
    apply(
        tree_dir,
        {"action": "add-frontmatter", "path": "empty.md"},
        ["Notes to come", "project"],
    )
    assert (tree_dir / "empty.md").read_bytes() == (
        b"---\nname: empty\ndescription: Notes to come\ntype: project\n---\n"
    )


def test_demote_relevance(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", relevance="always", scope="[x]"),
            "b.md": memory("b", relevance="always"),
        },
    )
    apply(tree_dir, {"action": "demote-relevance", "path": "a.md"}, ["phase-2"])
    assert "relevance: phase-2\n" in (tree_dir / "a.md").read_text()
    apply(tree_dir, {"action": "demote-relevance", "path": "b.md"}, [""])
    assert "relevance" not in (tree_dir / "b.md").read_text()


def test_rename_a_misshaped_recap(tree_dir: Path) -> None:
    write_tree(tree_dir, {"sessions/Oct 9 planning.md": memory("p", type="session-recap")})
    apply(
        tree_dir,
        {
            "action": "rename-file",
            "path": "sessions/Oct 9 planning.md",
            "to": "sessions/2026-10-09-planning.md",
        },
    )
    assert sorted(p.name for p in (tree_dir / "sessions").iterdir()) == ["2026-10-09-planning.md"]
    write_tree(tree_dir, {"sessions/x.md": "x", "sessions/taken.md": "y"})
    with pytest.raises(StaleTarget, match="already exists"):
        build(
            tree_dir, {"action": "rename-file", "path": "sessions/x.md", "to": "sessions/taken.md"}
        )


@pytest.mark.parametrize("name", ["../escape.md", "/tmp/escape.md", "sessions/notes.txt"])
def test_a_file_name_the_user_types_stays_a_md_file_inside_the_tree(
    tree_dir: Path, name: str
) -> None:
    write_tree(
        tree_dir,
        {"MEMORY.md": "# Index\nLong note.\nMore.\n", "sessions/x.md": "x"},
    )
    rename: dict[str, object] = {"action": "rename-file", "path": "sessions/x.md", "to": "y.md"}
    move: dict[str, object] = {"action": "move-to-topic", "first": 2, "last": 3}
    for fix, answers in ((rename, [name]), (move, [name, "notes"])):
        with pytest.raises(StaleTarget, match=r"is not a \.md file name inside the tree"):
            build(tree_dir, fix, answers)
    assert (tree_dir / "sessions/x.md").read_text() == "x"


def test_redact_a_secret_in_place(tree_dir: Path) -> None:
    token = CASES["github-pat"][0][0][0]
    write_tree(tree_dir, {"a.md": memory("a", body=f"CI token {token} (rotate yearly)")})
    fix = {
        "action": "redact-secret",
        "path": "a.md",
        "line": 5,
        "pattern": "github-pat",
        "fingerprint": fingerprint("github-pat", token, SALT),
    }
    edit = build(tree_dir, fix)
    assert token not in edit.description
    edit.apply()
    assert (tree_dir / "a.md").read_text() == memory(
        "a", body="CI token <REDACTED:github-pat> (rotate yearly)"
    )
    with pytest.raises(StaleTarget, match=r"no longer in a\.md"):
        build(tree_dir, fix)


def test_redacting_a_secret_redacts_every_place_the_audit_found(tree_dir: Path) -> None:
    password = "Harbor01!!"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md", "c.md"),
            "a.md": memory("a", body=f"the wifi password is {password}"),
            "b.md": memory("b", body=f"nas {password} on the mgmt port\nagain {password}"),
            "c.md": memory("c", body=f"guest wifi password is {password}"),
        },
    )
    [finding] = findings(tree_dir, "secrets")
    assert finding.fix is not None
    assert [p["path"] for p in finding.fix["places"]] == ["a.md", "c.md", "b.md", "b.md"]
    # The scanner the audit used: its salt named the secret's fingerprint.
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    edit = redact.build(Tree.open(tree_dir), dict(finding.fix), [])
    edit.apply()
    assert edit.description.endswith("and its copies in 2 other file(s)")
    assert password not in edit.description
    assert password not in (tree_dir / "a.md").read_text()
    assert (tree_dir / "c.md").read_text().endswith("password is <REDACTED:password-phrase>\n")
    assert (
        (tree_dir / "b.md")
        .read_text()
        .endswith(
            "nas <REDACTED:password-phrase> on the mgmt port\nagain <REDACTED:password-phrase>\n"
        )
    )
    assert findings(tree_dir, "secrets") == []


PASSWORD = "Harbor01!!"  # a look-alike


def _said_and_repeated(tree_dir: Path) -> Finding:
    """a.md says the password is one, b.md repeats it bare: the one finding of the value."""
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", body=f"the wifi password is {PASSWORD}"),
            "b.md": memory("b", body=f"nas {PASSWORD} on the mgmt port"),
        },
    )
    [finding] = findings(tree_dir, "secrets")
    return finding


def test_a_fix_listing_copies_as_also_still_redacts_them(tree_dir: Path) -> None:
    # A report written before fixes listed their places names the other files in ``also``.
    finding = _said_and_repeated(tree_dir)
    fix = {k: v for k, v in (finding.fix or {}).items() if k != "places"} | {"also": ["b.md"]}
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), fix, []).apply()
    assert PASSWORD not in (tree_dir / "a.md").read_text() + (tree_dir / "b.md").read_text()


def test_a_value_gone_from_its_first_file_is_still_redacted_in_the_others(
    tree_dir: Path,
) -> None:
    password = "Harbor01!!"
    said = f"the wifi password is {password}"
    write_tree(tree_dir, {"a.md": memory("a", body=said), "b.md": memory("b", body=said)})
    [finding] = findings(tree_dir, "secrets")
    (tree_dir / "a.md").write_text(memory("a", body="the wifi password is in the vault"))
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), dict(finding.fix or {}), []).apply()
    assert (tree_dir / "b.md").read_text().endswith("is <REDACTED:password-phrase>\n")


def test_a_place_whose_file_is_gone_leaves_the_value_redacted_in_the_others(
    tree_dir: Path,
) -> None:
    # A file deleted since the audit holds the value nowhere: the other places are
    # still redacted, not left as they were because one place went away.
    finding = _said_and_repeated(tree_dir)
    (tree_dir / "b.md").unlink()
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    edit = redact.build(Tree.open(tree_dir), dict(finding.fix or {}), [])
    edit.apply()
    assert (tree_dir / "a.md").read_text().endswith("is <REDACTED:password-phrase>\n")
    assert not (tree_dir / "b.md").exists()
    assert "other file" not in edit.description


def test_redacting_never_touches_the_secret_s_text_inside_other_words(tree_dir: Path) -> None:
    # A short password, and a longer one whose text is part of other words and names:
    # only the places the audit reports are redacted.
    body = (
        "export PGPASSWORD=rust\nwe write rust; trust the crust\n"
        "sshpass -p Lion9x ssh ops@nas\nLion9xes and Lion9x.local, again Lion9x here\n"
    )
    write_tree(tree_dir, {"a.md": memory("a", body=body)})
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    for finding in [f for f in findings(tree_dir, "secrets") if f.fix]:
        redact.build(Tree.open(tree_dir), dict(finding.fix or {}), []).apply()
    text = (tree_dir / "a.md").read_text()
    assert "we write rust; trust the crust" in text
    assert "Lion9xes and Lion9x.local, again <REDACTED:" in text
    assert "sshpass -p <REDACTED:" in text
    assert "PGPASSWORD=<REDACTED:" in text


def test_an_unknown_frontmatter_shape_is_refused_not_guessed(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": "---\nname: a\nrelations: just-a-string\n---\n"})
    with pytest.raises(CannotEdit):
        build(
            tree_dir,
            {"action": "remove-relation", "path": "a.md", "type": "supports", "target": "x.md"},
        )


def test_every_fix_the_checks_propose_has_an_action(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("gone.md", "old.md", "style.md")
            + "Always run tests.\nInline fact one.\n",
            "old.md": memory("old", superseded_by="new.md"),
            "new.md": memory("new"),
            "ref/style.md": memory("style"),
            "bare.md": "text\n",
            "rel.md": memory(
                "rel",
                relations="[{type: supersedes, target: plain.md}, {type: supports, target: nope.md}]",
            ),
            "plain.md": memory("plain", superseded_by="other.md"),
            "other.md": memory("other"),
            "sessions/bad name.md": memory("s", type="project", date="2026-01-02"),
            "a.md": memory("a", description=None, body=f"token {CASES['github-pat'][0][0][0]}"),
            "g.md": memory("g", scope="[x]", relevance="always", body="- [x] a\n- [x] b\n- [x] c"),
        },
    )
    proposed = {str(f.fix["action"]) for f in findings(tree_dir) if f.fix}
    assert proposed - set(ACTIONS) == set()
    assert len(proposed) >= 10


def test_remove_index_line_whose_target_the_boundary_masked(tree_dir: Path) -> None:
    token = CASES["github-pat"][0][0][0]
    write_tree(
        tree_dir,
        {"MEMORY.md": f"# Index\n- [A](a.md) — a\n- [X]({token}.md) — x\n", "a.md": memory("a")},
    )
    [finding] = [f for f in findings(tree_dir, "index-drift") if f.line == 3]
    assert finding.fix is not None
    assert token not in str(finding.fix)
    apply(tree_dir, dict(finding.fix))
    assert (tree_dir / "MEMORY.md").read_text() == "# Index\n- [A](a.md) — a\n"


def test_replace_text_puts_the_renamed_path_in_the_memory(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": "---\nname: a\n---\nIntro.\nRetries: `src/retry.py`.\n"})
    fix: dict[str, object] = {
        "action": "replace-text",
        "path": "a.md",
        "line": 5,
        "old": "src/retry.py",
        "new": "src/retries.py",
    }
    apply(tree_dir, fix)
    assert (tree_dir / "a.md").read_text() == (
        "---\nname: a\n---\nIntro.\nRetries: `src/retries.py`.\n"
    )


def test_replace_text_follows_a_line_that_moved_and_refuses_a_vanished_one(
    tree_dir: Path,
) -> None:
    write_tree(tree_dir, {"a.md": "New first line.\nIntro.\nRetries: `src/retry.py`.\n"})
    fix: dict[str, object] = {
        "action": "replace-text",
        "path": "a.md",
        "line": 2,
        "old": "src/retry.py",
        "new": "src/retries.py",
    }
    apply(tree_dir, fix, ["lib/retries.py"])
    expected = "New first line.\nIntro.\nRetries: `lib/retries.py`.\n"
    assert (tree_dir / "a.md").read_text() == expected
    with pytest.raises(StaleTarget):
        build(tree_dir, fix)


def test_replace_texts_updates_every_renamed_path_in_one_edit(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": "Intro.\nRetries: `src/retry.py`.\nJobs: `src/job.py`.\n"})
    fix: dict[str, object] = {
        "action": "replace-texts",
        "path": "a.md",
        "replacements": [
            {"line": 2, "old": "src/retry.py", "new": "lib/retry.py"},
            {"line": 3, "old": "src/job.py", "new": "lib/job.py"},
        ],
    }
    edit = apply(tree_dir, fix)
    assert (tree_dir / "a.md").read_text() == (
        "Intro.\nRetries: `lib/retry.py`.\nJobs: `lib/job.py`.\n"
    )
    assert edit.description == (
        "a.md: `src/retry.py` → `lib/retry.py` (line 2), `src/job.py` → `lib/job.py` (line 3)"
    )


def test_replace_texts_leaves_a_longer_path_holding_the_old_one_alone(tree_dir: Path) -> None:
    text = "- `skills/timer.py` (upstream copy: `vendor/skills/timer.py`)\n"
    write_tree(tree_dir, {"a.md": text})
    fix: dict[str, object] = {
        "action": "replace-texts",
        "path": "a.md",
        "replacements": [{"line": 1, "old": "skills/timer.py", "new": "lib/timer.py"}],
    }
    apply(tree_dir, fix)
    assert (tree_dir / "a.md").read_text() == (
        "- `lib/timer.py` (upstream copy: `vendor/skills/timer.py`)\n"
    )


def test_replace_texts_refuses_the_whole_edit_when_one_path_is_gone(tree_dir: Path) -> None:
    before = "Intro.\nRetries: `src/retry.py`.\nJobs: `lib/job.py`.\n"
    write_tree(tree_dir, {"a.md": before})
    fix: dict[str, object] = {
        "action": "replace-texts",
        "path": "a.md",
        "replacements": [
            {"line": 2, "old": "src/retry.py", "new": "lib/retry.py"},
            {"line": 3, "old": "src/job.py", "new": "lib/job.py"},
        ],
    }
    with pytest.raises(StaleTarget):
        apply(tree_dir, fix)
    assert (tree_dir / "a.md").read_text() == before


def test_capture_todo_note_creates_the_note_and_the_index(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": memory("a")})
    fix: dict[str, object] = {
        "action": "capture-todo-note",
        "area": "src/billing",
        "path": "project_src-billing.md",
    }
    apply(tree_dir, fix)
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Memory index\n- [src/billing/](project_src-billing.md) — TODO: what a session should "
        "know before working in src/billing/\n"
    )
    assert (tree_dir / "project_src-billing.md").read_text() == (
        "---\ndescription: 'TODO: what a session should know before working in src/billing/'\n"
        "name: project_src-billing\ntype: project\n---\n\n"
        "TODO: sessions keep working in `src/billing/` and no memory says anything about it.\n"
        "Write what a session should know before touching it (the rules, the traps, where "
        "things live), then delete these TODO lines.\n"
    )
    with pytest.raises(StaleTarget, match="already exists"):
        build(tree_dir, fix)
    with pytest.raises(StaleTarget, match=r"not a \.md file name inside the tree"):
        build(tree_dir, fix, ["../outside.md", ""])


def test_create_index_writes_the_pointers_and_never_overwrites_an_index(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": memory("a"), "b.md": memory("b")})
    [missing] = [f for f in findings(tree_dir, "index-drift") if f.code == "missing-index"]
    assert missing.fix is not None
    edit = apply(tree_dir, dict(missing.fix))
    assert edit.description == "MEMORY.md: created, with a line for each of 2 memories"
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Memory index\n\n- [a](a.md) — About a\n- [b](b.md) — About b\n"
    )
    assert findings(tree_dir, "index-drift", "orphans") == []
    with pytest.raises(StaleTarget, match=r"MEMORY\.md exists now"):
        build(tree_dir, dict(missing.fix))


def test_add_frontmatter_fences_field_lines_written_without_fences(tree_dir: Path) -> None:
    # name: and description: were written, the --- lines were not: fence them, add type.
    text = "name: Signal check\ndescription: Costs eat the edge\ndate: 2026-05-05\n\n# Check\n"
    write_tree(tree_dir, {"MEMORY.md": index("signal_check.md"), "signal_check.md": text})
    [finding] = findings(tree_dir, "frontmatter")
    assert finding.suggestion == "wrap lines 1–3 in --- fences and add `type`"
    assert finding.fix is not None
    apply(tree_dir, dict(finding.fix))
    assert (tree_dir / "signal_check.md").read_text() == (
        "---\nname: Signal check\ndescription: Costs eat the edge\ndate: 2026-05-05\n"
        "type: project\n---\n\n# Check\n"
    )
    assert findings(tree_dir, "frontmatter") == []


def test_add_frontmatter_refuses_to_fence_lines_that_changed(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": "# Signal check\nname: later in the text\n"})
    with pytest.raises(StaleTarget, match="no longer opens with those field lines"):
        build(tree_dir, {"action": "add-frontmatter", "path": "a.md", "fence": 2})


def test_create_index_writes_one_resolving_line_per_memory_whatever_its_frontmatter(
    tree_dir: Path,
) -> None:
    write_tree(
        tree_dir,
        {
            "multi.md": "---\nname: multi\ndescription: |\n  line one\n  line two\ntype: project\n---\nx\n",
            "my notes.md": memory("my [draft] notes"),
        },
    )
    [missing] = [f for f in findings(tree_dir, "index-drift") if f.code == "missing-index"]
    apply(tree_dir, dict(missing.fix or {}))
    assert (tree_dir / "MEMORY.md").read_text() == (
        "# Memory index\n\n- [multi](multi.md) — line one line two\n"
        "- [my \\[draft\\] notes](<my notes.md>) — About my [draft] notes\n"
    )
    assert findings(tree_dir, "index-drift", "orphans", "index-budget") == []


@pytest.mark.parametrize(
    ("text", "fenced"),
    [
        (
            "name: deploy\ndescription: Deploy notes: how we ship\n\nBody.\n",
            "---\nname: deploy\ndescription: 'Deploy notes: how we ship'\ntype: project\n---\n",
        ),
        (
            "name: deploy\ndescription: [draft] deploy notes\n\nBody.\n",
            "---\nname: deploy\ndescription: '[draft] deploy notes'\ntype: project\n---\n",
        ),
    ],
)
def test_fencing_unfenced_fields_writes_yaml_that_parses(
    tree_dir: Path, text: str, fenced: str
) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("deploy.md"), "deploy.md": text})
    [finding] = findings(tree_dir, "frontmatter")
    apply(tree_dir, dict(finding.fix or {}))
    assert (tree_dir / "deploy.md").read_text().startswith(fenced)
    assert findings(tree_dir, "frontmatter") == []


def test_a_capitalised_line_after_the_fields_is_the_body_not_a_field(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("deploy.md"), "deploy.md": "name: deploy\nNote: twice\n"}
    )
    [finding] = findings(tree_dir, "frontmatter")
    assert finding.message.startswith("line 1 holds `name` without --- fences")
    assert (finding.fix or {})["fence"] == 1


def test_move_to_topic_refuses_lines_the_index_no_longer_has(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\nA note.\n"})
    fix: dict[str, object] = {"action": "move-to-topic", "first": 2, "last": 2}
    with pytest.raises(StaleTarget, match="no longer there"):
        build(tree_dir, {**fix, "ranges": [[2, 2], [5, 9]]}, ["notes.md", "Notes"])
    assert not (tree_dir / "notes.md").exists()


def test_a_value_two_rules_find_is_redacted_where_only_the_second_rule_still_finds_it(
    tree_dir: Path,
) -> None:
    key = "Fk" + "Qm4Tz8Vb1Nc6Wd3Fg5Jh0Ks7Pl2Mn9Qx4Rz8Hd6"  # a look-alike
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", body=f"Fernhill API Key: {key}"),
            "b.md": memory("b", body=f"curl -H 'Authorization: Bearer {key}' https://x.test"),
        },
    )
    [finding] = findings(tree_dir, "secrets")
    assert "generic-assignment" in finding.message
    (tree_dir / "a.md").write_text(memory("a", body="Fernhill API Key: in the vault"))
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), dict(finding.fix or {}), []).apply()
    assert "Bearer <REDACTED:bearer-token>'" in (tree_dir / "b.md").read_text()
    assert findings(tree_dir, "secrets") == []
