"""A credential found once is found everywhere: every other place in the tree that holds
the exact text of a secret the rules found.

A password is often written twice: once where a rule can tell it is one (``password:
<value>``), and again where nothing says so (a command, a table, a list of hosts). The
second place leaks it as much as the first. Once the scan has found secrets in a tree,
their values (of :data:`MIN_LENGTH` characters or more, recorded false positives left out)
are searched for as literals in every text of the tree (see :class:`_Search`: linear in
the text whatever the number of values), only when something was found.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from memory_audit.secrets.boundary import tree_secrets, tree_texts
from memory_audit.secrets.document_ids import in_a_document_link
from memory_audit.secrets.rules import DFA_MEMORY
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.secrets.sweep import map_all
from memory_audit.tree.snapshot import MemoryTree

try:
    import re2 as _re2
except ImportError:  # pragma: no cover - google-re2 is a dependency; a broken wheel: anchors
    _re2 = None

RULE = "repeated-credential"
NAME_JOINS = "_-."  # a character that joins the text before it into one name
# Shorter values are too likely to be ordinary text elsewhere ("admin1").
MIN_LENGTH = 6
# Text below which the search does not share the work with a forked process.
PARALLEL_BYTES = 16_000_000
# Up to this many values, one str.find pass each (in C, faster than an automaton for a
# few); up to the next, one RE2 alternation of them; beyond, a search by anchors.
FIND_LIMIT = 4
ALTERNATION_LIMIT = 1000
# Joins the texts searched in one pass: a character no value holds (else one pass a text).
JOIN = "\0"
# The text searched in one pass, about: few calls into RE2, and memory that stays in cache.
BATCH_BYTES = 65_536
# A line's word for a password or a login: a handle's text there is the password.
CREDENTIAL_WORD = re.compile(
    r"(?i:pass(?:word|wd|phrase)?s?\b|\bpwd\b|\bsecrets?\b|\bcredentials?\b|\blogin\b"
    r"|\bsudo\b|\bauth\b|\btokens?\b|\bkeys?\b|(?<![\w-])-p(?![\w-]))"
    r"|密码|密碼|口令|账号|帳號|パスワード|비밀번호|пароль"
)
# A value's place as a pair's or a setting's second part: after "/", ":" or "=".
PAIRED_BEFORE = re.compile(r"[/:=：][ \t]?$")
# A value starts a text or follows a character that is not part of a word.
BOUNDARY = re.compile(r"[^\w]")


@dataclass(frozen=True)
class Repeat:
    """Another place holding a secret's value, and where the rules first found it."""

    match: SecretMatch  # rule RULE; the first match's label, redaction and fingerprint
    first_path: str
    first_line: int


def repeated_secrets(tree: MemoryTree, scanner: Scanner) -> Mapping[str, tuple[Repeat, ...]]:
    """Tree path -> the places in its text that repeat a secret found elsewhere (or
    elsewhere in the same text) and that no rule matched, scanned once per snapshot."""
    key = ("repeated-secrets", id(scanner))
    if key not in tree.scratch:
        tree.scratch[key] = _repeats(tree, scanner)
    return cast(Mapping[str, tuple[Repeat, ...]], tree.scratch[key])


def _repeats(tree: MemoryTree, scanner: Scanner) -> dict[str, tuple[Repeat, ...]]:
    found = tree_secrets(tree, scanner)
    first: dict[str, tuple[str, SecretMatch]] = {}
    for path in sorted(found):
        for match, text in found[path]:
            value = text.strip()
            if len(value) < MIN_LENGTH or scanner.dismissed(match):
                continue
            first.setdefault(value, (path, match))
    for value in _self_evident(scanner, list(first)) | _names(tree, list(first)):
        del first[value]
    if not first:
        return {}
    search = _Search(first)
    texts = tree_texts(tree)
    rows = _search_all(search, [text for _, text in texts])
    handles = {
        value
        for (_, text), found_here in zip(texts, rows, strict=True)
        for start, end, value in found_here
        if a_mention(text, start, end)
    }
    repeats: dict[str, tuple[Repeat, ...]] = {}
    for (path, text), row in zip(texts, rows, strict=True):
        found_here = _not_names(text, row, handles) if handles else row
        if not found_here:  # most texts
            continue
        taken = sorted((m.start, m.end) for m, _ in found.get(path, ()))
        places = _places(found_here, text, taken, first)
        if places:
            repeats[path] = tuple(places)
    return repeats


