"""Report files read as untrusted input: regular files, size and nesting bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.checks import DIMENSIONS
from memory_audit.model.run import Run
from memory_audit.report import json_report
from memory_audit.report.report_file import MAX_DEPTH, ReportUnreadable, read_report_json
from tests.harness import NOW, index, report, write_tree


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_a_report_the_tool_wrote_is_read_back(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    run = Run((report(tree, "index-drift"),), NOW, dimensions=DIMENSIONS)
    path = tmp_path / "summary.json"
    path.write_text(json_report.render(run), encoding="utf-8")
    back = json_report.from_json(read_report_json(path))
    assert [f.fingerprint for f in back.reports[0].findings] == [
        f.fingerprint for f in run.reports[0].findings
    ]


def test_nesting_up_to_the_limit_is_read_and_one_level_more_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text(nested(MAX_DEPTH))
    assert read_report_json(path) is not None
    path.write_text(nested(MAX_DEPTH + 1))
    with pytest.raises(ReportUnreadable, match=f"nested more than {MAX_DEPTH} levels deep"):
        read_report_json(path)


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text("[" + "0," * 100 + "0]")
    assert len(read_report_json(path, max_bytes=1000)) == 101
    with pytest.raises(ReportUnreadable, match="over the 100-byte limit"):
        read_report_json(path, max_bytes=100)


def test_text_that_is_not_json_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_bytes(b"\xff\xfe not json")
    with pytest.raises(ReportUnreadable, match=f"cannot read report {path}: "):
        read_report_json(path)
    with pytest.raises(ReportUnreadable, match="No such file or directory"):
        read_report_json(tmp_path / "missing.json")
