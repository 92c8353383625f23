"""Docstrings point at documents the repository holds, and at headings those documents have."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from memory_audit.checks import DIMENSIONS, OPTION_TYPES
from memory_audit.config import settings as config
from memory_audit.tree.load_budget import CHAR_LIMIT

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


# ---- the docs agree with the code -------------------------------------------------------

DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])
NUMBER_WORDS = dict(
    zip(
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split(),
        range(1, 21),
        strict=True,
    )
)


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_docs", ROOT / "scripts/generate_docs.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_dimension_table_is_generated_from_the_registry() -> None:
    table = _section(_readme(), "Dimensions")
    begin, end = "<!-- generated: dimensions (make docs) -->\n", "<!-- end: dimensions -->"
    assert begin in table
    generated = table.split(begin, 1)[1].split(end, 1)[0]
    assert generated == _generator().dimensions()  # else: `make docs`
    rows = [line for line in generated.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [d.id for d in DIMENSIONS]


def test_the_readme_option_table_is_generated_with_the_code_s_defaults() -> None:
    text = _section(_readme(), "Configuration")
    begin, end = "<!-- generated: check-options (make docs) -->\n", "<!-- end: check-options -->"
    generated = text.split(begin, 1)[1].split(end, 1)[0]
    assert generated == _generator().check_options()  # else: `make docs`
    assert "| `checks.duplicates.threshold` | `0.4` | TF-IDF cosine" in generated
    rows = [line for line in generated.splitlines() if line.startswith("| `checks.")]
    assert all(not row.endswith("|  |") for row in rows)  # every option explained


def test_make_docs_check_passes_on_the_committed_readme() -> None:
    script = [sys.executable, str(ROOT / "scripts/generate_docs.py"), "--check"]
    result = subprocess.run(script, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_every_count_of_dimensions_in_the_docs_is_the_registry_s() -> None:
    said = []
    for document in DOCS:
        text = document.read_text(encoding="utf-8")
        for word in re.findall(r"\b(\w+) dimensions\b", text, re.I):
            number = int(word) if word.isdigit() else NUMBER_WORDS.get(word.lower())
            if number is not None:
                said.append((document.name, number))
    assert ("README.md", len(DIMENSIONS)) in said
    assert [s for s in said if s[1] != len(DIMENSIONS)] == []


def test_the_readme_configuration_example_holds_the_defaults() -> None:
    block = _section(_readme(), "Configuration").split("```yaml\n", 1)[1].split("```", 1)[0]
    parsed = config.parse(block, "README.md", option_types=OPTION_TYPES)
    defaults = config.Config(option_types=OPTION_TYPES)
    assert parsed.settings == defaults.settings
    assert set(parsed.checks) == {"duplicates", "usage"}
    for dimension in parsed.checks:
        assert parsed.check_options(dimension) == defaults.check_options(dimension)


def test_audit_help_lists_every_dimension_id() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    listed = shown.split("dimensions (", 1)[1]
    assert [line.split()[0] for line in listed.splitlines()[1:] if line.strip()] == [
        d.id for d in DIMENSIONS
    ]


def test_the_docs_say_characters_where_claude_code_counts_characters() -> None:
    limit = f"{CHAR_LIMIT:,}"
    for document in DOCS:
        text = " ".join(document.read_text(encoding="utf-8").split())
        assert f"{limit} bytes" not in text, document.name


def test_the_readme_names_every_command_that_changes_a_tree() -> None:
    fixing = " ".join(_section(_readme(), "Fixing: one decision at a time").split())
    assert "Only `memory-audit review` and `memory-audit restore`" in fixing
    assert "Nothing changes a memory tree except" not in fixing


def test_the_readme_states_no_test_count_or_suite_time_that_goes_stale() -> None:
    assert re.findall(r"\b\d[\d,]* tests\b", _readme()) == []


LOCAL_PATH = re.compile(r"(?<![\w.~-])/(?:work|tmp|root|Users|home/(?!me/)[\w.-]+)/")
DIARY = re.compile(
    r"\bcoordinator\b|\bother sessions\b|\bsessions? shar(?:e|ed|ing)\b|"
    r"\b(?:helper|developer)s? (?:session|at work)|\bshar(?:ed|ing) (?:the )?(?:2 )?cores\b",
    re.I,
)


def test_the_docs_cite_no_local_machine_paths_or_how_the_work_was_done() -> None:
    found = []
    for document in [*DOCS, ROOT / "bench/HISTORY.md"]:
        text = document.read_text(encoding="utf-8")
        found += [(document.name, m.group()) for m in LOCAL_PATH.finditer(text)]
        found += [(document.name, m.group()) for m in DIARY.finditer(text)]
    assert found == []


def test_benchmarks_is_a_reference_each_row_with_command_figure_and_target() -> None:
    page = (ROOT / "docs/benchmarks.md").read_text(encoding="utf-8")
    assert "bench/HISTORY.md" in page
    for heading in ("Containment", "Secrets"):  # where other work adds its figures
        assert f"\n## {heading}\n" in page
    header = "| case | command | current figure | target |"
    tables = [line for line in page.splitlines() if line.startswith("| ") and "command" in line]
    assert tables
    assert all(line.count("|") == header.count("|") for line in tables), tables


def test_the_example_configuration_lists_checks_and_options_in_registry_order_each_explained() -> (
    None
):
    text = (ROOT / "config/config.example.yaml").read_text(encoding="utf-8")
    checks = text.split("\nchecks:\n", 1)[1]
    listed: list[tuple[str, list[str]]] = []
    for line in checks.splitlines():
        if re.match(r"  [a-z-]+:$", line):
            listed.append((line.strip()[:-1], []))
        elif match := re.match(r"    ([a-z_]+):", line):
            listed[-1][1].append(match[1])
            assert "#" in line, f"no comment explains {line.strip()}"
    wanted = [
        (
            d.id,
            [
                f.name
                for f in dataclasses.fields(OPTION_TYPES[d.id])
                if not f.metadata.get("internal")
            ],
        )
        for d in DIMENSIONS
    ]
    assert listed == [(dimension, names) for dimension, names in wanted if names]