def _search_all(search: _Search, texts: list[str]) -> list[list[tuple[int, int, str]]]:
    """``[search.hits(text) for text in texts]``. Many texts at once, on two cores when it
    pays (a value goes by its number, no secret crosses the pipe): for far more text than
    the scan, the search being some five times cheaper a byte and a fork costing some 8 ms.
    Below that, one pass over all the texts joined."""
    if sum(len(text) for text in texts) >= PARALLEL_BYTES:
        return map_all(search.hits, texts, search.rows, search.from_rows, PARALLEL_BYTES)
    return search.hits_each(texts)


def _names(tree: MemoryTree, values: list[str]) -> set[str]:
    """Values a file or folder of the tree is named by (``lab_server.md`` for ``lab``): a
    word the tree names things with is a name wherever else it stands, not a secret to
    look for (a lab's name used as an SNMP community, then as a user, host and file)."""
    paths = "\n".join(sorted({*tree.files, *tree.present}))
    return {value for _, _, value in _Search(values).hits(paths)} if values and paths else set()


def _self_evident(scanner: Scanner, values: list[str]) -> set[str]:
    """The values the rules find on their own (a token whose prefix names it, ``ghp_...``):
    the rules find them wherever they are written, so they need no search. One scan of
    them all, one a line (a value that holds a line break is searched for)."""
    lines = [value for value in values if "\n" not in value]
    whole: dict[tuple[int, int], str] = {}
    at = 0
    for line in lines:
        whole[(at, at + len(line))] = line
        at += len(line) + 1
    text = "\n".join(lines)
    return {whole[(m.start, m.end)] for m in scanner.scan(text) if (m.start, m.end) in whole}


