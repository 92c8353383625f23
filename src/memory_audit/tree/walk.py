"""Listing a memory tree and reading its files without trusting them.

Rules that hold here so nothing above has to think about them:

- nothing is ever written, created or renamed;
- a symlink whose target lies outside the tree is checked for existence
  only and never opened;
- symlinked folders inside the tree are followed once (loops end);
- a file is opened with ``O_NOFOLLOW`` on its resolved path, checked to be a
  regular file, and read only up to the size limit;
- I/O failures become error entries, odd content becomes a problem.
"""

from __future__ import annotations

import codecs
import errno
import io
import itertools
import os
import re
import stat
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.tree.agent_stores import stores_in
from memory_audit.tree.dangling import dangling_link
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.memory_file import FileKind, FileProblem

IGNORED_TOP_LEVEL = frozenset({"logs", "agents"})
# Hidden files and folders are no memories, but their text is read for secrets (a memory
# system's own store, ``.dreams/``, keeps what sessions said verbatim); a repository's
# database is not.
UNREAD_HIDDEN = frozenset({".git"})
# A package manager's folders, at any depth: other people's code and documents (a skill's
# plugin installs its node_modules beside a workspace's notes), never memories.
PACKAGE_FOLDERS = frozenset({"node_modules", "bower_components", "site-packages", "__pycache__"})
BINARY_SNIFF = 8192
# Control bytes no text holds (tab, line feed, form feed, carriage return, escape aside).
CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
PRINTABLE = bytes(range(32, 127)) + b"\t\n\r"
TEXT_SHARE = 10  # a text's bytes beyond printable ASCII: one in ten at most
STRAY_SHARE = 100  # a UTF-8 text's stray control bytes: one in a hundred at most
GIT_CRYPT_HEADER = b"\x00GITCRYPT\x00"
ENCRYPTED = "encrypted-file"


@dataclass(frozen=True)
class Candidate:
    path: str  # POSIX, relative to the tree root, as the user sees it
    source: Path  # what to open: the file itself or its resolved symlink target
    kind: FileKind


@dataclass(frozen=True)
class ReadError:
    path: str
    error: str


@dataclass
class Listing:
    candidates: list[Candidate] = field(default_factory=list)
    index: Candidate | None = None
    present: set[str] = field(default_factory=set)  # every path seen, .md or not
    problems: list[tuple[str, FileProblem]] = field(default_factory=list)
    errors: list[ReadError] = field(default_factory=list)
    # Agents' stores inside a folder of agents' stores: trees of their own, audited apart.
    apart: list[str] = field(default_factory=list)
    # Files that are no Markdown (a raw chat log, a saved config) or hidden (``.dreams/``): no
    # memories, but read for secrets alone, as a credential pasted into one sits beside the
    # memories all the same.
    others: list[Candidate] = field(default_factory=list)


@dataclass(frozen=True)
class ReadResult:
    text: str | None
    size: int
    mtime: float
    line_bytes: tuple[int, ...] = ()
    problems: tuple[FileProblem, ...] = ()
    error: str | None = None
    crlf_text: str = ""  # the text with its CRLF line ends, when it had any

    @property
    def disk_text(self) -> str:
        """The text as on disk (CRLF kept): what Claude Code measures MEMORY.md by."""
        return self.crlf_text or self.text or ""


def list_tree(root: Path, *, documents: bool = False) -> Listing:
    """Every file of the tree. Folders wait on a list, not on the call stack: 500 nested
    folders are a tree like any other, not a RecursionError. ``documents``: the folder's
    own files alone (a workspace's root, whose folders are trees or no memory)."""
    listing = Listing()
    real_root = Path(os.path.realpath(root))
    visited = {real_root}
    pending = [(real_root, "")]
    while pending:
        directory, prefix = pending.pop()
        for entry in _entries(directory, prefix, listing):
            rel = prefix + entry.name
            if entry.name.startswith("."):
                if not documents:
                    _add_hidden(entry, rel, listing)
                continue
            folder = _visit(entry, rel, real_root, visited, listing)
            if folder is not None and not documents:
                pending.append((folder, rel + "/"))
    # an index kept beside agents' stores is a person's; their files are not its
    _hold_stores_apart(stores_in(root), listing)
    listing.candidates.sort(key=lambda c: c.path)
    if documents:  # a workspace root's own files beside its notes are the project's
        listing.others = []
    listing.others.sort(key=lambda c: c.path)
    return listing


