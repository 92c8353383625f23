"""What a package index and a new user see: the licence, the links, bounded dependencies."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project: dict[str, object] = data["project"]
    return project


def test_the_licence_the_package_declares_is_in_the_checkout() -> None:
    project = _project()
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "WITHOUT WARRANTY OF ANY KIND" in text


def test_the_package_links_its_home_and_issues() -> None:
    urls = _project()["urls"]
    assert isinstance(urls, dict)
    assert {"Homepage", "Issues"} <= set(urls)
    assert all(str(url).startswith("https://") for url in urls.values())


def test_every_runtime_dependency_has_an_upper_bound() -> None:
    dependencies = _project()["dependencies"]
    assert isinstance(dependencies, list)
    unbounded = [d for d in dependencies if not re.search(r"<\s*\d", d)]
    assert unbounded == []
