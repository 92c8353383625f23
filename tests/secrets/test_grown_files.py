"""A log in a memory tree read again where it grew, by the on-change alert and the journal."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from memory_audit.daemon.alerts import scan_file
from memory_audit.journal.tree_values import TreeValues
from memory_audit.secrets.file_text import rules_text
from memory_audit.secrets.grown_files import CONTEXT, GrownFiles, window
from memory_audit.secrets.loading import secret_scanner
from memory_audit.secrets.scanner import Scanner
from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.github_tokens import github_token

SCANNER = secret_scanner(None)
LOG = "raw/chat.jsonl"


def record(number: int, text: str = "") -> str:
    words = text or f"message {number}: the build on the shared runner passed again"
    return json.dumps({"update_id": number, "from": {"id": 42}, "text": words}) + "\n"


def token() -> str:
    return github_token("ghp_", rnd(ALNUM, 36))


def log_text(first: str, records: int = 3000) -> str:
    """A chat log of about 300 KB whose third record holds ``first``."""
    lines = [record(n) for n in range(records)]
    lines[2] = record(2, f"the bot token is {first}\nkeep it")
    return "".join(lines)


class Recording:
    """The real scanner, with the length of each text it was given (its blank lines, which
    keep line numbers, left out)."""

    def __init__(self, scanner: Scanner) -> None:
        self.scanner = scanner
        self.read: list[int] = []

    def scan(self, text: str) -> Any:
        self.read.append(len(text.lstrip("\n")))
        return self.scanner.scan(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.scanner, name)


def found(text: str) -> list[tuple[int, str]]:
    return [(m.line, text[m.start : m.end]) for m in SCANNER.scan(text)]


def read(grown: GrownFiles, raw: str, path: str = LOG) -> str:
    """What the rules read of ``raw`` now, the read kept (its alerts raised)."""
    text, seen = grown.read("/t/" + path, path, raw, SCANNER)
    grown.keep("/t/" + path, seen)
    return text


def test_what_a_log_appended_is_read_with_its_lines_and_nothing_before_is_read_again() -> None:
    first, second = token(), token()
    raw = log_text(first)
    grown = GrownFiles()
    assert found(read(grown, raw)) == [(3, first)]
    raw += record(3000, f"and the new one: {second}")
    text = read(grown, raw)
    # the line the whole file gives it, and only the new part (with what came just before)
    assert found(text) == [(3001, second)]
    assert found(rules_text(LOG, raw)) == [(3, first), (3001, second)]
    assert len(text.lstrip("\n")) <= CONTEXT + 200
    assert text.lstrip("\n")[0] == "{"  # from a record's start, never inside one
    # read again unchanged: nothing is new
    assert found(read(grown, raw)) == []


def test_a_log_rewritten_truncated_or_read_with_other_rules_is_read_whole() -> None:
    first, second = token(), token()
    raw = log_text(first) + record(3000, f"then {second}")
    rewritten = raw.replace("message 7:", "message 8:", 1)  # the same length, one byte apart
    for changed in (rewritten, raw[: len(raw) // 2] + record(1, f"then {second}")):
        grown = GrownFiles()
        read(grown, raw)
        assert [value for _, value in found(read(grown, changed))] == [
            first,
            second,
        ]
    # other rules (a reloaded patterns file): what was read before was judged by the old ones
    other = copy.copy(SCANNER)
    start, _, _ = window(LOG, raw + record(3001), window(LOG, raw, None, SCANNER)[2], other)
    assert start == 0


def test_a_log_grown_by_less_than_the_context_is_read_from_a_line_start(tmp_path: Path) -> None:
    raw = "".join(record(n) for n in range(100))  # 8 KB: all of it within the context
    grown = GrownFiles()
    read(grown, raw)
    value = token()
    text = read(grown, raw + record(100, value))
    assert found(text) == [(101, value)]
    assert text == rules_text(LOG, raw + record(100, value))  # read whole, line for line


def test_the_journal_keeps_the_values_read_before_and_reads_only_the_growth(
    tmp_path: Path,
) -> None:
    # passwords: a repeat search looks for a value no rule finds on its own
    first, second = "Tq7#mWx2Lp9v", "Fern-Hall-2031!"
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    (tree / "raw").mkdir()
    (tree / LOG).write_text(log_text(f"nothing; db password: {first}"))
    recording = Recording(SCANNER)
    values = TreeValues(1 << 20)
    files = {"MEMORY.md", "a.md", LOG}
    assert first in values.search(tree, files, files, recording, changed={LOG}).values  # type: ignore[arg-type]
    whole = max(recording.read)
    with (tree / LOG).open("a") as handle:
        handle.write(record(3000, f"the new db password: {second}"))
    recording.read.clear()
    search = values.search(tree, files, files, recording, changed={LOG})  # type: ignore[arg-type]
    assert {first, second} <= set(search.values)  # the value far above is still masked
    assert recording.read
    assert max(recording.read) <= CONTEXT + 200 < whole


def test_the_alert_reads_only_what_a_log_appended_and_alerts_for_it_at_its_line(
    tmp_path: Path,
) -> None:
    first, second = token(), token()
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    (tree / "raw").mkdir()
    (tree / LOG).write_text(log_text(first))
    recording = Recording(SCANNER)
    grown = GrownFiles()
    before = scan_file(tree / LOG, tree, recording, 1 << 20, grown=grown)  # type: ignore[arg-type]
    assert before is not None
    assert before.read is not None
    assert [m.line for m in before.matches] == [3]
    grown.keep(*before.read)  # its alerts raised
    with (tree / LOG).open("a") as handle:
        handle.write(record(3000, f"now {second}"))
    recording.read.clear()
    after = scan_file(tree / LOG, tree, recording, 1 << 20, grown=grown)  # type: ignore[arg-type]
    assert after is not None
    assert [(m.line, m.redacted[:6]) for m in after.matches] == [(3001, second[:4] + second[4:6])]
    assert max(recording.read) <= CONTEXT + 200
    # a memory is always read whole: its headings and fences may be far above a value
    (tree / "a.md").write_text(memory("a", body=f"token {second}"))
    recording.read.clear()
    scan_file(tree / "a.md", tree, recording, 1 << 20, grown=grown)  # type: ignore[arg-type]
    assert recording.read[0] == len((tree / "a.md").read_text())


def test_a_read_not_kept_leaves_the_next_read_where_the_last_kept_one_ended() -> None:
    """A batch whose alerts were lost (the state could not be written) is read again with
    the next change: the growth it read is not skipped."""
    first, second = token(), token()
    raw = log_text(token())
    grown = GrownFiles()
    read(grown, raw)
    lost = raw + "".join(record(n) for n in range(3000, 3400)) + record(3400, first)
    grown.read("/t/" + LOG, LOG, lost, SCANNER)  # its alerts never raised: not kept
    text = read(grown, lost + record(3401, second))
    assert found(text) == [(3401, first), (3402, second)]


def test_a_log_holding_lines_that_are_no_records_is_read_whole(tmp_path: Path) -> None:
    """The heading a value sits under, a table's header or an open fence may lie far above
    it: in a file whose lines are not all JSON records (a text log, a hidden note, a JSON
    Lines file with a Markdown line), every read is whole, so a row appended under a header
    16 KB above is still a password's (what the audit reports too)."""
    table = "| host | user | password |\n|---|---|---|\n"
    rows = "".join(f"| db{n} | app | `-` |\n" for n in range(1500))
    heading = "## Credentials\n" + "".join(record(n) for n in range(400))
    cases = [
        ("notes/hosts.txt", table + rows, "| db9999 | admin | `eF7/sU5;rU3]Pt5` |\n"),
        (".drafts/hosts.md", table + rows, "| db9999 | admin | `eF7/sU5;rU3]Pt5` |\n"),
        (LOG, heading, "- `fern2031-admin` / `fern2031-Falcon`\n"),
    ]
    for rel, text, appended in cases:
        tree = write_tree(
            tmp_path / rel.replace("/", "_"), {"MEMORY.md": index(), "a.md": memory("a")}
        )
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text)
        grown = GrownFiles()
        earlier = scan_file(tree / rel, tree, SCANNER, 1 << 20, grown=grown)
        assert earlier is not None
        assert earlier.read is not None
        grown.keep(*earlier.read)
        with (tree / rel).open("a") as handle:
            handle.write(appended)
        whole = scan_file(tree / rel, tree, SCANNER, 1 << 20)
        grew = scan_file(tree / rel, tree, SCANNER, 1 << 20, grown=grown)
        assert whole is not None
        assert grew is not None
        assert [m.line for m in whole.matches] == [text.count("\n") + 1], rel
        assert [m.redacted for m in grew.matches] == [m.redacted for m in whole.matches], rel


def test_a_record_still_being_written_waits_for_its_newline() -> None:
    """A log written without pause is read mid-write: half a password appended (``Tq7#mW``
    of ``Tq7#mWx2Lp9vRz``, a password's shape of its own) is no value to alert for, and the
    whole one is read once its record's newline comes."""
    value = "Tq7#mWx2Lp9vRz"
    raw = log_text(token())
    grown = GrownFiles()
    read(grown, raw)
    line = record(3000, f"the new db password: {value} for the replica")
    cut = line.index(value) + 6
    assert found(read(grown, raw + line[:cut])) == []
    assert found(read(grown, raw + line)) == [(3001, value)]