def _hold_stores_apart(apart: list[str], listing: Listing) -> None:
    """Leave the stores' files out (each is audited as its own tree, so its findings would
    be reported twice, once under other codes); they stay present, so links into them
    resolve."""
    if not apart:
        return
    inside = tuple(rel + "/" for rel in apart)
    listing.apart = apart
    listing.candidates = [c for c in listing.candidates if not c.path.startswith(inside)]
    listing.others = [c for c in listing.others if not c.path.startswith(inside)]
    listing.problems = [(p, q) for p, q in listing.problems if not p.startswith(inside)]
    listing.errors = [e for e in listing.errors if not e.path.startswith(inside)]


def _entries(directory: Path, prefix: str, out: Listing) -> list[os.DirEntry[str]]:
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError as exc:
        out.errors.append(ReadError(prefix.rstrip("/") or ".", describe_os_error(exc)))
        return []
    return [
        e
        for e in entries
        if not (
            e.name in UNREAD_HIDDEN
            or (not prefix and e.name in IGNORED_TOP_LEVEL)
            or (e.name in PACKAGE_FOLDERS and e.is_dir())
        )
    ]


def read_as_other(rel: str) -> bool:
    """A tree path whose text only the secret rules read: no Markdown, or hidden."""
    return not rel.endswith(".md") or any(part.startswith(".") for part in rel.split("/"))


def _add_hidden(entry: os.DirEntry[str], rel: str, out: Listing) -> None:
    """A hidden file, or every file under a hidden folder, for the secret rules alone: no
    memory, no name a link resolves to, and no symlink followed (a hidden folder is no
    place a memory lives). A folder that cannot be listed is left out without a word."""
    pending = [(entry, rel)]
    while pending:
        item, path = pending.pop()
        try:
            if item.is_symlink():
                continue
            if item.is_dir(follow_symlinks=False):
                with os.scandir(item.path) as inside:
                    pending += [
                        (e, f"{path}/{e.name}")
                        for e in inside
                        if e.name not in UNREAD_HIDDEN and e.name not in PACKAGE_FOLDERS
                    ]
            elif item.is_file(follow_symlinks=False):
                out.others.append(Candidate(path, Path(item.path), kind_of(path)))
        except OSError:
            continue


def _visit(
    entry: os.DirEntry[str], rel: str, real_root: Path, visited: set[Path], out: Listing
) -> Path | None:
    """Records a file; returns a folder still to walk."""
    out.present.add(rel)
    is_md = entry.name.endswith(".md")
    if entry.is_symlink():
        return _visit_symlink(entry, rel, is_md, real_root, visited, out)
    if entry.is_dir(follow_symlinks=False):
        return Path(entry.path)
    if is_md:
        _add_file(Path(entry.path), rel, out)
    else:
        out.others.append(Candidate(rel, Path(entry.path), kind_of(rel)))
    return None


def _visit_symlink(
    entry: os.DirEntry[str],
    rel: str,
    is_md: bool,
    real_root: Path,
    visited: set[Path],
    out: Listing,
) -> Path | None:
    try:
        target = Path(os.path.realpath(entry.path, strict=True))
    except OSError as exc:
        if exc.errno == errno.ELOOP or isinstance(exc, RuntimeError):
            out.errors.append(ReadError(rel, "symlink loop; not followed"))
        elif is_md:
            out.problems.append((rel, dangling_link(entry.path, real_root)))
        return None
    if not target.is_relative_to(real_root):
        # Existence only: strict realpath succeeded, so the target exists. Never read it.
        if is_md or target.is_dir():
            message = f"symlink to {target} outside the tree (it exists); not read"
            out.problems.append((rel, FileProblem("symlink-outside-tree", message)))
        return None
    if target.is_dir():
        if target not in visited:
            visited.add(target)
            return target
    elif is_md:
        _add_file(target, rel, out)
    else:
        out.others.append(Candidate(rel, target, kind_of(rel)))
    return None


def _add_file(source: Path, rel: str, out: Listing) -> None:
    if rel == INDEX_NAME:
        out.index = Candidate(rel, source, FileKind.MEMORY)
    else:
        out.candidates.append(Candidate(rel, source, kind_of(rel)))


def kind_of(rel: str) -> FileKind:
    top = rel.split("/", 1)[0]
    if top == "sessions" and "/" in rel:
        return FileKind.RECAP
    if top == "team" and "/" in rel:
        return FileKind.TEAM
    return FileKind.MEMORY


