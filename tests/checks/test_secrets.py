from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from memory_audit.checks.secrets import Options
from memory_audit.secrets.loading import FALSE_POSITIVES_HEADER, false_positives_path
from memory_audit.secrets.redact import fingerprint, load_salt, redact
from memory_audit.secrets.rules import false_positive_row
from tests.checks.test_secrets_one_per_value import places
from tests.harness import codes, findings, index, memory, write_tree
from tests.secrets.samples import CASES, FLAGGED_NON_SECRETS, MISSED_CREDENTIALS

GITHUB = CASES["github-pat"][0][0][0]
ANTHROPIC = CASES["anthropic-api-key"][0][0][0]
PLANTED = [secret for positives, _ in CASES.values() for _, secret in positives]


def test_secrets_found_in_body_frontmatter_index_recaps_and_team(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md") + f"- token {GITHUB}\n",
            "a.md": memory("a", description=f"uses {ANTHROPIC}"),
            "sessions/2026-01-01-x.md": memory("x", type="session-recap", body=f"pasted {GITHUB}"),
            "team/shared.md": f"deploy key {GITHUB}\n",
        },
    )
    found = findings(tree_dir, "secrets")
    assert sorted(codes(found)) == [
        ("possible-secret", "MEMORY.md", 3),
        ("possible-secret", "a.md", 3),
    ]
    [token] = [f for f in found if f.path == "MEMORY.md"]
    assert places(token) == [
        ("MEMORY.md", 3),
        ("sessions/2026-01-01-x.md", 6),
        ("team/shared.md", 1),
    ]


def test_secret_finding_is_redacted_and_shaped_like_the_seed(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"CI uses {GITHUB}")}
    )
    [finding] = findings(tree_dir, "secrets")
    assert (
        finding.message == f'possible GitHub personal access token: matched "{redact(GITHUB)}" '
        "(pattern: github-pat)"
    )
    assert finding.suggestion == "review and redact, or mark as false positive"
    assert GITHUB not in repr(finding)


def test_false_positive_in_the_user_table_is_not_reported_again(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"{GITHUB}\n{ANTHROPIC}")}
    )
    state = Path(platformdirs.user_state_dir("memory-audit"))
    salt = load_salt(state)
    fp = fingerprint("github-pat", GITHUB, salt)
    false_positives_path(state).write_text(
        FALSE_POSITIVES_HEADER + false_positive_row(fp, "github-pat", "a.md", "test")
    )
    [finding] = findings(tree_dir, "secrets")
    assert "anthropic-api-key" in finding.message
    assert GITHUB not in false_positives_path(state).read_text()


def test_custom_patterns_file_and_missing_file(tree_dir: Path, tmp_path: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body="code ACME-7f3k9q2m1z")}
    )
    patterns = tmp_path / "mine.md"
    patterns.write_text(
        '```json\n[{"name": "acme", "type": "ACME key", "regex": "ACME-[a-z0-9]{10}", '
        '"keywords": ["acme-"]}]\n```\n'
    )
    [finding] = findings(tree_dir, "secrets", options={"secrets": Options(patterns=str(patterns))})
    assert "possible ACME key" in finding.message
    from tests.harness import report

    missing = report(
        tree_dir, "secrets", options={"secrets": Options(patterns=str(tmp_path / "no.md"))}
    )
    assert [s.reason for s in missing.skipped] == [f"patterns file {tmp_path / 'no.md'} not found"]


def credentials_tree(tree_dir: Path, lines: dict[str, str]) -> None:
    """One memory a line, the line at line 7 of its file (below the frontmatter and a line)."""
    files = {name: memory(name[:-3], body=f"Notes.\n{line}") for name, line in lines.items()}
    write_tree(tree_dir, {"MEMORY.md": index(*lines), **files})


def test_credentials_as_people_write_them_are_found(tree_dir: Path) -> None:
    credentials_tree(tree_dir, {name: line for name, (line, _) in MISSED_CREDENTIALS.items()})
    found = findings(tree_dir, "secrets")
    assert sorted(codes(found)) == [("possible-secret", n, 7) for n in sorted(MISSED_CREDENTIALS)]
    for finding in found:
        assert not any(secret in repr(finding) for _, secret in MISSED_CREDENTIALS.values())


def test_names_paths_public_keys_and_examples_are_not_reported(tree_dir: Path) -> None:
    credentials_tree(tree_dir, FLAGGED_NON_SECRETS)
    assert findings(tree_dir, "secrets") == []


def test_a_secret_in_a_file_or_folder_name_is_a_finding_shown_masked(tree_dir: Path) -> None:
    token = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"
    folder = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD1CvqB46aE7Q"  # another token, its sum right
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            f"{token}.md": "x\n",
            f"{folder}/b.md": "y\n",
        },
    )
    found = findings(tree_dir, "secrets")
    assert codes(found) == [
        ("secret-in-name", "ghp_...aE7u.md", None),
        ("secret-in-name", "ghp_...aE7Q", None),
    ]
    assert all(token not in repr(f) and folder not in repr(f) for f in found)
    assert found[0].message == (
        'the name holds a possible GitHub personal access token: "ghp_R8mQ...aE7u" '
        "(pattern: github-pat)"
    )
    assert found[0].suggestion == "rename it (and revoke the secret if it is real)"


