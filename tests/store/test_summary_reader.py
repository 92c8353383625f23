"""The session hook's partial read of summary.json equals decoding all of it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memory_audit.checks import DIMENSIONS
from memory_audit.model.run import Run
from memory_audit.report import json_report
from memory_audit.store.summary_reader import head_and_report
from tests.harness import NOW, index, memory, report, write_tree

AWKWARD = ("plain", 'quo"te', "back\\slash", "émoji 🙂", '"root":"x"', "a b")


def summary(tmp_path: Path, indent: int | None) -> tuple[str, list[Path]]:
    roots = [tmp_path / name / "memory" for name in AWKWARD]
    for number, root in enumerate(roots):
        body = f'mentions "root":"{roots[0]}" and {{"root": 1}} in prose {number}'
        write_tree(root, {"MEMORY.md": index("gone.md"), "a.md": memory("a", body=body)})
    reports = tuple(report(root, "index-drift") for root in roots)
    return json_report.render(Run(reports, NOW, dimensions=DIMENSIONS), indent), roots


@pytest.mark.parametrize("indent", [None, 2])
def test_each_tree_s_report_is_the_one_a_full_decode_finds(
    tmp_path: Path, indent: int | None
) -> None:
    text, roots = summary(tmp_path, indent)
    full = json.loads(text)
    for number, root in enumerate(roots):
        head, found = head_and_report(text.encode(), os.path.normpath(root))
        assert found == full["reports"][number]
        assert head == {k: v for k, v in full.items() if k != "reports"}
    assert head_and_report(text.encode(), str(tmp_path / "elsewhere"))[1] is None


def test_a_document_in_another_key_order_is_decoded_whole(tmp_path: Path) -> None:
    text, roots = summary(tmp_path, None)
    data = json.loads(text)
    reordered = {"reports": [dict(reversed(r.items())) for r in data["reports"]]}
    reordered.update({k: v for k, v in data.items() if k != "reports"})
    head, found = head_and_report(json.dumps(reordered).encode(), str(roots[1]))
    assert found == data["reports"][1]
    assert head["dimensions"] == data["dimensions"]