def read_text(source: Path, max_bytes: int, *, line_bytes: bool = False) -> ReadResult:
    """Read a listed file as text, within limits; never raises for I/O or content.

    ``line_bytes``: also count each line's bytes on disk (MEMORY.md's load budget needs
    them; a topic file does not, and counting costs a split of every file)."""
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        return ReadResult(None, 0, 0.0, error=describe_os_error(exc))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            problem = FileProblem("not-regular-file", "not a regular file; not read")
            return ReadResult(None, info.st_size, info.st_mtime, problems=(problem,))
        if info.st_size > max_bytes:
            problem = FileProblem(
                "file-too-large",
                f"file is {_human(info.st_size)}, over the {_human(max_bytes)} limit; not read",
            )
            return ReadResult(None, info.st_size, info.st_mtime, problems=(problem,))
        try:
            data = _read_up_to(fd, info.st_size + 1)  # what fstat saw, not the limit
        except OSError as exc:
            return ReadResult(None, info.st_size, info.st_mtime, error=describe_os_error(exc))
    finally:
        os.close(fd)
    return _decode(data, info.st_mtime, line_bytes)


def binary_at_start(source: Path) -> bool:
    """Whether a file's first bytes are no text (an image, a database): a file read for
    secrets alone is then left unread, not read whole (up to 16 MB) to be sniffed after."""
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False  # the read itself says what is wrong
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, BINARY_SNIFF)
    except OSError:
        return False
    finally:
        os.close(fd)
    return not head.startswith((b"\xff\xfe", b"\xfe\xff")) and _binary(head)


def _read_up_to(fd: int, size: int) -> bytes:
    """``size`` bytes or up to the end, with plain reads: no buffered file object for each of
    thousands of small files (a file grown since fstat is read to ``size``, as before)."""
    parts = []
    while size > 0 and (part := os.read(fd, size)):
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


