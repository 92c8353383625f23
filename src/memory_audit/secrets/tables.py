"""Credentials in Markdown tables: the cells of a column whose header names a credential.

People keep hosts, accounts and keys in tables::

    | host | user | password |
    |------|------|----------|
    | nas  | ops  | <value>  |

No word stands next to the value on its row: the column's header says what it is. A
table rule's ``regex`` matches a header cell (``password``, ``API key``, ``密码``, ...);
every cell under a matching header is a candidate, judged by the value classifier like
any generic rule's value (``-``, ``n/a``, ``***``, ``see vault``, paths and variable names
are not values). A cell that holds ``user / pass`` gives its last part, one that holds
``API: <value>`` what follows its label.

One pass over the lines of the text: a separator row (``|---|---|``) marks a table, the
line before it is its header, the lines after it that hold a ``|`` its rows. A table has
one separator: a separator row among the rows of a table already walked is one of its
rows (a new table starts only after it ends), so each line is walked at most once.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Generator, Iterator, Sequence
from typing import Any

from memory_audit.analysis.fast_regex import compile_fast

# A table's separator row: pipes, dashes, colons and spaces (with a pipe, checked after).
# RE2: linear whatever the line (runs of spaces between two optional parts would not be).
SEPARATOR = compile_fast(r"(?m)^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
# A header cell is a column's name, not a sentence.
HEADER_MAX = 40
# Characters around a value in its cell: emphasis, code and quotes.
WRAPPING = " \t*`'\"“”‘’"
# Feishu's and Lark's documents, wiki nodes and folders are named by tokens: a column of
# them holds ids (``| 层级 | 标题 | 节点Token |``), as the same label before a value does
ID_TOKEN_HEADER = re.compile(
    r"(?i)(?:\b|_)(?:node|obj|parent)[ _-]?tokens?\b"
    # a Feishu API field's own name (``obj_token``, ``wiki_token``): "Page Token" and "Wiki
    # Token" in words may head a column of Facebook's or Wiki.js's access tokens
    r"|\b(?:doc|docx|file|folder|wiki|sheet|space|block|table)[_-]tokens?\b"
    r"|(?:节点|文档|文件夹|文件|知识库|表格|页面) ?token"
)
# A Feishu Bitable's base is named by its "app_token", given with its table's id (``tbl...``)
# or the word: a column headed "App Token" in a table of bases holds their ids
BITABLE_NEAR = re.compile(r"\btbl[A-Za-z0-9]{10,}|(?i:bitable)|多维表格")
BITABLE_REACH = 200  # characters before and after: a few list items, a table's heading
APP_TOKEN_HEADER = re.compile(r"(?i)^\W*app[ _-]?tokens?\W*$")
# A base's id as Feishu draws it: 27 letters and digits, both cases and digits
BASE_ID = re.compile(r"(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])(?=\D*\d)[A-Za-z0-9]{27}")
# "admin / <value>" in a credentials column: the password is the last part. A login is a
# word (``ops``, ``Admin``, ``DBA``, an e-mail): a generated password's first part
# (``eF7/...``), mixing cases and digits, is none.
PAIR = re.compile(
    r"(?:[\w.+-]{1,40}@[\w.-]{1,40}|[a-z0-9._@+-]{1,40}|[A-Z][a-z0-9._@+-]{0,39}"
    r"|[A-Z0-9._@+-]{1,40})`?\s?/\s?`?(?=\S)"
)
# "API: <value>" in a credentials column: the cell names what its value is, then gives it.
# Only a credential's own words label it, so "expires: 2026-05-01" stays words.
LABEL = re.compile(r"(?i:api(?:[ _-]?key)?|key|token|secret|pw|pwd|pass(?:word)?)[ \t]*:[ \t]*")


def table_cells(text: str, header_regexes: Sequence[str]) -> Iterator[tuple[int, int, int]]:
    """``(start, end, n)`` of each value in a column the ``n``-th of ``header_regexes``
    names (the first that names it), in text order: one pass for all of them."""
    headers = [_header_pattern(regex) for regex in header_regexes]
    reach = 0  # where the last table walked ended
    for separator in SEPARATOR.finditer(text):
        if "|" not in separator.group(0) or separator.start() < reach:
            continue
        line_start = text.rfind("\n", 0, max(separator.start() - 1, 0)) + 1
        heading = text[line_start : max(separator.start() - 1, line_start)]
        columns: dict[int, int] = {}
        app_tokens: set[int] = set()  # columns headed "App Token"
        for column, (start, end) in enumerate(_cells(heading, 0, len(heading))):
            named = _named(headers, heading[start:end]) if end - start <= HEADER_MAX else None
            if named is not None:
                columns[column] = named
                if APP_TOKEN_HEADER.search(heading[start:end]):
                    app_tokens.add(column)
        # a table of Bitable bases holds their ids there; the text above is read only for a
        # table that has such a column (most have none)
        near = max(0, line_start - BITABLE_REACH), separator.start()
        bases = bool(app_tokens) and BITABLE_NEAR.search(text, *near) is not None
        base_ids = app_tokens if bases else set()
        # Every table is walked to its end, naming a column or not: a separator-like row
        # inside it is a row, not a second table's start, whichever rules are asked.
        reach = yield from _column_values(text, separator.end() + 1, columns, base_ids)


def _named(headers: list[Any], cell: str) -> int | None:
    """The number of the first header pattern that names this header cell; None for a
    column of documents' tokens, which are their ids (``节点Token``)."""
    found = next((n for n, header in enumerate(headers) if header.search(cell)), None)
    return None if found is None or ID_TOKEN_HEADER.search(cell) else found


