from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from memory_audit.journal.attribution import (
    FIRST_READ,
    PROMPT_CHARS,
    Attributor,
    TranscriptFollower,
)
from memory_audit.journal.labels import labeller
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from tests.secrets.samples import CASES

TOKEN = CASES["github-pat"][0][0][0]
T0 = dt.datetime(2026, 11, 30, 12, 0, 0, tzinfo=dt.UTC)


def stamp(seconds: float) -> str:
    return (T0 + dt.timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


def user(session: str, text: str, at: float = 0.0) -> str:
    return json.dumps(
        {"type": "user", "sessionId": session, "timestamp": stamp(at),
         "message": {"role": "user", "content": text}}
    )  # fmt: skip


def tool(session: str, name: str, given: dict[str, str], at: float) -> str:
    use = {"type": "tool_use", "id": "t", "name": name, "input": given}
    return json.dumps(
        {"type": "assistant", "sessionId": session, "timestamp": stamp(at),
         "message": {"role": "assistant", "content": [use]}}
    )  # fmt: skip


def write_transcript(folder: Path, name: str, lines: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def follower_of(folder: Path) -> TranscriptFollower:
    scanner = secret_scanner(ScannerConfig(state_dir=str(folder.parent / "state")))
    return TranscriptFollower(folder, labeller(lambda: scanner, PROMPT_CHARS))


def attributor(folder: Path, root: Path, consolidating: bool = False) -> Attributor:
    follower = follower_of(folder)
    follower.update()
    return Attributor(root, follower, lambda: consolidating, window=10.0)


def test_attribution_a_write_in_a_transcript_names_the_session_and_its_prompt(
    tmp_path: Path,
) -> None:
    root = tmp_path / "p/memory"
    write_transcript(
        tmp_path / "p",
        "s1",
        [
            user("s1", "Please   remember that deploys need approval"),
            tool("s1", "Write", {"file_path": str(root / "deploy.md")}, at=30.0),
        ],
    )
    who = attributor(tmp_path / "p", root)("deploy.md", T0.timestamp() + 32.0, "modified")
    assert (who.kind, who.session, who.label) == (
        "session",
        "s1",
        "Please remember that deploys need approval",
    )
    assert who.describe().startswith("Claude Code session s1")


def test_attribution_outside_the_window_or_another_file_is_outside_claude_code(
    tmp_path: Path,
) -> None:
    root = tmp_path / "p/memory"
    write_transcript(
        tmp_path / "p", "s1", [tool("s1", "Edit", {"file_path": str(root / "a.md")}, at=0.0)]
    )
    who = attributor(tmp_path / "p", root)
    assert who("a.md", T0.timestamp() + 60.0, "modified").kind == "outside"
    assert who("b.md", T0.timestamp() + 1.0, "modified").kind == "outside"
    assert who("a.md", T0.timestamp() + 1.0, "modified").kind == "session"


def test_attribution_shell_rm_of_the_file_or_its_folder_counts(tmp_path: Path) -> None:
    root = tmp_path / "p/memory"
    write_transcript(
        tmp_path / "p",
        "s2",
        [
            tool("s2", "Bash", {"command": f"rm {root}/old_notes.md"}, at=5.0),
            tool("s2", "Bash", {"command": f"rm -rf {root / 'archive'}"}, at=100.0),
            tool("s2", "Bash", {"command": "ls old_notes.md"}, at=200.0),
        ],
    )
    who = attributor(tmp_path / "p", root)
    assert who("old_notes.md", T0.timestamp() + 6, "deleted").session == "s2"
    assert who("archive/x.md", T0.timestamp() + 101, "deleted").session == "s2"
    assert who("old_notes.md", T0.timestamp() + 201, "deleted").kind == "outside"


def test_attribution_the_consolidation_lock_wins(tmp_path: Path) -> None:
    root = tmp_path / "p/memory"
    write_transcript(
        tmp_path / "p", "s1", [tool("s1", "Write", {"file_path": str(root / "a.md")}, at=0.0)]
    )
    who = attributor(tmp_path / "p", root, consolidating=True)
    assert who("a.md", T0.timestamp(), "modified").kind == "consolidation"


def test_attribution_transcripts_are_read_incrementally_and_junk_is_skipped(
    tmp_path: Path,
) -> None:
    root = tmp_path / "p/memory"
    path = write_transcript(tmp_path / "p", "s1", ["not json", '{"half": '])
    follower = follower_of(tmp_path / "p")
    follower.update()
    assert list(follower.events) == []
    with path.open("a") as handle:
        handle.write(tool("s1", "Write", {"file_path": str(root / "a.md")}, at=0.0) + "\n")
        handle.write(tool("s1", "Write", {"file_path": str(root / "b.md")}, at=1.0)[:40])
    follower.update()
    assert [e.targets for e in follower.events] == [(str(root / "a.md"),)]
    with path.open("a") as handle:  # the half line completes: read from where it stopped
        rest = tool("s1", "Write", {"file_path": str(root / "b.md")}, at=1.0)[40:]
        handle.write(rest + "\n")
    follower.update()
    assert len(follower.events) == 2


def test_attribution_a_huge_transcript_is_read_from_its_tail_only(tmp_path: Path) -> None:
    root = tmp_path / "p/memory"
    folder = tmp_path / "p"
    folder.mkdir(parents=True)
    path = folder / "big.jsonl"
    with path.open("wb") as handle:
        handle.write(tool("s0", "Write", {"file_path": str(root / "early.md")}, at=0.0).encode())
        handle.write(b"\n")
        handle.truncate(3 * FIRST_READ)  # sparse filler: NUL bytes, no disk used
        handle.seek(0, 2)
        handle.write(b"\n" + tool("s9", "Write", {"file_path": str(root / "late.md")}, 9).encode())
        handle.write(b"\n")
    follower = follower_of(folder)
    follower.update()
    assert [e.session for e in follower.events] == ["s9"]


def test_attribution_a_secret_in_the_first_prompt_is_masked_before_it_is_shortened(
    tmp_path: Path,
) -> None:
    root = tmp_path / "p/memory"
    cut = "please set up the deploy pipeline for production with " + TOKEN  # cut at 60
    write_transcript(
        tmp_path / "p",
        "s1",
        [
            user("s1", f"deploy with {TOKEN} now"),
            user("s2", cut),
            tool("s1", "Write", {"file_path": str(root / "a.md")}, at=1.0),
            tool("s2", "Write", {"file_path": str(root / "b.md")}, at=1.0),
        ],
    )
    who = attributor(tmp_path / "p", root)
    whole = who("a.md", T0.timestamp() + 1.0, "modified")
    halved = who("b.md", T0.timestamp() + 1.0, "modified")
    assert whole.label == f"deploy with {TOKEN[:4]}...{TOKEN[-4:]} now"
    assert len(halved.label) == PROMPT_CHARS
    fragments = {TOKEN[i : i + 8] for i in range(len(TOKEN) - 7)}
    for shown in (whole.describe(), halved.describe()):
        assert not any(fragment in shown for fragment in fragments), shown
