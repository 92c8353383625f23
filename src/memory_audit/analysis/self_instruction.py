"""An index that tells the session to read itself in full before it starts working.

A hand-kept MEMORY.md often opens with its own rule: "Read this file at the start of
every session", or "每次新会话开始时，先读本文件". The session sees that rule in the part auto
memory loads and opens the file with the Read tool, which returns it whole (up to 2,000
lines): the file's own line is what loads it then (:mod:`memory_audit.analysis.index_loaders`).

Narrow on purpose, since an index full of notes mentions itself often. One sentence must
hold all three, and the first two in one clause:

- an **imperative** reading verb: "read", "lies", "lisez", "lee", "leia", "đọc", "oku",
  "прочитай", or 読 / 讀 / 读 / 읽 with no passive ("this file is read at start", "被读取",
  "読まれる" describe auto memory, they tell nobody to do anything), and in English before
  the file it names ("only the first 200 lines of this file load at session start" is a
  description too);
- the file **itself**: "this file" in one of those languages ("本文件", "このファイル",
  "ce fichier", ...), or a path that resolves to the index (``MEMORY.md`` from its folder);
- **when**: at the start of a session or before working ("every new session",
  "before you start", "会话开始", "作業前", ...).

A sentence that says it happens automatically, or says not to, is no instruction; a line
with a link, or a clause naming another Markdown file, may speak of that file instead. Each
line is scanned a bounded number of times (a fixed list of phrases): linear time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from unicodedata import normalize

MAX_PATHS = 16  # Markdown file names looked at on one line: real lines hold one or two
PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/~")
IMPERATIVE_READ = frozenset(
    # not Spanish "lean" nor German "lest": English "keep it lean", "lest it go stale"
    {"read", "reread", "load", "lies", "lesen", "lis", "lisez", "lire", "relis", "lee"}
    | {"lea", "leer", "leia", "leiam", "ler", "đọc", "oku", "okuyun"}
    | {"okuyunuz", "читай", "читайте", "прочитай", "прочитайте", "прочти", "прочтите"}
)
READ_CHARACTERS = ("読", "讀", "读", "읽")  # CJK: no spaces between words
# English puts the object after the verb: "read this file ...". Said after the file,
# "read" and "load" have a subject, a description ("keep this file short: only the first
# 200 lines load at session start"), where German, Turkish and Russian may end on the verb.
OBJECT_AFTER = frozenset({"read", "reread", "load"})
# A reading verb after one of these is a passive or a forecast ("is read", "will load",
# "se lee"): a description of what happens, not an instruction.
NOT_IMPERATIVE_BEFORE = frozenset(
    {"is", "are", "be", "been", "being", "was", "were", "gets", "get", "got", "se"}
    | {"will", "would", "can", "may"}
)
CJK_PASSIVE = ("被", "まれ", "され", "읽히", "읽혀", "읽힌", "읽힐")
THIS_FILE = (
    *("this file", "this index", "this document", "this entire file", "this whole file"),
    *("this memory file", "diese datei", "dieses dokument", "ce fichier", "ce document"),
    *("cet index", "este archivo", "este fichero", "este documento", "este arquivo"),
    *("esse arquivo", "este ficheiro", "file này", "tệp này", "tài liệu này", "bu dosya"),
    *("bu belge", "этот файл", "этот документ", "本文件", "此文件", "这个文件", "這個文件"),
    *("本檔案", "此檔案", "本文档", "本文檔", "このファイル", "本ファイル", "이 파일", "이 문서"),
)
SESSION_START = (
    *("start of", "beginning of", "session start", "new session", "every session"),
    *("each session", "before starting", "before you start", "before beginning"),
    *("before you begin", "before any work", "before working", "before doing"),
    *("at startup", "on startup", "when starting", "when you start", "first thing"),
    *("beginn", "jeder sitzung", "jeder session", "neuen sitzung", "neuen session"),
    *("vor der arbeit", "début de", "chaque session", "nouvelle session"),
    *("avant de commencer", "avant tout travail", "au démarrage", "inicio de"),
    *("comienzo de", "cada sesión", "nueva sesión", "antes de empezar", "antes de comenzar"),
    *("antes de trabajar", "início d", "cada sessão", "nova sessão", "antes de começar"),
    *("antes de iniciar", "đầu phiên", "mỗi phiên", "phiên mới", "trước khi bắt đầu"),
    *("trước khi làm", "khi bắt đầu", "oturum başında", "her oturum", "yeni oturum"),
    *("başlamadan önce", "в начале", "каждой сессии", "новой сессии", "перед началом"),
    *("перед работой", "会话开始", "會話開始", "新会话", "新會話", "每次会话", "每次會話"),
    *("对话开始", "對話開始", "新对话", "新對話", "每次对话", "每次對話", "开始前", "開始前"),
    *("开始工作前", "開始工作前", "开工前", "开始时", "開始時", "每次启动", "每次啟動"),
    *("セッション開始", "セッションの開始", "新しいセッション", "各セッション", "毎セッション"),
    *("セッションの最初", "作業前", "作業開始", "始める前", "세션 시작", "새 세션", "매 세션"),
    *("세션을 시작", "작업 전", "작업 시작", "시작할 때", "시작 전"),
)
# Said to happen by itself, or said not to: no instruction to read.
NOT_AN_INSTRUCTION = (
    *("automatic", "auto-load", "autoload", "auto load", "自动", "自動", "automatisch"),
    *("automatiquement", "automáticamente", "automaticamente", "tự động", "otomatik"),
    *("автоматически", "자동", "don't", "don’t", "do not", "no need", "never", "needn't"),
    *("不要", "不必", "无需", "無需", "不用", "nicht", "ne pas", "не ", "không cần", "đừng"),
    *("ない", "않", "마세요"),
)
SENTENCE_ENDS = frozenset("。；！？;!?")
CLAUSE_ENDS = SENTENCE_ENDS | frozenset("，、,")


def self_instruction(lines: Sequence[str], names_index: Callable[[str], bool]) -> int | None:
    """The 0-based position in ``lines`` of the first line telling the session to read
    the file that holds it before working; ``names_index(path)``: a path names the index."""
    for number, line in enumerate(lines):
        if _tells_to_read_itself(line, names_index):
            return number
    return None


def index_paths(line: str) -> list[str]:
    """Runs of path characters ending in ``MEMORY.md`` (``.claude/MEMORY.md`` in a
    sentence of any language, in backticks or not): one pass over the line."""
    return [word for word in _path_words(line) if word.endswith("MEMORY.md")]


def folder_paths(line: str) -> list[str]:
    """Runs of path characters naming a folder (``.claude/memory/``, ``docs/memory``): a
    ``/`` in them, no file's suffix, some name in them."""
    return [
        word
        for word in _path_words(line)
        if "/" in word.strip("/") or word.endswith("/")
        if not word.endswith(".md") and word.strip("/.~")
    ]