def test_links_to_a_file_named_by_a_secret_go_with_the_name_never_redacted(
    tree_dir: Path,
) -> None:
    # Redacting the link's text would break the link and leave the name: renaming the
    # file (and those links) is the fix, so the links are the name finding's to update.
    token = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": f"- [Deploy]({token}.md) — how we deploy\n- [A](a.md) — a\n",
            f"{token}.md": memory("deploy", body=f"see also [[{token}]]\n"),
            "a.md": memory("a", body=f"the CI token is {token}\n"),
        },
    )
    found = findings(tree_dir, "secrets")
    assert codes(found) == [
        ("possible-secret", "a.md", 6),
        ("secret-in-name", "ghp_...aE7u.md", None),
    ]
    content, name = found
    assert places(content) == [("a.md", 6)]  # the prose leak, alone: its redaction is right
    assert name.suggestion == (
        "rename it and the links to it at MEMORY.md:1, ghp_...aE7u.md:6"
        " (and revoke the secret if it is real)"
    )
    assert name.related == ("MEMORY.md", "ghp_...aE7u.md")
    assert all(token not in repr(f) for f in found)


def test_a_secret_found_once_is_found_wherever_its_text_is_repeated(tree_dir: Path) -> None:
    password = "Harbor01!!"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"the wifi password is {password}"),
            "b.md": memory(
                "b",
                body=f"hôtes:\n- nas {password} on the mgmt port\n- not it: {password}x\n",
            ),
        },
    )
    [found] = findings(tree_dir, "secrets")
    assert places(found) == [("a.md", 6), ("b.md", 7)]
    assert found.message == (
        f'possible password written in prose: matched "{redact(password)}" '
        "(pattern: password-phrase), also at b.md:7"
    )
    assert password not in repr(found)


def test_a_value_the_tree_names_things_with_is_not_searched_for(tree_dir: Path) -> None:
    # A lab's name used as its SNMP community, then as a user, a host and a file name:
    # each of those is a name. Redacting them would break the index and the file names.
    word = "Labnet26"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("router.md", f"{word}_hosts.md"),
            "router.md": memory("router", body=f"SNMP community: {word}"),
            f"{word}_hosts.md": memory("hosts", body=f"VPN {word} for the lab, user {word}"),
        },
    )
    found = findings(tree_dir, "secrets")
    assert codes(found) == [("possible-secret", "router.md", 6)]


def test_a_repeat_inside_a_host_or_file_name_is_the_name(tree_dir: Path) -> None:
    password = "Harbor01x"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"the wifi password is {password}"),
            "b.md": memory(
                "b", body=f"host {password}.local\nfile {password}-notes\nagain {password} here"
            ),
        },
    )
    [found] = findings(tree_dir, "secrets")
    assert places(found) == [("a.md", 6), ("b.md", 8)]


def test_a_repeated_false_positive_is_not_reported(tree_dir: Path) -> None:
    password = "Harbor01!!"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"the wifi password is {password}"),
            "b.md": memory("b", body=f"nas {password} on the mgmt port"),
        },
    )
    [found] = findings(tree_dir, "secrets")
    assert places(found) == [("a.md", 6), ("b.md", 6)]
    state = Path(platformdirs.user_state_dir("memory-audit"))
    fp = fingerprint("password-phrase", password, load_salt(state))
    false_positives_path(state).write_text(
        FALSE_POSITIVES_HEADER + false_positive_row(fp, "password-phrase", "a.md", "test")
    )
    assert findings(tree_dir, "secrets") == []


@pytest.mark.parametrize("count", [40, 1001])  # one alternation of them; a search by anchors
def test_many_secrets_repeated_are_each_found_again(tree_dir: Path, count: int) -> None:
    passwords = [f"Harbor{n:04}!!x" for n in range(count)]
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body="\n".join(f"password: {p}" for p in passwords)),
            "b.md": memory("b", body="\n".join(f"host{n}: `{p}`" for n, p in enumerate(passwords))),
        },
    )
    found = findings(tree_dir, "secrets")
    assert [f.line for f in found] == list(range(6, 6 + count))
    assert [places(f) for f in found] == [[("a.md", n), ("b.md", n)] for n in range(6, 6 + count)]


def test_a_pair_of_names_in_code_and_its_repeat_are_not_reported(tree_dir: Path) -> None:
    # The class name read as a password was found again wherever the tree names the class.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body="Tách khỏi `Sys_Label`/`L10nService` (nội dung động)"),
            "b.md": memory("b", body="**bỏ `L10nService`** (kho `common.*` qua `Sys_Label`)"),
        },
    )
    assert findings(tree_dir, "secrets") == []