# Formats a .md name may hide, by their first bytes: a document or an image saved under a
# note's name is converted or renamed, not restored (a workspace's Word files named .md)
OFFICE_PARTS = (
    ("word/", "a Word document", "docx"),
    ("xl/", "an Excel workbook", "xlsx"),
    ("ppt/", "a PowerPoint deck", "pptx"),
)
SIGNATURES = (
    (b"%PDF-", "a PDF", "pdf"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image", "png"),
    (b"\xff\xd8\xff", "a JPEG image", "jpg"),
    (b"GIF8", "a GIF image", "gif"),
)
ZIP_MAGIC = b"PK\x03\x04"
CONVERTED = frozenset({"docx", "xlsx", "pptx", "pdf"})


def _container(data: bytes) -> tuple[str, str] | None:
    """What a binary file named .md is, when its first bytes say so: a kind and the name's
    right ending. An Office file is a zip whose entries name their part (``word/...``)."""
    if data.startswith(ZIP_MAGIC):
        names = _zip_names(data)
        for part, kind, ending in OFFICE_PARTS:
            if any(name.startswith(part) for name in names):
                return kind, ending
        return "a zip archive", "zip"
    return next(
        ((kind, ending) for magic, kind, ending in SIGNATURES if data.startswith(magic)), None
    )


def _zip_names(data: bytes) -> list[str]:
    """The entries' names a zip's directory lists (none when it cannot be read: a zip cut
    short is named a zip still)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return []


def _binary_problem(data: bytes) -> FileProblem:
    found = _container(data)
    if found is None:
        return FileProblem("binary-file", "binary content in a .md file; not read")
    kind, ending = found
    if ending in CONVERTED:
        advice = (
            f"convert it to Markdown (e.g. `pandoc -t gfm`) so a session can read it, or rename"
            f" it to .{ending} and link it from a note"
        )
    else:
        advice = f"rename it to .{ending} and link it from a note"
    message = f"binary content in a .md file: {kind} saved under a note's name; not read"
    return FileProblem("binary-file", message, suggestion=advice)


def _decode(data: bytes, mtime: float, line_bytes: bool) -> ReadResult:
    size = len(data)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
        # a byte order mark alone is an empty file (what is wrong is that: orphans says so);
        # UTF-16 text is unreadable to Claude Code
        problem = FileProblem("not-utf8", "file is UTF-16; Claude Code reads and writes UTF-8", 1)
        return _result(text, data, mtime, (problem,) if text.strip() else (), line_bytes)
    if data.startswith(GIT_CRYPT_HEADER):
        problem = FileProblem(ENCRYPTED, "encrypted: git-crypt")
        return ReadResult(None, size, mtime, problems=(problem,))
    binary = _binary(data[:BINARY_SNIFF])
    # zeros past the sniff too: a long note's last block filled with them (one byte's
    # search is memchr's; a pair's costs eight times as much over a tree's text)
    if binary or NUL in data:
        zeroed = _zeroed_text(data)
        if zeroed is not None:
            return _result(zeroed[0], data, mtime, (zeroed[1],), line_bytes)
    if binary:
        return ReadResult(None, size, mtime, problems=(_binary_problem(data),))
    try:
        text = data.decode("utf-8-sig")
        problems: tuple[FileProblem, ...] = ()
    except UnicodeDecodeError as exc:
        # utf-8-sig counts from after a byte order mark: the offset in the file is past it
        start = exc.start + (3 if data.startswith(codecs.BOM_UTF8) else 0)
        line = data.count(b"\n", 0, start) + 1
        text = data.decode("utf-8-sig", errors="replace")
        problems = (_not_utf8(data, start, line, text),)
    return _result(text, data, mtime, problems, line_bytes)


# A character of three or four bytes cut after its first continuation byte, a ``?`` in its
# last byte's place (a legacy code page may write these bytes too, before a question mark:
# only when every bad spot has this shape is it damage).
CUT_SHORT = re.compile(rb"(?:[\xe0-\xef][\x80-\xbf]|[\xf0-\xf4][\x80-\xbf]{1,2})\?")
DAMAGED_UTF8 = (
    "restore the file from history, or rewrite the damaged lines; make what wrote it write"
    " UTF-8 (re-saving in another encoding brings nothing back)"
)


GARBLED = (
    "restore the file from history or from what wrote it (a text a tool decoded wrongly is"
    " recovered by undoing that decoding); re-saving it as UTF-8 would keep the garble"
)
# Code pages whose text is mostly bytes beyond ASCII: Chinese, Japanese and Korean ones,
# each strict (a byte sequence they do not define fails)
WIDE_CODE_PAGES = ("gb18030", "big5", "shift_jis", "euc-kr")
# Single-byte code pages of scripts written mostly beyond ASCII (Windows' and DOS's): a text
# in one of them reads as that script's letters, nearly every byte beyond ASCII a letter
LETTER_CODE_PAGES = (
    *("cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258"),
    *("cp874", "cp866", "cp737", "cp862", "cp864", "koi8_r", "koi8_u", "latin_1"),
)
ASCII_END = 0x7F
HIGH_BYTES = re.compile(rb"[\x80-\xff]")
LETTER_SHARE = 0.9  # of a text's characters beyond ASCII: letters and their marks
CAPITALS_SHARE = 0.2  # of its cased letters beyond ASCII: capitals (a heading's, a name's)


def _garbled(data: bytes) -> bool:
    """Bytes that are no text in any encoding, read on the lines that are no UTF-8 (a note
    may hold UTF-8 lines beside them): more of their bytes beyond ASCII than within it (a
    text in a Latin code page is mostly ASCII), not every line read by one wide code page,
    and in every single-byte code page of a script written beyond ASCII a tenth of what they
    read as or more no letter, or a fifth of the cased letters or more capitals (a held-out
    tree's daily notes, Markdown a tool had turned into hex and then decoded as base64:
    "re-save as UTF-8" would keep the garble)."""
    lines = [raw for raw in data.split(b"\n") if _decoded(raw, "utf-8") is None]
    bad = b"\n".join(lines)
    if len(HIGH_BYTES.findall(bad)) * 2 <= len(bad):
        return False
    wide = (all(_decoded(raw, page) is not None for raw in lines) for page in WIDE_CODE_PAGES)
    if any(wide):
        return False
    return not any(_reads_as_letters(bad, code_page) for code_page in LETTER_CODE_PAGES)


def _decoded(data: bytes, code_page: str) -> str | None:
    """``data`` read in ``code_page``, strictly; None when it holds bytes the page lacks."""
    try:
        return data.decode(code_page)
    except UnicodeDecodeError:
        return None


def _reads_as_letters(data: bytes, code_page: str) -> bool:
    """Whether ``data`` decodes in ``code_page`` with nearly every character beyond ASCII a
    letter or a letter's mark (Thai's vowels are marks)."""
    text = _decoded(data, code_page)
    if text is None:
        return False
    beyond = [c for c in text if ord(c) > ASCII_END]
    letters = sum(unicodedata.category(c)[0] in "LM" for c in beyond)
    if letters < LETTER_SHARE * len(beyond):
        return False
    # a cased script's text is mostly lower case; bytes no one wrote read as capitals and
    # small letters alike (ASCII hexed and decoded as base64 reads as cp1251's letters, a
    # third of them capitals)
    capitals = sum(c.isupper() for c in beyond)
    return capitals <= CAPITALS_SHARE * sum(c.islower() or c.isupper() for c in beyond)


MIXED_GB18030 = (
    "convert those lines to UTF-8 (`iconv -f gb18030` on them alone) and keep the rest; make"
    " what wrote them write UTF-8"
)
CJK = re.compile("[\u3400-\u9fff]")


def _lines_in_gb18030(data: bytes) -> int:
    """How many lines are no UTF-8 but read whole in GB18030, when every line that is no
    UTF-8 does and Chinese is among them (sections a tool appended in GBK to a UTF-8 note,
    some of punctuation alone: seen on a held-out tree, called damage, though nothing was
    lost); 0 otherwise."""
    count, chinese = 0, False
    for raw in data.split(b"\n"):
        if _decoded(raw, "utf-8") is not None:
            continue
        decoded = _decoded(raw, "gb18030")  # strict: Latin-1 text is no GB18030
        if decoded is None:
            return 0
        chinese = chinese or CJK.search(decoded) is not None
        count += 1
    return count if chinese else 0


MIXED_CP1252 = (
    "convert those lines to UTF-8 (`iconv -f cp1252` on them alone) and keep the rest; make"
    " what wrote them write UTF-8 (Windows PowerShell 5 writes its code page by default)"
)
# What Western text in Windows-1252 holds beyond ASCII: accented letters and a few marks of
# typography (quotes, dashes, an ellipsis, a euro, a degree, a no-break space). The bytes a
# damaged UTF-8 character leaves read as other symbols (``â€``, ``Ã``, a lone continuation
# byte's ``ˆ``)
CP1252_MARKS = frozenset("‘’“”–—…•€™°«» ")
CLOSING_QUOTES = frozenset("\u2019\u201d")
LATIN_TEXT_SHARE = 4  # bytes of a Western line per byte beyond ASCII, at least


def _lines_in_cp1252(data: bytes) -> int:
    """How many lines are no UTF-8 but read in Windows-1252 as Western text (each character
    beyond ASCII a lower-case accented letter, a capital one starting a word, or a mark of
    typography; most of the line ASCII), when the file's other lines hold UTF-8 beyond
    ASCII: sections a Windows tool appended in its code page to a UTF-8 note (seen on a
    held-out tree: PowerShell's ``Add-Content`` writing em dashes as 0x97, called damage,
    though nothing was lost); 0 otherwise, and for a file all in one code page, which
    re-saving mends."""
    count, utf8_beyond = 0, False
    for raw in data.split(b"\n"):
        if _decoded(raw, "utf-8") is not None:
            utf8_beyond = utf8_beyond or not raw.isascii()
            continue
        decoded = _decoded(raw, "cp1252")
        beyond = len(HIGH_BYTES.findall(raw))
        if decoded is None or beyond * LATIN_TEXT_SHARE > len(raw):
            return 0
        if not all(_western(decoded, at) for at, c in enumerate(decoded) if ord(c) > ASCII_END):
            return 0
        count += 1
    return count if utf8_beyond else 0


def _western(text: str, at: int) -> bool:
    """Whether ``text[at]`` is as Western text has it: a mark of typography after ASCII, a
    lower-case letter, or a capital opening a word or after one (``Ärger``, ``ÉTÉ``)."""
    char = text[at]
    if char in CP1252_MARKS:
        # two in a row are a damaged character's continuation bytes (``€”``: a dash's
        # bytes after its lead byte was lost), no typography; so is a closing quote after
        # a space (``Summary: \x94 canonical``: a dash's last byte, its first two lost)
        before = text[at - 1] if at else " "
        return ord(before) <= ASCII_END and not (char in CLOSING_QUOTES and before.isspace())
    if not char.isalpha():
        return False
    return char.islower() or at == 0 or not text[at - 1].islower()


def _not_utf8(data: bytes, offset: int, line: int, text: str) -> FileProblem:
    """Text in another encoding (re-saving it as UTF-8 mends it), or UTF-8 text with
    characters cut short: more characters beyond ASCII read whole than bytes that are no
    UTF-8, as when a tool's round trip through a legacy code page replaced a character's last
    byte with ``?`` (seen on a held-out tree: 76 files, each "re-save as UTF-8" advice wrong,
    since no encoding brings the lost bytes back)."""
    where = f"invalid UTF-8 byte 0x{data[offset]:02x} at offset {offset}"
    western = 0 if CUT_SHORT.search(data) else _lines_in_cp1252(data)
    if western and not _lines_in_gb18030(data):
        return FileProblem(
            "not-utf8",
            f"{where}: the file is UTF-8 with {western} line(s) in Windows-1252 (cp1252), a"
            " Western code page; they read whole in it",
            line,
            MIXED_CP1252,
        )
    damaged = text.count("\ufffd")
    whole = len(text) - len(text.encode("ascii", "ignore")) - damaged
    # every bad spot cut short so: damage too, though the text has few characters beyond
    # ASCII (a single one); in cp1251 or cp1252 text a letter pair before a "?" is chance
    cut_short = len(CUT_SHORT.findall(data)) if whole < damaged else 0
    if whole < damaged and cut_short < damaged:
        if _garbled(data):
            return FileProblem(
                "not-utf8",
                f"{where}: its bytes read as text in no encoding (most are beyond ASCII and"
                " read as no script's letters, as when a tool decoded the text wrongly)",
                line,
                GARBLED,
            )
        return FileProblem("not-utf8", where, line)
    mixed = _lines_in_gb18030(data) if cut_short < damaged else 0
    if mixed:
        return FileProblem(
            "not-utf8",
            f"{where}: the file is UTF-8 with {mixed} line(s) in GB18030 (GBK), a Chinese"
            " code page; they read whole in it",
            line,
            MIXED_GB18030,
        )
    return FileProblem(
        "not-utf8",
        f"{where}: the file is UTF-8 with {damaged} damaged character(s) (bytes lost, as by"
        " a round trip through a legacy code page; the text beside them may be lost too)",
        line,
        DAMAGED_UTF8,
    )


def _binary(head: bytes) -> bool:
    """NUL bytes a text does not hold: with other control bytes more than one in a
    thousand, or beside bytes that are no UTF-8 in a head less than nine parts in ten
    printable ASCII. A note that quotes a NUL (``'\x00'``
    written as the byte itself, as an editor or a model may) is text with one stray
    control character, read as text."""
    if b"\x00" not in head:
        return False
    controls = len(head) - len(head.translate(None, CONTROL_BYTES))
    if controls > max(1, len(head) // 1000):
        # UTF-8 whose control bytes are a few against its text: escapes a shell turned into
        # bytes (PowerShell's `` `0 `` in "diff `0.02%"), a text all the same
        return controls * STRAY_SHARE > len(head) or not _utf8(head)
    if _utf8(head):
        return False
    # a text in a legacy code page with a stray NUL or two (a section pasted from another
    # editor) is nine parts in ten printable ASCII: damaged text, no binary
    unprintable = len(head.translate(None, PRINTABLE))
    return unprintable * TEXT_SHARE > len(head)


# UTF-8 text with a few runs of NUL bytes and nothing else amiss: a write cut short, or a
# block the file system filled with zeros after a crash (a day's notes with 310 of them
# after its last whole line, held-out batch 187's judge). The text is read, each run as a
# space; removing the file, the advice for a binary one, would lose the notes.
MAX_NUL_RUNS = 3
MIN_NUL_RUN = 2  # one NUL alone is a quoted byte or a stray one, read as text (_binary)
NUL_RUN = re.compile(rb"\x00+")
NUL = b"\x00"
UTF8_CONTINUATION, UTF8_LEAD_2, UTF8_LEAD_3, UTF8_LEAD_4 = 0x80, 0xC0, 0xE0, 0xF0
UTF8_LONGEST = 4
ZEROED_TEXT = (
    "delete the NUL bytes (`tr -d '\\000' < FILE > FILE.new`, then move FILE.new over FILE) and"
    " check the text around that line against history; restore what is missing"
)


def _zeroed_text(data: bytes) -> tuple[str, FileProblem] | None:
    """The text of UTF-8 ``data`` whose only flaw is a few runs of NUL bytes (a character
    the zeros cut short at either end of a run allowed), and the problem naming them; None
    for anything else (a binary file, UTF-16 without its mark: a NUL every other byte). A
    run reads as a space: the words on either side are not joined into one."""
    runs = list(itertools.islice(NUL_RUN.finditer(data), MAX_NUL_RUNS + 1))
    if not runs or len(runs) > MAX_NUL_RUNS or any(len(run[0]) < MIN_NUL_RUN for run in runs):
        return None
    edges = [0, *(edge for run in runs for edge in run.span()), len(data)]
    texts = []
    for index in range(0, len(edges), 2):
        segment = data[edges[index] : edges[index + 1]]
        if index == 0 and segment.startswith(codecs.BOM_UTF8):
            segment = segment[len(codecs.BOM_UTF8) :]
        if segment.translate(None, CONTROL_BYTES) != segment:
            return None  # other control bytes too: no text damaged so, a binary file
        text = _decode_cut(segment, head_cut=index > 0, tail_cut=index + 2 < len(edges))
        if text is None:
            return None
        texts.append(text)
    text = " ".join(texts)
    if not text.strip():
        return None
    offset = runs[0].start()
    line = data.count(b"\n", 0, offset) + 1
    nuls = sum(len(run[0]) for run in runs)
    problem = FileProblem(
        "not-utf8",
        f"{nuls} NUL byte(s) in UTF-8 text, the first at offset {offset}: the file was cut"
        " while written or filled with zeros; the text there may be lost (read without them)",
        line,
        ZEROED_TEXT,
    )
    return text, problem


def _decode_cut(segment: bytes, *, head_cut: bool, tail_cut: bool) -> str | None:
    """``segment`` as UTF-8, where a run of zeros may have cut a character: the
    continuation bytes it left at the start (``head_cut``) and the lead byte and fewer
    continuation bytes than it needs at the end (``tail_cut``) read as U+FFFD; None when
    the rest is no UTF-8."""
    start = 0
    if head_cut:
        while start < min(UTF8_LONGEST - 1, len(segment)) and _continuation(segment[start]):
            start += 1
    end = len(segment)
    if tail_cut:
        for back in range(1, min(UTF8_LONGEST, end - start) + 1):
            byte = segment[end - back]
            if not _continuation(byte):
                if byte >= UTF8_LEAD_2 and back < _utf8_length(byte):
                    end -= back  # a lead byte whose character the zeros cut
                break
    try:
        body = segment[start:end].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return ("\ufffd" if start else "") + body + ("\ufffd" if end < len(segment) else "")


def _continuation(byte: int) -> bool:
    return UTF8_CONTINUATION <= byte < UTF8_LEAD_2


def _utf8_length(lead: int) -> int:
    """How many bytes the character a lead byte opens takes."""
    return 2 if lead < UTF8_LEAD_3 else 3 if lead < UTF8_LEAD_4 else UTF8_LONGEST


def _utf8(head: bytes) -> bool:
    """Whether the head is UTF-8, a character cut by the sniff's end allowed (no sign)."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3
    return True


