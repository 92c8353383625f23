"""Docstrings point at documents the repository holds, and at headings those documents have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "src" / "memory_audit").rglob("*.py"))
# `docs/dimensions.md, "Dead weight"` or `README, "Fixing: one decision at a time"`
POINTER = re.compile(r'(docs/[\w-]+\.md|README)(?:\'s)?,?\s+"([^"]+)"')


def headings(document: Path) -> set[str]:
    return {
        line.lstrip("#").strip()
        for line in document.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


def test_every_pointer_names_an_existing_document_and_heading() -> None:
    pointers = []
    for source in SOURCES:
        text = " ".join(source.read_text(encoding="utf-8").split())  # pointers may wrap
        pointers += [(source.name, *match.groups()) for match in POINTER.finditer(text)]
    assert len(pointers) >= 10  # the pattern still finds them
    missing = [
        (name, document, heading)
        for name, document, heading in pointers
        if heading not in headings(ROOT / ("README.md" if document == "README" else document))
    ]
    assert missing == []


def test_no_docstring_cites_the_seed_documents_the_repository_lacks() -> None:
    citing = [s.name for s in SOURCES if re.search(r"\bseed \d{3}", s.read_text(), re.I)]
    assert citing == []