@functools.lru_cache(maxsize=16)
def _header_pattern(regex: str) -> Any:
    return compile_fast(regex)


def _column_values(
    text: str, at: int, columns: dict[int, int], base_ids: set[int]
) -> Generator[tuple[int, int, int], None, int]:
    """The values in ``columns`` (column -> the header pattern naming it) of the rows from
    offset ``at`` on, up to the table's end; returns where the table ends. In ``base_ids``'
    columns, a value in a Bitable base id's shape is the base's id, no credential; another
    value there (a chat app's token in a table near the word) is read as any."""
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        if "|" not in text[at:end]:  # rows may be written without their outer pipes
            return at
        cells = _cells(text, at, end) if columns else []
        for column, named in columns.items():
            if column < len(cells):
                span = _value(text, *cells[column])
                if span is not None and not (
                    column in base_ids and BASE_ID.fullmatch(text, *span) is not None
                ):
                    yield (*span, named)
        at = end + 1
    return len(text)


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a table row's cells (the text between its pipes; ``\\|`` is no pipe)."""
    pipes = []
    at = text.find("|", start, end)
    while at != -1:
        if text[at - 1 : at] != "\\":
            pipes.append(at)
        at = text.find("|", at + 1, end)
    if not pipes:
        return []
    if text[start : pipes[0]].strip():  # a row written without its leading pipe
        pipes.insert(0, start - 1)
    if text[pipes[-1] + 1 : end].strip():  # or without its trailing one
        pipes.append(end)
    return [(a + 1, b) for a, b in itertools.pairwise(pipes)]


def _value(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The value in a cell: unwrapped, the last part of ``user / pass``, what follows
    ``API:``; None when the cell is empty or holds words."""
    while start < end and text[start] in WRAPPING:
        start += 1
    while end > start and text[end - 1] in WRAPPING:
        end -= 1
    pair = LABEL.match(text, start, end) or PAIR.match(text, start, end)
    if pair is not None:
        start = pair.end()
        while start < end and text[start] in WRAPPING:
            start += 1
    if start == end or any(c.isspace() for c in text[start:end]):
        return None  # empty, or words: "see vault", "in 1Password"
    return start, end
