"""A memory file's bytes as text: masked in the encoding they were written in, shown decoded.

The walker reads a file that starts with a UTF-16 byte-order mark as UTF-16 and
anything else as UTF-8 (:func:`memory_audit.tree.walk.read_text`); the journal
reads bytes the same way. :func:`mask` scans each way the bytes can be read as
text (their own encoding; as plain bytes too; and for bytes with NULs and no
byte-order mark, both UTF-16 byte orders at both alignments, since a secret spelt
any of these ways is just as recoverable from a stored blob), masks every secret
span in that reading and encodes it back with a lossless error handler, so every
byte outside a secret is kept and a restore writes the file back in its own
encoding. Given a tree's :class:`RepeatSearch`, it also masks every place the text
repeats a secret value the rules found elsewhere in the tree (``repeated-credential``:
the audit reports those places, so the journal must not keep them). :func:`decoded`
is the text a person reads (``history --diff``, the restore preview).
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_audit.secrets.file_text import rules_text
from memory_audit.secrets.redact import redact
from memory_audit.secrets.repeats import RepeatSearch, searched_matches
from memory_audit.secrets.scanner import Scanner, SecretMatch

UTF16_MARKS = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
UTF8_MARK = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Reading:
    """One way to read bytes as text: from ``start`` on, in ``codec``, losslessly."""

    codec: str
    start: int = 0

    @property
    def errors(self) -> str:
        # Both handlers decode any byte string and encode the result back to the same bytes.
        return "surrogateescape" if self.codec == "utf-8" else "surrogatepass"

    def end(self, size: int) -> int:
        """Where the text ends: a UTF-16 reading takes whole code units only."""
        return size if self.codec == "utf-8" else size - (size - self.start) % 2


@dataclass(frozen=True)
class Masked:
    data: bytes
    secrets: int  # how many secret spans were masked


def readings(data: bytes) -> list[Reading]:
    """Every way the bytes can hold readable text: their own encoding first, then plain
    bytes (ASCII hidden in a UTF-16 file), then, for bytes with NULs and no mark, UTF-16."""
    for mark, codec in UTF16_MARKS:
        if data.startswith(mark):
            return [Reading(codec, len(mark)), Reading("utf-8")]
    found = [Reading("utf-8")]
    if b"\x00" in data:  # no text reader's business, but no place for a plain secret either
        found += [Reading(codec, start) for _, codec in UTF16_MARKS for start in (0, 1)]
    return found


def mask(data: bytes, scanner: Scanner | None, repeats: RepeatSearch | None = None) -> Masked:
    """``data`` with every secret span replaced by its redacted form, bytes kept elsewhere:
    the rules' matches (none without a ``scanner``), and the places ``repeats`` finds (a
    value found in another file)."""
    count = 0
    for reading in readings(data):
        data, found = _mask_reading(data, reading, scanner, repeats)
        count += found
    return Masked(data, count)


def mask_repeats(data: bytes, repeats: RepeatSearch) -> Masked:
    """Kept content (the rules' secrets masked when it was recorded) masked where it repeats
    one of the tree's values: a value the tree said was a secret only later."""
    return mask(data, None, repeats)


def masked_bytes(data: bytes, scanner: Scanner, repeats: RepeatSearch | None = None) -> bytes:
    return mask(data, scanner, repeats).data


def secret_matches(data: bytes, scanner: Scanner, rel: str = "") -> dict[str, SecretMatch]:
    """The values a repeat search looks for that the rules find in ``data``, read every
    way :func:`mask` reads it (a value in a UTF-16 file is searched for everywhere too),
    each with the first match that found it; ``rel``: the file's tree path, whose kind says
    how the rules read its text (:func:`rules_text`)."""
    found: dict[str, SecretMatch] = {}
    for reading in readings(data):
        text = rules_text(rel, _text(data, reading)) if rel else _text(data, reading)
        found = text_secret_matches(text, scanner) | found  # the earlier reading's first
    return found


def text_secret_matches(text: str, scanner: Scanner) -> dict[str, SecretMatch]:
    """The values a repeat search looks for that the rules find in ``text`` (as the rules
    read it), each with the first match that found it."""
    return searched_matches(((m, text[m.start : m.end]) for m in scanner.scan(text)), scanner)


def utf8_text(data: bytes) -> str | None:
    """The text of ``data`` when UTF-8 (or ASCII) is its one reading (no byte-order mark, no
    NUL that a UTF-16 reading could hold), as :func:`secret_matches` reads it; else None."""
    [*others, reading] = readings(data)
    return None if others or reading.codec != "utf-8" else _text(data, reading)


def _text(data: bytes, reading: Reading) -> str:
    return data[reading.start : reading.end(len(data))].decode(reading.codec, reading.errors)


def _mask_reading(
    data: bytes, reading: Reading, scanner: Scanner | None, repeats: RepeatSearch | None
) -> tuple[bytes, int]:
    end = reading.end(len(data))  # of the data as earlier readings left it
    text = _text(data, reading)
    spans = _rule_spans(text, scanner) if scanner is not None else []
    if repeats:
        spans = sorted(spans + [(s, e) for s, e, _ in repeats.places(text, spans)])
    if not spans:
        return data, 0
    pieces, last = [], 0
    for start, stop in spans:
        pieces += [text[last:start], redact(text[start:stop].strip())]
        last = stop
    pieces.append(text[last:])
    body = "".join(pieces).encode(reading.codec, reading.errors)
    return data[: reading.start] + body + data[end:], len(spans)


def _rule_spans(text: str, scanner: Scanner) -> list[tuple[int, int]]:
    """The rules' matches, leftmost first, none overlapping one taken before it."""
    spans: list[tuple[int, int]] = []
    for match in scanner.scan(text):
        if match.start >= (spans[-1][1] if spans else 0):
            spans.append((match.start, match.end))
    return spans


def masked_repeats(text: str, repeats: RepeatSearch | None) -> str:
    """``text`` (a label, already masked by the rules) with every place it repeats one of
    the tree's values masked too."""
    places = repeats.places(text, []) if repeats else []
    for start, end, value in reversed(places):
        text = text[:start] + redact(value) + text[end:]
    return text


def decoded(data: bytes) -> str:
    """The text a person reads: decoded as the walker decodes it, byte-order mark left out."""
    for mark, codec in UTF16_MARKS:
        if data.startswith(mark):
            return data[len(mark) :].decode(codec, "replace")
    return data.removeprefix(UTF8_MARK).decode("utf-8", "replace")