class _Search:
    """Every place a text holds one of the values, as ``(start, end, value)``.

    Up to :data:`FIND_LIMIT` values (the usual case): a ``str.find`` pass for each. Up to
    :data:`ALTERNATION_LIMIT`: one RE2 alternation of them, matched on the text's UTF-8
    bytes, a single linear pass. More (a file of
    thousands of passwords, where RE2's automaton would thrash): one pass over the places
    a value may start (the text's start and every character after one that is not a
    letter, a digit or ``_``), each looked up by its first :data:`MIN_LENGTH` characters,
    then walked down a tree of the rest of the values that start so (:class:`_Node`): a
    place costs the branchings and shorter values on its way, never one step for each
    value or length that starts so. Linear in the text, but for values that are each the
    start of the next and a text repeating them (each such value on a place's way is a
    step: an automaton with failure links would remove that)."""

    def __init__(self, values: Iterable[str]) -> None:
        ordered = sorted(values, key=len, reverse=True)  # of two at one place, the longer
        self.values = ordered
        self._numbers = {value: number for number, value in enumerate(ordered)}
        many = FIND_LIMIT < len(ordered) <= ALTERNATION_LIMIT
        self._literal = _alternation(ordered) if many else None
        self._anchors: dict[str, _Node] = {}
        if self._literal is None and len(ordered) > FIND_LIMIT:
            for value in ordered:
                self._anchors.setdefault(value[:MIN_LENGTH], _Node()).add(value[MIN_LENGTH:])

    def rows(self, hits: list[tuple[int, int, str]]) -> list[list[str | int]]:
        """Hits as rows of numbers: start, end, the value's number in ``values``."""
        return [[start, end, self._numbers[value]] for start, end, value in hits]

    def from_rows(self, rows: list[list[str | int]]) -> list[tuple[int, int, str]]:
        return [(int(s), int(e), self.values[int(n)]) for s, e, n in rows]

    def hits(self, text: str) -> list[tuple[int, int, str]]:
        if len(self.values) <= FIND_LIMIT:
            return [hit for value in self.values for hit in _finds(text, value)]
        if self._literal is not None:
            return self._literal_hits(text)
        hits = []
        for start in itertools.chain((0,), (m.end() for m in BOUNDARY.finditer(text))):
            node = self._anchors.get(text[start : start + MIN_LENGTH])
            end = node.longest(text, start + MIN_LENGTH) if node is not None else -1
            if end != -1:
                hits.append((start, end, text[start:end]))
        return hits

    def hits_each(self, texts: list[str]) -> list[list[tuple[int, int, str]]]:
        """``[self.hits(text) for text in texts]``; for an alternation, one pass a batch of
        texts joined by a character no value holds, so no match spans two of them: a call
        into RE2 a batch, not a text (the calls' overhead was a fifth of the search), and
        batches of :data:`BATCH_BYTES`, whose memory is used again (all the texts joined at
        once, 8 MB to fault in, cost more than the calls saved)."""
        if self._literal is None or any(JOIN in value for value in self.values):
            return [self.hits(text) for text in texts]
        found: list[list[tuple[int, int, str]]] = []
        batch: list[tuple[str, bytes]] = []
        size = 0
        for text in texts:
            data = text.encode("utf-8", "surrogatepass")
            batch.append((text, data))
            size += len(data) + 1
            if size >= BATCH_BYTES:
                found += self._batch_hits(batch)
                batch, size = [], 0
        return found + self._batch_hits(batch)

    def _batch_hits(self, batch: list[tuple[str, bytes]]) -> list[list[tuple[int, int, str]]]:
        assert self._literal is not None
        starts = list(itertools.accumulate((len(data) + 1 for _, data in batch), initial=0))
        spans: list[list[tuple[int, int]]] = [[] for _ in batch]
        for match in self._literal.finditer(JOIN.encode().join(data for _, data in batch)):
            start, end = match.span()
            number = bisect.bisect_right(starts, start) - 1
            spans[number].append((start - starts[number], end - starts[number]))
        return [
            _decoded(text, data, found) if found else []
            for (text, data), found in zip(batch, spans, strict=True)
        ]

    def _literal_hits(self, text: str) -> list[tuple[int, int, str]]:
        assert self._literal is not None
        data = text.encode("utf-8", "surrogatepass")
        return _decoded(text, data, [match.span() for match in self._literal.finditer(data)])


