"""``memory-audit audit --transcripts``: secrets in session transcripts, on demand.

Every transcript of the chosen trees' projects (of every project when none is named) is
read once, with the memory rules; each secret is listed with its session and time, in its
redacted form only, and with what it means: the text went to the model provider with the
session, and stays on this machine until the transcript is deleted. Nothing is written.
"""

from __future__ import annotations

import datetime as dt
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from memory_audit.config.settings import Config
from memory_audit.errors import UsageError
from memory_audit.model.visible import visible
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.loading import RulesUnavailable, secret_scanner
from memory_audit.secrets.transcript_scan import (
    ScanResult,
    TranscriptSecret,
    scan_transcripts,
    transcript_files,
)
from memory_audit.tree.discovery import TreeRef, projects_dir

CLEAR = "\r\033[K"
SENT = (
    "Each of these was sent to the model provider with its session: revoke or rotate the "
    "credential. The transcript keeps it on this machine until it is deleted (Claude Code "
    "also sweeps transcripts after cleanupPeriodDays); memory-audit writes nothing to it."
)


def run(refs: Sequence[TreeRef] | None, config: Config, out: TextIO) -> int:
    """``refs``: the trees the user named (their projects' transcripts); None: every project."""
    options = config.check_options("secrets")
    try:
        scanner = secret_scanner(options)
    except RulesUnavailable as exc:
        raise UsageError(f"transcripts not scanned: {exc}") from None
    files = transcript_files(_folders(refs))
    progress = _Progress(sys.stderr, len(files))
    try:
        result = scan_transcripts(scanner, files, progress)
    finally:
        progress.finish()
    boundary = Boundary(result.values)
    out.write("".join(boundary.text(line) + "\n" for line in render(result)))
    return 1 if result.secrets else 0


def _folders(refs: Sequence[TreeRef] | None) -> list[Path]:
    if refs is None:
        return [projects_dir()]
    return sorted({r.location.transcripts_dir for r in refs if r.location.transcripts_dir})


def render(result: ScanResult) -> list[str]:
    size = f"{result.bytes_read / 1_000_000:.1f} MB"
    found = len(result.secrets)
    by_session: dict[Path, list[TranscriptSecret]] = {}
    for secret in result.secrets:
        by_session.setdefault(secret.transcript, []).append(secret)
    head = f"Scanned {result.transcripts} session transcripts ({size}): "
    if not found:
        return [head + "no possible secret."]
    lines = [head + f"{found} possible secret(s) in {len(by_session)} session(s).", ""]
    for transcript in sorted(by_session):
        lines += _session(transcript, by_session[transcript])
    return [*lines, SENT]


def _session(transcript: Path, secrets: list[TranscriptSecret]) -> list[str]:
    project = transcript.parent.name if transcript.parent != projects_dir() else ""
    lines = [visible(f"Session {secrets[0].session} ({project})")]
    for secret in secrets:
        again = f", in {secret.times} records" if secret.times > 1 else ""
        lines.append(
            visible(
                f"  line {secret.line}, {_when(secret.at)}: possible {secret.label}: "
                f'"{secret.redacted}" (pattern: {secret.rule}){again}'
            )
        )
    lines += [f"  To remove it from this machine: rm {shlex.quote(str(transcript))}", ""]
    return lines


def _when(at: dt.datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC") if at is not None else "time unknown"


class _Progress:
    """``scanning transcripts: 3/40`` on a terminal, rewritten in place, erased at the end."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream if stream.isatty() else None
        self.total = total

    def __call__(self, done: int, read: int, path: Path) -> None:
        if self.stream is not None:
            mb = read / 1_000_000
            self.stream.write(f"{CLEAR}scanning transcripts: {done}/{self.total} ({mb:.0f} MB)")
            self.stream.flush()

    def finish(self) -> None:
        if self.stream is not None:
            self.stream.write(CLEAR)
            self.stream.flush()
