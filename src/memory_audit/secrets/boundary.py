"""The redaction boundary: every piece of text leaving the engine passes through here.

A tree's secret spans are found once per file (the ``secrets`` rules; a PEM
private key is one span, header to footer). :class:`Boundary` then masks, in
any outgoing text, every run of characters that shares a fragment of
:data:`FRAGMENT` characters or more with one of those spans (a whole secret
shorter than that counts as one fragment). Matching fragments, not whole
secrets, is what catches a body line of a private key quoted as a path, or a
token cut in half by an ellipsis. The run is shown as ``<first 4>...<last 4>``;
those pieces, and the longer head the ``secrets`` check shows (``redact``),
are shorter than a fragment, so masking twice changes nothing.

Quotes of file text in a finding (its backtick code spans) are bounded to
:data:`QUOTE_LIMIT` characters with an ellipsis here too, so no check can
forget it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any, cast

from memory_audit.model.finding import Finding
from memory_audit.secrets.file_text import escapes_blanked, rules_text
from memory_audit.secrets.redact import PHRASE_WORDS, redact
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.secrets.sweep import scan_all
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.snapshot import MemoryTree

# Longer than the longest head ``redact`` shows (12), so a redacted secret is not masked again.
FRAGMENT = 13
# Any FRAGMENT-long window of a secret holds one whole aligned chunk of this length: a cheap
# substring test that rules out most texts before the window-by-window pass.
_CHUNK = FRAGMENT // 2
QUOTE_LIMIT = 80
ELLIPSIS = "…"


class Boundary:
    """Masks fragments of known secrets in text; identity when there are none."""

    def __init__(self, secrets: Iterable[str]) -> None:
        values = {s for s in secrets if s.strip()}
        self._values = frozenset(values)
        self._short = sorted((s for s in values if len(s) < FRAGMENT), key=len, reverse=True)
        self._grams = {s[i : i + FRAGMENT] for s in values for i in range(len(s) - FRAGMENT + 1)}
        self._chunks = {
            s[i : i + _CHUNK]
            for s in values
            if len(s) >= FRAGMENT
            for i in range(0, len(s) - _CHUNK + 1, _CHUNK)
        }

    @classmethod
    def for_text(cls, scanner: Scanner, text: str) -> Boundary:
        """The boundary of one text (a file shown in ``review``, a diff of it): its secrets
        as written, and as the rules read a file that is no Markdown (a token after a JSON
        string's ``\\n``), whichever file it comes from: masking more is never wrong."""
        found = secret_values(scanner, text)
        blanked = escapes_blanked(text)
        if blanked != text:
            found += [
                text[m.start : m.end] for m in scanner.scan(blanked) if not scanner.dismissed(m)
            ]
        return cls(found)

    @classmethod
    def for_names(cls, scanner: Scanner, names: Iterable[str]) -> Boundary:
        """The boundary of paths shown on their own (no tree read): one a line, and the
        tokens their slugs hide (:func:`slug_secrets`)."""
        names = list(names)
        found = secret_values(scanner, "\n".join(_name_texts(names)))
        return cls([*found, *slug_secrets(scanner, names)])

    def __bool__(self) -> bool:
        return bool(self._short or self._grams)

    def text(self, text: str) -> str:
        if not self or not text:
            return text
        spans = self._spans(text)
        for start, end in reversed(spans):
            text = text[:start] + mask(text[start:end]) + text[end:]
        return text

    def value(self, value: Any) -> Any:
        """A fix payload, a list or any JSON-like value with every string masked."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {key: self.value(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(self.value(item) for item in value)
        return value

    def finding(self, finding: Finding) -> Finding:
        return dataclasses.replace(
            finding,
            message=bound_quotes(self.text(finding.message)),
            suggestion=(
                bound_quotes(self.text(finding.suggestion))
                if finding.suggestion is not None
                else None
            ),
            path=self.text(finding.path),
            related=tuple(self.text(r) for r in finding.related),
            fix=self.value(finding.fix) if finding.fix is not None else None,
        )

    def path(self, path: str) -> str:
        """A path as shown: a secret in a file, folder or project name masked like text."""
        return self.text(path)

    def paths(self, paths: Iterable[str]) -> dict[str, str]:
        """Shown path -> the path itself, for the places that must act on a shown path
        (``review``); a shown path two paths share is left out (neither can be chosen)."""
        shown: dict[str, str | None] = {}
        for path in paths:
            masked = self.text(path)
            shown[masked] = None if shown.get(masked, path) != path else path
        return {masked: path for masked, path in shown.items() if path is not None}

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` holds secret text, in order: what :meth:`text` masks."""
        return self._spans(text) if self and text else []

    def __or__(self, other: Boundary) -> Boundary:
        return Boundary((*self._values, *other._values))

    def _spans(self, text: str) -> list[tuple[int, int]]:
        marks = [(i, i + len(s)) for s in self._short for i in _occurrences(text, s)]
        # A tree's many secrets make many chunks: a text shorter than their number is
        # cheaper to read window by window than to search for every chunk.
        if len(text) < len(self._chunks) or any(chunk in text for chunk in self._chunks):
            marks += [
                (i, i + FRAGMENT)
                for i in range(len(text) - FRAGMENT + 1)
                if text[i : i + FRAGMENT] in self._grams
            ]
        return _merged(marks)


def mask(run: str) -> str:
    """``<first 4>...<last 4>`` of a run of secret text; less of a short one, and of a
    phrase (a wallet's words: four letters name a word of its list)."""
    if len(run.split()) >= PHRASE_WORDS:
        return redact(run)
    if len(run) < 12:
        return f"{run[:2]}...{run[-1:]}"
    return f"{run[:4]}...{run[-4:]}"


def secret_values(scanner: Scanner, text: str) -> list[str]:
    """The text of every secret span in ``text`` that is not a recorded false positive."""
    return [text[m.start : m.end] for m in scanner.scan(text) if not scanner.dismissed(m)]


TreeSecrets = Mapping[str, tuple[tuple[SecretMatch, str], ...]]


def tree_secrets(tree: MemoryTree, scanner: Scanner) -> TreeSecrets:
    """Tree path -> its secret matches with their text, scanned once per snapshot.

    The ``secrets`` check and the engine's boundary both ask; the scan is kept
    in the snapshot's scratch space under the scanner's identity.
    """
    key = ("tree-secrets", id(scanner))
    if key not in tree.scratch:
        tree.scratch[key] = _scan_tree(tree, scanner)
    return cast(TreeSecrets, tree.scratch[key])


def tree_texts(tree: MemoryTree) -> list[tuple[str, str]]:
    """Tree path -> the text the secret rules read (a file's frontmatter and body, the
    index's lines, the text of a file that is no Markdown as :func:`rules_text` reads it),
    sorted by path; built once per snapshot (a file's text is joined from its parts at each
    ask). Every search for a secret's places reads these, so a value the rules found after
    a string's escape is found again there."""
    key = ("secret-texts",)
    if key not in tree.scratch:
        texts = [(m.path, m.joined) for m in tree.files.values()]
        if tree.index is not None:
            texts.append((INDEX_NAME, "\n".join(tree.index.lines)))
        texts.extend((path, rules_text(path, text)) for path, text in tree.other_texts.items())
        tree.scratch[key] = sorted(texts)
    return cast(list[tuple[str, str]], tree.scratch[key])


def _scan_tree(tree: MemoryTree, scanner: Scanner) -> TreeSecrets:
    texts = tree_texts(tree)
    # Many files at once, on two cores when it pays.
    found = scan_all(scanner, [text for _, text in texts])
    return {
        path: tuple((m, text[m.start : m.end]) for m in matches)
        for (path, text), matches in zip(texts, found, strict=True)
    }


def tree_boundary(
    tree: MemoryTree, scanner: Scanner, *, decode_frontmatter: bool = True
) -> Boundary:
    """Every secret of the tree: in its files' text, and in their frontmatter values as
    YAML decodes them (``"pass = \\"x\\""`` hides its secret from a scan of the raw text)."""
    found = [
        value
        for matches in tree_secrets(tree, scanner).values()
        for match, value in matches
        if not scanner.dismissed(match)
    ]
    # A text-only run (--check secrets) decodes no frontmatter, so none can reach its text.
    decoded = "\n".join(
        s for m in tree.files.values() if decode_frontmatter for s in _strings(m.frontmatter)
    )
    named = [value for matches in name_secrets(tree, scanner).values() for _, value in matches]
    places = _surroundings(tree)
    around = secret_values(scanner, "\n".join(_name_texts(places)))
    around += slug_secrets(scanner, places)
    return Boundary([*found, *secret_values(scanner, decoded), *named, *around])


def name_secrets(tree: MemoryTree, scanner: Scanner) -> TreeSecrets:
    """Tree path (a file or a folder) -> the secrets in its own name, scanned once per
    snapshot. A name is shown in every listing, report and log: it is text like any other."""
    key = ("name-secrets", id(scanner))
    if key not in tree.scratch:
        tree.scratch[key] = _scan_names(tree, scanner)
    return cast(TreeSecrets, tree.scratch[key])


def _scan_names(tree: MemoryTree, scanner: Scanner) -> TreeSecrets:
    # a hidden file read for secrets is named by a finding on it: its name, and its hidden
    # folders' (listed nowhere else), are text too
    paths = sorted(
        tree.present
        | set(tree.files)
        | set(tree.unread)
        | set(tree.skipped_files)
        | {folder for path in tree.other_texts for folder in _with_folders(path)}
    )
    # Without ".md": a rule that takes the rest of a word ("password is x1!.md") would take
    # the suffix too, and the secret without it (a title made of the name) would not match.
    # one name (or one piece of it) a line: a match's line says whose name it is
    names = [(path, _flat(path.rsplit("/", 1)[-1].removesuffix(".md"))) for path in paths]
    lines = names + [(path, piece) for path, name in names for piece in _cut(name)]
    text = "\n".join(line for _, line in lines)
    found: dict[str, list[tuple[SecretMatch, str]]] = {}
    for match in scanner.scan(text):
        value = text[match.start : match.end]
        path = lines[match.line - 1][0]
        if not scanner.dismissed(match) and value not in (v for _, v in found.get(path, ())):
            found.setdefault(path, []).append((match, value))
    return {path: tuple(matches) for path, matches in found.items()}


def _with_folders(path: str) -> list[str]:
    """``a/b/c.txt`` -> ``a``, ``a/b``, ``a/b/c.txt``."""
    parts = path.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _name_texts(paths: Iterable[str]) -> list[str]:
    """Paths one a line, then the pieces (:func:`pieces`) of their "_"-joined names, each
    once: a project's folders repeat in its paths, and their pieces are scanned once."""
    paths = [_flat(path) for path in paths]
    names = dict.fromkeys(name for path in paths for name in path.split("/"))
    return [*paths, *dict.fromkeys(piece for name in names for piece in _cut(name))]


def _cut(name: str) -> list[str]:
    """The pieces of a name that may hide a token joined by "_" (none for most names)."""
    return pieces(name)[1:] if "_" in name and TOKEN_RUN.search(name) else []


def pieces(name: str) -> list[str]:
    """A name, then its pieces between the "_" that join its words: a token family's rule
    wants a word boundary around the token, and "_" gives none (``key_ghp_<token>_old``
    shows the whole token, which the name as a whole hides from the rule). A piece spans
    at most :data:`PIECE_JOINS` of them (``github_pat_<id>_<secret>`` holds two), so a name
    of many words costs pieces in proportion to its words."""
    if "_" not in name:
        return [name]
    cuts = [i for i, c in enumerate(name) if c == "_"]
    starts, ends = [0] + [i + 1 for i in cuts], [*cuts, len(name)]
    found = [name]
    for first, start in enumerate(starts):
        for end in ends[first : first + PIECE_JOINS + 1]:
            if end - start >= MIN_PIECE and (start, end) != (0, len(name)):
                found.append(name[start:end])
    return found


def _surroundings(tree: MemoryTree) -> list[str]:
    """Paths the tree's outputs show that are not its own names: the tree's folder, the
    project folder sessions ran in (the transcripts' ``cwd``), and what the loader said
    about its files (a symlink's target outside the tree)."""
    location = tree.location
    places = [tree.root, location.project_path, location.transcripts_dir]
    texts = [str(place) for place in places if place is not None]
    texts += [error.error for error in tree.errors]
    texts += [problem.message for problems in tree.unread.values() for problem in problems]
    return texts


# Token families join their parts with "_" (ghp_, sk_live_, github_pat_<id>_<secret>).
SLUG_JOINS = (2, 3, 4)
# A name's piece (:func:`pieces`) holds at most this many of its "_", and is this long at
# least: no rule's secret is shorter than eight characters between word boundaries.
PIECE_JOINS = 3
MIN_PIECE = 8
# What a token family's secret holds (ghp_ and 36, AKIA and 16, a JWT's parts): a name without
# such a run is not cut (2,000 plain names cost the sweep 1.8% when every name was). A shorter
# token (npg_'s 12) is found where the whole name shows it, not glued by "_".
TOKEN_RUN = re.compile(r"[A-Za-z0-9]{16}")


def slug_secrets(scanner: Scanner, paths: Iterable[str]) -> list[str]:
    """Tokens a project's slug holds with their "_" turned into "-".

    Claude Code names a project's folder by its path with every character outside
    ``[A-Za-z0-9]`` replaced by "-": a project folder named ``ghp_<token>`` becomes
    ``…-ghp-<token>``, the whole token for anyone who knows the rule, which no rule
    matches. The pieces of each "-"-joined name are joined again with "_", two to four
    at a time, and scanned; each token found is masked in both spellings."""
    pieces = [name.split("-") for path in paths for name in path.split("/") if "-" in name]
    joined = [
        "_".join(parts[i : i + size])
        for parts in pieces
        for size in SLUG_JOINS
        for i in range(len(parts) - size + 1)
    ]
    found = secret_values(scanner, "\n".join(_flat(text) for text in joined))
    return [spelling for value in found for spelling in (value, value.replace("_", "-"))]


def _flat(name: str) -> str:
    """A name on one line (a file name may hold a line break), its offsets kept."""
    return name.replace("\n", " ").replace("\r", " ")


def _strings(value: object) -> Iterable[str]:
    """Every string (keys too) inside a decoded YAML value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def bound_quotes(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Every backtick code span in ``text`` cut to ``limit`` characters, with an ellipsis."""
    if "`" not in text:
        return text
    pieces = text.split("`")
    for i in range(1, len(pieces) - 1, 2):  # odd pieces lie between a pair of backticks
        pieces[i] = clip_path(pieces[i], limit) if _path_like(pieces[i]) else clip(pieces[i], limit)
    return "`".join(pieces)


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def clip_path(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A long path cut in the middle: its last parts name what it is, its first where."""
    if len(text) <= limit:
        return text
    head = limit // 4
    return text[:head] + ELLIPSIS + text[len(text) - (limit - head - 1) :]


def _path_like(text: str) -> bool:
    return ("/" in text or "\\" in text) and not any(c.isspace() for c in text)


def _occurrences(text: str, needle: str) -> Iterable[int]:
    at = text.find(needle)
    while at != -1:
        yield at
        at = text.find(needle, at + 1)


def _merged(marks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(marks):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