def _decoded(text: str, data: bytes, spans: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """The hits at these byte spans of ``data`` (``text`` in UTF-8), in characters."""
    hits = []
    chars, done = 0, 0  # a byte offset's character offset, counted on from the last
    for start, end in spans:
        value = data[start:end].decode("utf-8", "surrogatepass")
        at = start
        if len(data) != len(text):  # not ASCII: bytes before it, decoded once
            chars += len(data[done:start].decode("utf-8", "surrogatepass"))
            done, at = start, chars
        hits.append((at, at + len(value), value))
    return hits


class _Node:
    """A radix tree of the values' texts after their anchor: each edge a run of characters
    (keyed by its first), a node marked where a value ends. Leaves hold a value's whole
    tail, so the tree has some two nodes a value, whatever their lengths."""

    __slots__ = ("edges", "ends")

    def __init__(self) -> None:
        self.edges: dict[str, tuple[str, _Node]] = {}
        self.ends = False

    def add(self, tail: str) -> None:
        node = self
        while tail:
            edge = node.edges.get(tail[0])
            if edge is None:
                leaf = _Node()
                leaf.ends = True
                node.edges[tail[0]] = (tail, leaf)
                return
            label, child = edge
            shared = _shared_length(label, tail)
            if shared < len(label):  # split the edge where the new tail leaves it
                middle = _Node()
                middle.edges[label[shared]] = (label[shared:], child)
                node.edges[tail[0]] = (label[:shared], middle)
                child = middle
            node, tail = child, tail[shared:]
        node.ends = True

    def longest(self, text: str, at: int) -> int:
        """The end of the longest value's tail that starts ``text`` at ``at``; -1 if none."""
        node, end = self, at if self.ends else -1
        while at < len(text):
            edge = node.edges.get(text[at])
            if edge is None or not text.startswith(edge[0], at):
                break
            at += len(edge[0])
            node = edge[1]
            if node.ends:
                end = at
        return end


def _shared_length(a: str, b: str) -> int:
    """How many first characters ``a`` and ``b`` share."""
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return shared


def _finds(text: str, value: str) -> Iterator[tuple[int, int, str]]:
    at = text.find(value)
    while at != -1:
        yield at, at + len(value), value
        at = text.find(value, at + 1)


def _alternation(values: list[str]) -> Any:
    """The RE2 pattern matching any of ``values`` as a literal; None when RE2 refuses it."""
    if _re2 is None:
        return None
    options = _re2.Options()
    options.max_mem = DFA_MEMORY
    try:
        return _re2.compile("|".join(re.escape(v) for v in values).encode(), options)
    except _re2.error:
        return None


def _places(
    hits: list[tuple[int, int, str]],
    text: str,
    taken: list[tuple[int, int]],
    first: dict[str, tuple[str, SecretMatch]],
) -> list[Repeat]:
    starts = [start for start, _ in taken]
    places: list[Repeat] = []
    line, counted, reach = 1, 0, 0
    # leftmost first, then longest
    for start, end, value in sorted(hits, key=lambda hit: (hit[0], -hit[1])):
        if start < reach or _inside_a_word(text, start, end):
            continue
        if _overlaps(taken, starts, start, end):
            continue
        reach = end
        line += text.count("\n", counted, start)
        counted = start
        first_path, match = first[value]
        repeat = dataclasses.replace(match, rule=RULE, line=line, start=start, end=end)
        places.append(Repeat(repeat, first_path, match.line))
    return places


def _overlaps(taken: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    """Whether ``start..end`` overlaps one of ``taken`` (sorted, disjoint), by bisection."""
    before = bisect.bisect_left(starts, end) - 1  # the last one starting before it ends
    return before >= 0 and taken[before][1] > start


def a_mention(text: str, start: int, end: int) -> bool:
    """Whether the value at ``start``..``end`` is written as a person's handle, the whole
    of ``@<value>`` (not an address's host, ``user@<value>``, nor a longer handle,
    ``@<value>_bot``; after a letter of a script without spaces, ``联系人@<value>``, a
    handle still): a password that is also its owner's user name (``@<value>`` in a chat's
    log, ``boss(<value>)`` in a table of users) is a name wherever else its line names no
    password or login and no pair holds it (:func:`_not_names`): redacting it there would
    erase the name."""
    if text[start - 1 : start] != "@" or _inside_a_word(text, start, end):
        return False
    before = text[start - 2 : start - 1]
    return not (before.isascii() and (before.isalnum() or before in "._%+-"))


def _not_names(
    text: str, hits: list[tuple[int, int, str]], handles: set[str] | frozenset[str]
) -> list[tuple[int, int, str]]:
    """The hits that are no name: never a handle's mention (``@<value>``), and a handle's
    value elsewhere only on a line naming a password or a login, or as a pair's or a
    setting's second part (``ftp ops / <value>``, ``pass=<value>``)."""
    return [
        (start, end, value)
        for start, end, value in hits
        if value not in handles
        or (
            not a_mention(text, start, end)
            and (
                _credential_line(text, start)
                or PAIRED_BEFORE.search(text, max(0, start - 3), start)
            )
        )
    ]


def _credential_line(text: str, at: int) -> bool:
    """Whether the line holding ``at`` names a password or a login (``PostgreSQL 密码
    <value>``, ``PGPASSWORD=<value>``): there a handle's text is the password."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line_end = line_end if line_end >= 0 else len(text)
    return CREDENTIAL_WORD.search(text, line_start, line_end) is not None


def _inside_a_word(text: str, start: int, end: int) -> bool:
    """Part of a longer run of letters and digits ("harbor7" inside "harbor7x"), or of a
    name: a file name, a host or an identifier (``lab_server.md``, ``lab.local``,
    ``lab-vpn``): where a password's text is part of a name, it is the name."""
    before = text[start - 1 : start] if start else " "
    after = text[end : end + 2] or " "  # the text's edges join nothing
    if before.isalnum() or before in NAME_JOINS or after[0].isalnum() or after[0] in "_-":
        return True
    return after[0] == "." and after[1:2].isalnum()


def standalone_places(text: str, value: str) -> list[tuple[int, int]]:
    """Where ``text`` repeats ``value`` as the search reports a repeat: the value long
    enough to be searched for, standing alone (not part of a word, host or file name).
    What a redaction may replace beyond the spans the rules matched."""
    if len(value) < MIN_LENGTH:
        return []
    return [(s, e) for s, e, _ in _finds(text, value) if not _inside_a_word(text, s, e)]


def searched_matches(
    found: Iterable[tuple[SecretMatch, str]], scanner: Scanner
) -> dict[str, SecretMatch]:
    """The values of one text's matches that the search looks for (long enough, and not
    a recorded false positive: the tree-wide filters are :class:`RepeatSearch`'s), each
    with the first match that found it (a repeat is reported as that match)."""
    first: dict[str, SecretMatch] = {}
    for match, text in found:
        value = text.strip()
        if len(value) >= MIN_LENGTH and not scanner.dismissed(match):
            first.setdefault(value, match)
    return first


def repeat_matches(
    text: str,
    matches: Iterable[SecretMatch],
    search: RepeatSearch,
    first: Mapping[str, SecretMatch],
) -> list[SecretMatch]:
    """The places ``text`` (whose rule matches are ``matches``) repeats a value of
    ``search``, as the audit reports them: each as the match that first found its value
    (``first``), with rule :data:`RULE`, at its own line and span."""
    taken = sorted((match.start, match.end) for match in matches)
    places = search.places(text, taken)
    # as the audit reports them, by what this text shows: a value it writes as a handle
    # repeats only on lines naming a password or a login; one it links as a document's id
    # is no secret here
    handles = {value for start, end, value in places if a_mention(text, start, end)}
    linked = {value for start, _, value in places if in_a_document_link(text, start)}
    repeats = []
    line, counted = 1, 0
    for start, end, value in _not_names(text, places, handles):
        if value not in first or value in linked:
            continue
        line += text.count("\n", counted, start)
        counted = start
        repeats.append(
            dataclasses.replace(first[value], rule=RULE, line=line, start=start, end=end)
        )
    return repeats


class RepeatSearch:
    """The search outside a snapshot (the journal masks every place the audit reports):
    ``values`` from :func:`searched_matches` of every text of a tree, less those the rules
    find on their own and those the tree names its files and folders with (``names``)."""

    def __init__(self, values: Iterable[str], scanner: Scanner, names: Iterable[str]) -> None:
        wanted = set(values)
        wanted -= _self_evident(scanner, sorted(wanted))
        paths = "\n".join(sorted(names))
        if wanted and paths:
            wanted -= {value for _, _, value in _Search(wanted).hits(paths)}
        self.values = frozenset(wanted)
        self._search = _Search(wanted) if wanted else None

    def __bool__(self) -> bool:
        return self._search is not None

    def places(self, text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
        """Where ``text`` repeats a value as the audit reports a repeat: standing alone,
        overlapping none of ``taken`` (the rules' own spans, sorted and disjoint)."""
        if self._search is None:
            return []
        starts = [start for start, _ in taken]
        places: list[tuple[int, int, str]] = []
        reach = 0
        for start, end, value in sorted(self._search.hits(text), key=lambda h: (h[0], -h[1])):
            if start < reach or _inside_a_word(text, start, end):
                continue
            if _overlaps(taken, starts, start, end):
                continue
            reach = end
            places.append((start, end, value))
        return places
