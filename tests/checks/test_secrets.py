from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs

from memory_audit.checks.secrets import Options
from memory_audit.secrets.loading import FALSE_POSITIVES_HEADER, false_positives_path
from memory_audit.secrets.redact import fingerprint, load_salt, redact
from memory_audit.secrets.rules import false_positive_row
from tests.harness import codes, findings, index, memory, write_tree
from tests.secrets.samples import CASES

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
    found = sorted(codes(findings(tree_dir, "secrets")))
    assert found == [
        ("possible-secret", "MEMORY.md", 3),
        ("possible-secret", "a.md", 3),
        ("possible-secret", "sessions/2026-01-01-x.md", 6),
        ("possible-secret", "team/shared.md", 1),
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


def test_salt_is_private_random_and_stable(tmp_path: Path) -> None:
    first = load_salt(tmp_path / "state")
    assert load_salt(tmp_path / "state") == first
    assert load_salt(tmp_path / "other") != first
    assert (tmp_path / "state/secret-salt").stat().st_mode & 0o777 == 0o600
    assert fingerprint("r", "s", first) != fingerprint("r", "s", load_salt(tmp_path / "other"))


def test_redaction_shows_at_most_40_characters_and_a_third_of_the_secret() -> None:
    for secret in PLANTED:
        shown = redact(secret)
        assert len(shown) <= 40
        visible = len(shown) - 3
        assert visible <= max(3, len(secret) // 3 + 1), (secret, shown)
        assert secret not in shown


def test_no_planted_secret_escapes_into_any_output(tmp_path: Path) -> None:
    body = "\n".join(
        f"- {name}: {text}" for name, (positives, _) in CASES.items() for text, _ in positives
    )
    tree = write_tree(
        tmp_path / "memory", {"MEMORY.md": index("all.md"), "all.md": memory("all", body=body)}
    )
    outputs = []
    for fmt in ("text", "markdown", "json"):
        out = tmp_path / f"report.{fmt}"
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "memory_audit",
                "audit",
                "--format",
                fmt,
                "-o",
                str(out),
                str(tree),
            ],
            capture_output=True,
            text=True,
            check=False,
            env=os.environ.copy(),
        )
        assert result.returncode == 1, result.stderr
        outputs += [result.stdout, result.stderr, out.read_text()]
    state = Path(platformdirs.user_state_dir("memory-audit"))
    outputs += [p.read_bytes().decode("latin-1") for p in state.rglob("*") if p.is_file()]
    assert sum(o.count("possible-secret") for o in outputs) == len(PLANTED)
    for secret in PLANTED:
        for output in outputs:
            assert secret not in output
