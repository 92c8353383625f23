"""Files that are no Markdown, read for secrets alone.

Programs that share a memory folder keep their own files in it: a chat gateway's raw log
(``.jsonl``), an agent's registration saved as JSON (its API key and claim URL), a note in
``.txt``. None is a memory, but a credential pasted into one sits beside the memories all the
same, in the same commits; gitleaks reads them, and so does the ``secrets`` check now. No
other check reads them. Look-alike values throughout.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from memory_audit.checks.secrets import Options as SecretsOptions
from memory_audit.daemon.alerts import alerts_for, relative_in_tree, scan_file
from memory_audit.daemon.known_secrets import known_secrets
from memory_audit.fix.actions import actions
from memory_audit.fix.tree_access import Tree
from memory_audit.journal.index import Actor
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.journal.tree_values import TreeValues
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.store.state import State
from tests.harness import findings, index, load, memory, report, write_tree
from tests.secrets.samples import CASES

TOKEN = CASES["github-pat"][0][0][0]  # a GitHub token's look-alike, its checksum right
AGENT_KEY = "quillpost_sk_" + "Tz4Hx8Mb2Rk6Vn0Pq3Ws7Yd1Ga5"
LOG = (
    '{"role":"user","text":"deploy with this"}\n'
    f'{{"role":"user","text":"the CI token is {TOKEN}, use it for the runner"}}\n'
    '{"role":"assistant","text":"Done."}\n'
)
REGISTRATION = json.dumps(
    {"agent": {"name": "scout", "api_key": AGENT_KEY}, "status": "pending_claim"}, indent=2
)


def _tree(root: Path, extra: dict[str, str | bytes]) -> Path:
    files: dict[str, str | bytes] = {
        "MEMORY.md": index("deploy.md"),
        "deploy.md": memory("deploy", body="Deploys go through the runner."),
    }
    return write_tree(root, files | extra)


def test_a_token_in_a_raw_chat_log_is_found_at_its_line(tree_dir: Path) -> None:
    _tree(tree_dir, {"raw/chat-2026-11-02.jsonl": LOG})
    [finding] = findings(tree_dir, "secrets")
    assert (finding.code, finding.path, finding.line) == (
        "possible-secret",
        "raw/chat-2026-11-02.jsonl",
        2,
    )
    assert not finding.is_suggestion
    assert TOKEN not in finding.message


def test_a_token_after_a_string_escape_in_a_json_log_is_found_and_redacted(
    tree_dir: Path,
) -> None:
    # a gateway's record: the message text is a JSON string, and the token follows its
    # "\n\n" escapes (read as is, an "n" runs into it and no word starts at "ghp_")
    record = json.dumps({"text": f"metadata:\n```json\n{{}}\n```\n\n{TOKEN} my github token"})
    assert f"\\n{TOKEN}" in record
    _tree(tree_dir, {"raw/telegram/2026-11-02.jsonl": '{"text":"hi"}\n' + record + "\n"})
    [finding] = findings(tree_dir, "secrets")
    assert (finding.path, finding.line) == ("raw/telegram/2026-11-02.jsonl", 2)
    assert finding.fix is not None
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), dict(finding.fix), []).apply()
    saved = (tree_dir / "raw/telegram/2026-11-02.jsonl").read_text().splitlines()
    assert json.loads(saved[1])["text"].endswith("\n\n<REDACTED:github-pat> my github token")
    assert findings(tree_dir, "secrets") == []


def test_an_agents_saved_registration_holding_its_key_is_found(tree_dir: Path) -> None:
    _tree(tree_dir, {"quillpost.json": REGISTRATION})
    [finding] = findings(tree_dir, "secrets")
    assert (finding.path, finding.line) == ("quillpost.json", 4)


def test_no_other_check_reads_a_file_that_is_no_markdown(tree_dir: Path) -> None:
    # not an orphan, no frontmatter to miss, no long file, no duplicate of anything
    _tree(tree_dir, {"raw/chat.jsonl": LOG * 200, "raw/chat-copy.jsonl": LOG * 200})
    found = findings(tree_dir)
    assert {f.dimension for f in found} == {"secrets"}
    assert {f.path for f in found} == {"raw/chat-copy.jsonl"}  # one value, one finding


def test_the_report_counts_the_files_read_for_secrets(tree_dir: Path) -> None:
    _tree(tree_dir, {"raw/chat.jsonl": LOG, "notes.txt": "nothing here\n"})
    assert report(tree_dir, "secrets").other_files == 2
    # read for the secret rules alone: without them, nothing else was read
    assert report(tree_dir, "orphans").other_files == 0


def test_binary_files_are_left_out(tree_dir: Path) -> None:
    image = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8 + TOKEN.encode() + b"\x00" * 64
    _tree(tree_dir, {"diagram.png": image})
    assert load(tree_dir).other_texts == {}
    assert findings(tree_dir, "secrets") == []


def test_a_log_past_a_memorys_size_limit_is_still_read(tree_dir: Path) -> None:
    # a chat gateway's day of raw log passes 1 MB, the limit on a memory read whole into a
    # session; the log is read for secrets alone, and the token on its last line is found
    filler = '{"role":"assistant","text":"%s"}\n' % ("status ok " * 60)
    log = filler * 2500 + LOG
    assert len(log.encode()) > 1024 * 1024
    _tree(tree_dir, {"raw/telegram/2026-11-02.jsonl": log})
    [finding] = findings(tree_dir, "secrets")
    assert (finding.path, finding.line) == ("raw/telegram/2026-11-02.jsonl", 2502)


def test_a_text_file_over_its_limit_is_counted_as_not_scanned(tree_dir: Path) -> None:
    _tree(tree_dir, {"raw/huge.jsonl": LOG * 140_000})  # about 17 MB, over the 16 MB limit
    found = report(tree_dir, "secrets")
    assert found.findings == ()
    [skip] = found.skipped
    assert skip.dimension == "secrets"
    assert not skip.whole
    assert skip.reason == (
        "1 file(s) read for secrets alone (no memories, or memories too large to read whole)"
        " were not scanned: over 16 MB, or past 64 MB of such files in all"
    )


@pytest.mark.parametrize(
    "where",
    [
        ".git/logs/chat.jsonl",  # a repository's database
        "tools/node_modules/pkg/chat.jsonl",  # a package manager's
        "logs/chat.jsonl",  # the top-level logs the audit never reads
    ],
)
def test_the_folders_the_audit_never_reads_stay_unread(tree_dir: Path, where: str) -> None:
    _tree(tree_dir, {where: LOG})
    assert load(tree_dir).other_texts == {}
    assert findings(tree_dir, "secrets") == []


def test_a_symlink_to_a_file_outside_the_tree_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "chat.jsonl"
    outside.parent.mkdir()
    outside.write_text(LOG)
    root = _tree(tmp_path / "memory", {})
    (root / "chat.jsonl").symlink_to(outside)
    assert load(root).other_texts == {}
    assert findings(root, "secrets") == []


def test_a_value_in_a_note_and_a_saved_config_is_one_finding_redacted_in_both(
    tree_dir: Path,
) -> None:
    _tree(
        tree_dir,
        {
            "agent.md": memory("agent", body=f"Quillpost key: {AGENT_KEY}"),
            "quillpost.json": REGISTRATION,
        },
    )
    [finding] = findings(tree_dir, "secrets")
    assert finding.fix is not None
    assert sorted(str(p["path"]) for p in finding.fix["places"]) == ["agent.md", "quillpost.json"]
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), dict(finding.fix), []).apply()
    saved = (tree_dir / "quillpost.json").read_text()
    assert AGENT_KEY not in saved
    assert AGENT_KEY not in (tree_dir / "agent.md").read_text()
    # the redaction keeps the program's file what it was: JSON, the key's place marked
    assert json.loads(saved)["agent"]["api_key"].startswith("<REDACTED:")
    assert findings(tree_dir, "secrets") == []


def test_the_change_alert_reads_them_as_the_audit_does(tree_dir: Path, tmp_path: Path) -> None:
    _tree(tree_dir, {"raw/chat.jsonl": LOG})
    assert relative_in_tree(tree_dir / "raw/chat.jsonl", tree_dir) == "raw/chat.jsonl"
    assert relative_in_tree(tree_dir / ".dreams/chat.jsonl", tree_dir) == ".dreams/chat.jsonl"
    assert relative_in_tree(tree_dir / ".git/logs/HEAD", tree_dir) is None
    [finding] = findings(tree_dir, "secrets")
    scanner = secret_scanner(SecretsOptions())
    scan = scan_file(tree_dir / "raw/chat.jsonl", tree_dir, scanner, 1 << 20)
    assert scan is not None
    state = State(tmp_path / "state")
    [alert] = alerts_for(scan, state, frozenset())
    state.close()
    assert alert.path == "raw/chat.jsonl"
    assert alert.text.startswith(f"raw/chat.jsonl:{finding.line} ")
    assert TOKEN not in alert.text
    # read up to the audit's limit on such a file, not a memory's (a day's log past 1 MB)
    filler = '{"role":"assistant","text":"%s"}\n' % ("status ok " * 60)
    (tree_dir / "raw/long.jsonl").write_text(filler * 2500 + LOG)
    long = scan_file(tree_dir / "raw/long.jsonl", tree_dir, scanner, 1 << 20)
    assert long is not None
    assert [m.line for m in long.matches] == [2502]
    # a binary file raises nothing
    (tree_dir / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    assert scan_file(tree_dir / "diagram.png", tree_dir, scanner, 1 << 20) is None


def test_a_hidden_folder_a_memory_system_keeps_is_read_for_secrets(tree_dir: Path) -> None:
    # a dreaming memory's own store keeps what sessions said verbatim, a key among it;
    # a repository's database is no such place, nor is a symlink in a hidden folder
    recall = json.dumps({"entries": [{"snippet": f"the token is {TOKEN}, it works"}]})
    _tree(
        tree_dir,
        {
            ".dreams/short-term-recall.json": recall,
            ".dreams/corpus/2026-11-02.txt": f"hi\nthe token is {TOKEN}\n",
            ".git/COMMIT_EDITMSG": f"add {TOKEN}\n",
            ".state.json": '{"last": 3}',
        },
    )
    (tree_dir / ".dreams/linked.md").symlink_to(tree_dir / ".git/COMMIT_EDITMSG")
    tree = load(tree_dir)
    assert set(tree.other_texts) == {
        ".dreams/short-term-recall.json",
        ".dreams/corpus/2026-11-02.txt",
        ".state.json",
    }
    # no memory, no orphan, no name a link resolves to
    assert not any(path.startswith(".") for path in (*tree.files, *tree.present))
    [finding] = findings(tree_dir)
    assert finding.dimension == "secrets"
    assert finding.fix is not None
    assert {str(p["path"]) for p in finding.fix["places"]} == {
        ".dreams/short-term-recall.json",
        ".dreams/corpus/2026-11-02.txt",
    }


def test_a_value_a_memory_holds_is_shown_at_the_memory_before_another_files_copy(
    tree_dir: Path,
) -> None:
    # ".dreams/" sorts before "deploy.md": the finding still opens on the note
    _tree(
        tree_dir,
        {
            "deploy.md": memory("deploy", body=f"CI: the token is {TOKEN}"),
            ".dreams/recall.json": json.dumps({"snippet": f"the token is {TOKEN}"}),
        },
    )
    [finding] = findings(tree_dir, "secrets")
    assert finding.path == "deploy.md"
    assert finding.fix is not None
    assert [str(p["path"]) for p in finding.fix["places"]] == ["deploy.md", ".dreams/recall.json"]


def test_the_review_screen_masks_a_token_after_a_string_escape(tree_dir: Path) -> None:
    # review shows the file's lines and the fix's diff masked by the boundary of their text:
    # it must find the token the rules found after "\n\n", or the diff echoes it whole
    record = json.dumps({"text": f"setup:\n\n{TOKEN} my github token"})
    _tree(tree_dir, {"raw/chat.jsonl": record + "\n"})
    [finding] = findings(tree_dir, "secrets")
    assert finding.fix is not None
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    edit = redact.build(Tree.open(tree_dir), dict(finding.fix), [])
    diff = edit.diff()
    assert TOKEN in diff  # the raw diff holds it, on its "-" line
    boundary = Boundary.for_text(secret_scanner(SecretsOptions()), record)
    assert TOKEN not in boundary.text(diff)


# ---- the second reader's cases ---------------------------------------------------------

PASSWORD = "Harbor" + "07" + "!!q"  # a look-alike


def test_the_journal_masks_in_a_note_a_value_only_a_raw_log_names_as_a_password(
    tree_dir: Path, tmp_path: Path
) -> None:
    # the rules find the password in the log; the note holds it bare (a repeat): the kept
    # version of the note must not hold it, as the audit lists the note as one of its places
    _tree(
        tree_dir,
        {
            "b.md": memory("b", body=f"- nas {PASSWORD} on the mgmt port"),
            "raw/chat.jsonl": json.dumps({"text": f"the wifi password is {PASSWORD}"}) + "\n",
        },
    )
    [finding] = findings(tree_dir, "secrets")
    assert finding.fix is not None
    assert {str(p["path"]) for p in finding.fix["places"]} == {"raw/chat.jsonl", "b.md"}
    journal = Journal(tmp_path / "state")
    scanner = secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))
    recorder = Recorder(journal.index, journal.blobs, scanner, 1 << 20)
    kept = recorder.reconcile(tree_dir, 1.0, lambda *_: Actor("outside"))
    assert "b.md" in {version.path for version in kept}
    stored = b"".join(
        zlib.decompress(p.read_bytes()) for p in journal.blobs.folder.rglob("*") if p.is_file()
    )
    assert b"mgmt port" in stored  # the note was kept
    assert PASSWORD.encode() not in stored
    # and the change alert of the note raises the repeat, as the audit reports it
    known = known_secrets(TreeValues(1 << 20), tree_dir, set(), scanner)
    scan = scan_file(tree_dir / "b.md", tree_dir, scanner, 1 << 20, known=known)
    assert scan is not None
    assert [m.line for m in scan.repeats] == [6]


def test_a_copy_after_a_string_escape_is_a_place_and_is_redacted(tree_dir: Path) -> None:
    log = (
        json.dumps({"text": f"the wifi password is {PASSWORD}"})
        + "\n"
        + json.dumps({"text": f"log in to the nas with:\n{PASSWORD}"})
        + "\n"
    )
    _tree(tree_dir, {"raw/chat.jsonl": log})
    [finding] = findings(tree_dir, "secrets")
    assert finding.fix is not None
    assert [p["line"] for p in finding.fix["places"]] == [1, 2]
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), dict(finding.fix), []).apply()
    saved = (tree_dir / "raw/chat.jsonl").read_text()
    assert PASSWORD not in saved
    assert [json.loads(line)["text"][-8:] for line in saved.splitlines()] == [
        "ase-phrase>"[-8:],
        "ase-phrase>"[-8:],
    ]


@pytest.mark.parametrize(
    "message",
    [
        "machine api.fernhill.net login bot password {value}",  # the value ends the string
        'run curl "https://api.fernhill.net/v1?token={value}" to check',  # in escaped quotes
    ],
)
def test_redacting_a_json_logs_value_keeps_each_line_json(tree_dir: Path, message: str) -> None:
    value = "46Kq7vT2xWm9pL4zR8JT"
    _tree(tree_dir, {"raw/chat.jsonl": json.dumps({"text": message.format(value=value)}) + "\n"})
    [finding] = findings(tree_dir, "secrets")
    assert finding.fix is not None
    redact = actions(secret_scanner(SecretsOptions()))["redact-secret"]
    redact.build(Tree.open(tree_dir), dict(finding.fix), []).apply()
    [line] = (tree_dir / "raw/chat.jsonl").read_text().splitlines()
    text = json.loads(line)["text"]  # still JSON
    assert value not in text
    assert "<REDACTED:" in text


def test_a_value_quoted_in_a_note_and_in_a_json_log_is_one_finding(tree_dir: Path) -> None:
    value = "6QmZ4kLpX2rzW9aB3cLm"
    command = f'upload with curl "https://files.fernhill.net/put?token={value}"'
    _tree(
        tree_dir,
        {
            "upload.md": memory("upload", body=command),
            "raw/chat.jsonl": json.dumps({"text": command}) + "\n",
        },
    )
    [finding] = findings(tree_dir, "secrets")
    assert finding.fix is not None
    assert [str(p["path"]) for p in finding.fix["places"]] == ["upload.md", "raw/chat.jsonl"]


def test_a_hidden_note_is_read_by_the_alert_as_far_as_by_the_audit(tree_dir: Path) -> None:
    # a dreaming store's day note past a memory's 1 MB: a file read for secrets alone
    filler = "- status ok, nothing to report today\n" * 40_000
    _tree(tree_dir, {".dreams/2026-11-02.md": filler + f"the token is {TOKEN}\n"})
    [finding] = findings(tree_dir, "secrets")
    assert finding.line == 40_001
    scan = scan_file(
        tree_dir / ".dreams/2026-11-02.md", tree_dir, secret_scanner(SecretsOptions()), 1 << 20
    )
    assert scan is not None
    assert [m.line for m in scan.matches] == [40_001]