def _result(
    text: str, data: bytes, mtime: float, problems: tuple[FileProblem, ...], count_lines: bool
) -> ReadResult:
    line_bytes = _line_bytes(data) if count_lines else ()
    crlf_text = text if "\r\n" in text else ""
    text = text.replace("\r\n", "\n") if crlf_text else text
    return ReadResult(text, len(data), mtime, line_bytes, problems, crlf_text=crlf_text)


def _line_bytes(data: bytes) -> tuple[int, ...]:
    line_bytes = tuple(len(part) + 1 for part in data.split(b"\n"))
    if data.endswith(b"\n"):
        return line_bytes[:-1]
    if line_bytes:
        return (*line_bytes[:-1], line_bytes[-1] - 1)
    return line_bytes


def describe_os_error(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "vanished before it could be read"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.ELOOP:
        return "symlink loop or symlink in place of a file; not followed"
    if exc.errno == errno.ENXIO:
        return "a socket (or a device without a driver), not a file; not read"
    return exc.strerror or type(exc).__name__


def _human(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{size / 1024:.0f} KB"


def watches_needed(root: Path) -> int:
    """inotify watches a recursive watch of ``root`` takes: one per folder, symlinks not
    followed."""
    return 1 + sum(
        1
        for current, dirs, _ in os.walk(root)
        for d in dirs
        if not os.path.islink(os.path.join(current, d))
    )
