from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from memory_audit.checks import DIMENSIONS
from memory_audit.model.run import Run
from memory_audit.store.reports import ReportStore
from tests.e2e.test_cli import cli
from tests.harness import NOW, index, report, write_tree


@pytest.mark.slow
def test_report_list_show_and_path(tmp_path: Path) -> None:
    assert "No reports yet" in cli("report", "list").stdout
    missing = cli("report", "show")
    assert missing.returncode == 2
    assert "memory-audit daemon --once" in missing.stderr
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    store = ReportStore(Path(platformdirs.user_data_dir("memory-audit")) / "reports", keep=5)
    first = store.write(Run((report(tree, "index-drift"),), NOW, dimensions=DIMENSIONS), {})
    second = store.write(Run((report(tree, "index-drift"),), NOW, dimensions=DIMENSIONS), {})
    listing = cli("report", "list").stdout.splitlines()
    assert listing[1].startswith(second.name)
    assert listing[2].startswith(first.name)
    assert listing[1].split()[1:] == ["1", "1"]
    assert "memory-audit weekly summary" in cli("report", "show").stdout
    assert cli("report", "path", first.name).stdout.strip() == str(first)
    assert cli("report", "path").stdout.strip() == str(store.root)
    assert cli("report", "show", "1999").returncode == 2