def at_session_start(text: str) -> bool:
    """The text places something at a session's start (in the languages above) and does
    not say it happens by itself or must not."""
    lowered = normalize("NFC", text).lower()
    return any(m in lowered for m in SESSION_START) and not any(
        m in lowered for m in NOT_AN_INSTRUCTION
    )


def _tells_to_read_itself(line: str, names_index: Callable[[str], bool]) -> bool:
    if "](" in line:
        return False  # a link: "this file" may be the linked one (an index entry's hook)
    sentences = _split(normalize("NFC", line), SENTENCE_ENDS)
    return any(_instructs(s, names_index) for s in sentences)


def _names_another_file(clause: str, names_index: Callable[[str], bool]) -> bool:
    """Whether the clause names a Markdown file other than the index (``MEMORY.md`` from
    its folder names the index itself): "this file" may be that one."""
    named = [w for w in _path_words(clause) if w.endswith(".md")][:MAX_PATHS]
    return any(not w.endswith("MEMORY.md") or not names_index(w) for w in named)


def _instructs(sentence: str, names_index: Callable[[str], bool]) -> bool:
    lowered = sentence.lower()
    if not any(m in lowered for m in SESSION_START):
        return False
    if any(m in lowered for m in NOT_AN_INSTRUCTION):
        return False
    return any(
        _reads(clause) and _names_itself(clause) and not _names_another_file(clause, names_index)
        for clause in _split(sentence, CLAUSE_ENDS)
    )


def _reads(clause: str) -> bool:
    if any(c in clause for c in READ_CHARACTERS):
        return not any(p in clause for p in CJK_PASSIVE)
    words = "".join(c.lower() if c.isalpha() else " " for c in clause).split()
    return any(
        word in IMPERATIVE_READ
        and (at == 0 or words[at - 1] not in NOT_IMPERATIVE_BEFORE)
        and (word not in OBJECT_AFTER or _itself_after(words, at))
        for at, word in enumerate(words)
    )


def _itself_after(words: list[str], at: int) -> bool:
    """Whether the words after ``words[at]`` name the file (``MEMORY.md`` is two words)."""
    rest = " ".join(words[at + 1 :])
    return any(p in rest for p in THIS_FILE) or "memory md" in rest


def _names_itself(clause: str) -> bool:
    """A phrase for this file in one of the languages, or the index's name (whether a path
    to it leads to another MEMORY.md is :func:`_names_another_file`'s question)."""
    lowered = clause.lower()
    return any(p in lowered for p in THIS_FILE) or "MEMORY.md" in clause


def _split(text: str, ends: frozenset[str]) -> list[str]:
    """``text`` cut after each of ``ends``, and after a full stop followed by a space (not
    the one of ``MEMORY.md``): one pass."""
    parts: list[str] = []
    start = 0
    for at, c in enumerate(text):
        stop = c in ends or (c == "." and (at + 1 == len(text) or text[at + 1].isspace()))
        if stop:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts


def _path_words(line: str) -> list[str]:
    runs: list[str] = []
    run: list[str] = []
    for c in [*line, " "]:
        if c in PATH_CHARS:
            run.append(c)
            continue
        if run:
            runs.append("".join(run).rstrip("."))
        run = []
    return runs
