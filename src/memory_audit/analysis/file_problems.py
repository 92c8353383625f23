"""Turning read and parse problems into findings, for the dimension that owns a file kind."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from memory_audit.model.finding import Finding, make_finding
from memory_audit.tree.memory_file import FileProblem

SUGGESTIONS = {
    "unparseable-frontmatter": "rewrite the failing line as `key: 'whole value'` (single quotes,"
    " any ' inside doubled)",
    "frontmatter-too-large": "keep frontmatter to a few key: value lines; the body holds detail",
    "frontmatter-not-mapping": "rewrite the frontmatter as key: value lines",
    "unclosed-frontmatter": "add the closing --- line after the last frontmatter field",
    "not-utf8": "re-save the file as UTF-8",
    "binary-file": "remove the file or restore its text from a backup",
    "file-too-large": "split the file into topic files; memory files are read whole into context",
    "symlink-outside-tree": "copy the file into the tree, or remove the link",
    "dangling-symlink": "remove the link, or restore its target",
    "not-regular-file": "remove it; only regular .md files are memories",
}

# A file whose frontmatter (or text) cannot be read whole: its dimension's other findings
# about it are moot, so these lead.
UNREADABLE = frozenset(
    {
        "unparseable-frontmatter",
        "frontmatter-not-mapping",
        "unclosed-frontmatter",
        "binary-file",
        "file-too-large",
        "not-utf8",
    }
)

# Louder than their dimension: Claude Code reads nothing of such a file's frontmatter.
SEVERITIES = {"unparseable-frontmatter": "error", "frontmatter-not-mapping": "error"}


def problem_findings(
    dimension: str, path: str, problems: Iterable[FileProblem]
) -> Iterator[Finding]:
    for problem in problems:
        yield make_finding(
            dimension,
            problem.code,
            path,
            problem.line,
            problem.message,
            problem.suggestion or SUGGESTIONS.get(problem.code),
            key=problem.code,
            judgment=problem.code not in SUGGESTIONS,
            severity=SEVERITIES.get(problem.code),
        )
