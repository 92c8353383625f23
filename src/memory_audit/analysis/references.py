"""Spotting the file paths and commit hashes a memory claims exist.

Deliberately conservative: a missed reference costs nothing, a false "stale"
costs the user's trust. A token is a path candidate when it has a ``/`` (in
prose, backticks or a link target) or, in backticks, is a file name with an
extension. Word lists (``Opus/Sonnet``), branches and refs (``origin/main``,
``feature/x``), URLs, globs, placeholders (``…``, ``<path>``, ``path/to``),
generated folders (``node_modules/``, ``dist/``) and secret-shaped tokens are
never candidates; whether a candidate is a claim about the project is decided
against its history (see ``checks/stale_refs.py``).

A line that says something was renamed, moved or deleted, or that gives an
example, makes no claim that its paths exist (its sentence read on into the next
line when the line breaks it off: a wrapped "`x.py` was" / "DELETED in July"); nor do
the items of a list that such a line introduces ("Removed in the cleanup:"). A hash is
a commit only when the line labels it one ("commit abc1234", "sha", "fixed in"), and
not when the line names another repository ("upstream", "in api-server, commit …",
"frontend-app commit …").
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from memory_audit.analysis.fast_regex import SizedPattern, compile_fast, lines_matching
from memory_audit.tree.index_file import LIST_ITEM
from memory_audit.tree.markdown import Document, Link, is_external, parse_markdown, prose_lines
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

BACKTICKED = re.compile(r"`([^`\n]+)`")
EDGE_PUNCTUATION = "()[]{}<>\"',;:.!?*_“”‘’「」『』（）【】、。，："
LINE_SUFFIX = re.compile(r"(?::\d+){1,2}$|#L?\d+(?:-L?\d+)?$")
EXTENSION = re.compile(r"[^.]\.[A-Za-z][A-Za-z0-9]{0,7}$")
# What str.isspace() calls white space, spelled out: RE2's \s is ASCII only.
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
NOT_A_PATH = SizedPattern(
    r"://|[*?{}<>$%|\\\[\]=,;&^!]|^[@#]|^-|[" + WHITESPACE + r"]|…|\.\.\.|/\./|//"
)
DOMAIN = re.compile(
    r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|ai|co|app|gov|edu|me|sh|jp|cn|kr)$",
    re.I,
)
MACHINE_START = ("~/", "/")
# Every component of a path is made of these (checked on the whole token, slashes allowed).
COMPONENTS = re.compile(r"[\w.@+~/-]*")
LETTER = re.compile(r"[A-Za-z]")
LEADING_EDGE = EDGE_PUNCTUATION.replace(".", "")
SECRET_SHAPED = re.compile(r"[A-Za-z0-9]{24,}")
REF_PREFIXES = frozenset(
    "origin upstream refs remotes heads tags feature features feat fix fixes bugfix hotfix "
    "release releases chore b4 dependabot renovate wip topic".split()
)
GENERATED = frozenset(
    "node_modules dist build out target .venv venv __pycache__ coverage .next .nuxt .cache "
    ".pytest_cache .mypy_cache .ruff_cache site-packages .git .terraform .gradle tmp temp "
    ".tox htmlcov .turbo .parcel-cache".split()
)
PLACEHOLDERS = frozenset("foo bar baz qux xxx yyy zzz example your-project my-project".split())
PLACEHOLDER_TEXT = re.compile(r"path/to|XXX|YYYY|NNN|<|\bN\b")
# A line that reports a change, or gives an example, claims nothing about what exists now.
NOT_A_CLAIM = compile_fast(
    r"(?i)\b(?:renam\w*|mov(?:e|ed|es|ing)|delet\w*|remov\w*|drop(?:ped)?|retir\w*|deprecat\w*|"
    r"replac\w*|supersed\w*|obsolete|legacy|formerly|previously|no longer|used to|gone|"
    r"archiv\w*|migrat\w*|instead of|in favou?r of|merged into|consolidat\w*|old|"
    r"originally|absorbed into|"
    r"ripped out|got rid of|clean(?:ed)? ?up|cleanup|killed|"
    r"e\.g|eg|for example|for instance|example|such as|hypothetical)\b"
    r"|->|→|⇒|削除|廃止|移動|移行|リネーム|名前変更|旧|删除|移除|废弃|重命名|迁移|改名|"
    r"삭제|제거|이동|폐기|이름 변경|例えば|例：|例:|例如|比如|举例|예:|예를|예시"
)
# A sentence that says its path is absent, empty, not applicable or not to be used agrees
# with a history that deleted it ("`tests/fixtures/` is empty", "never commit to `x/`"):
# stale-refs reads it in the path's own sentence (a long line's other sentences, "never
# filter in the client", say nothing about it). Not a rule of path_references: a warning's
# "never run `x.sh`" still cites x.sh for bloat.
SAYS_ABSENT = compile_fast(
    r"(?i)\b(?:empty|(?:does|do|did)(?: not|n't) exist|not exist\w*|non-?existent|no such|"
    # "there is no `x` directory yet", "there are no `x` and no y" (read with the path
    # blanked out); not "there is no need to touch `x`", "(there are no others)"
    r"there (?:is|are|was|were) no (?:(?:such )?(?:directory|folder|file|dir)|and|or|yet|in"
    r"|here|anymore)|there (?:is|are|was|were) no$|none (?:currently |yet |so far )?exists?|"
    r"absent|not applicable|never|must not|mustn't|should not|shouldn't|do not|don't|not to be|"
    # Spanish, Portuguese, German, French
    r"no existen?|vac[ií][oa]s?|eliminad[oa]s?|borrad[oa]s?|no aplica|nunca|prohibid[oa]|"
    r"n[ãa]o existem?|vazi[oa]s?|removid[oa]s?|exclu[ií]d[oa]s?|apagad[oa]s?|n[ãa]o se aplica|"
    r"existiert nicht|gibt es nicht|leer|gel[öo]scht|entfernt|nicht mehr|niemals|nie|"
    r"n'existe (?:pas|plus)|vide|supprim(?:ée?s?|ee?s?|és)|jamais|sans objet)\b|"
    # a word that ends in an accented letter: RE2's \b is ASCII's, no boundary after "é"
    r"\bsupprimé(?:[^\w]|$)|"
    # Japanese, Chinese, Korean
    r"無い|ない|存在しない|なし|無し|該当なし|してはならない|禁止|空っぽ|は空|が空|空の|"
    r"不存在|没有|已删除|不要|为空|是空的|없음|없다|없습니다|없는|금지|비어"
)
# Where a lesson was first met and what was so back then ("First seen in `x.tsx`", "at the
# time the code lived in `y.js`", "only `z.test.tsx` existed"): a deleted file named so is
# history the memory keeps, not a claim; a renamed one is still worth its new name.
RECORDS_HISTORY = compile_fast(
    r"(?i)\b(?:first (?:seen|spotted|found|noticed|observed|reported|hit) (?:in|at|on)\b"
    # "at the time," then what was so; not "at the time of writing, the entry point is x"
    r"|at the time[,;:]|back then\b|existed\b"
    # "the code lived in `x`"; not "long-lived tokens from `x`"
    r"|lived (?:in|at|under|inside)\b)"
)
SENTENCE_END = re.compile(r"[。！？；;]|[.!?](?=\s)")
SENTENCE_ENDS = ".!?:;。！？；："
BRANCH_CONTEXT = compile_fast(r"(?i)\b(?:branch\w*|checkout|switch|rebase|push|pull|merge)\b")

HEX = r"[0-9a-f]"
COMMIT_LABEL = compile_fast(
    r"(?i)\b(?:commits?|sha\d*|hash|revision|fixed in|landed in|landed as|reverts?|reverted|"
    r"cherry-pick\w*)\b|コミット|提交|커밋"
)
# "SHA" and "SHA-1" name git's hashes; a SHA-256 (or -224, -384, -512) is a checksum, and
# no commit label: a line's checksums are taken out before its labels are looked for.
CHECKSUM_LABEL = compile_fast(
    r"(?i)\bsha3?[-_ ]?(?:224|256|384|512)(?:\s+(?:hash(?:es)?|digests?|checksums?|sums?))?\b"
)
# Every COMMIT_LABEL match contains one of these (lower-cased): a cheap test for a whole body.
LABEL_HINTS = (
    *("commit", "sha", "hash", "revision", "fixed in", "landed", "revert", "cherry"),
    *("コミット", "提交", "커밋"),
)
HEX_RUN = compile_fast(rf"{HEX}{{7}}")  # a fast first test
# A hash is a whole token: not part of a word, path, URL, ref (#12ab34c) or file name.
TOKEN = compile_fast(r"[\w/#.@:-]+")
HEX_WORD = re.compile(rf"{HEX}{{7,40}}")
# Words that place a line's hashes in another repository's history: a host, a fork or a
# submodule, a GitHub Actions step (``actions/checkout``, not a path's ``src/actions/``), a
# dependency pinned by its ``owner/name`` in backticks ("pinned `fern/lint-action` to
# commit ...", not "pinned requirements/prod.txt").
OTHER_REPOSITORY = compile_fast(
    r"(?i)\b(?:upstream|kernel|linux|fork\w*|submodule\w*|vendor\w*|repos?|repositor\w*|"
    r"github|gitlab|bitbucket|dotfiles)\b|://|[\w.-]+/[\w.-]+@|(?:^|[\s`'\"(])actions/|"
    r"\bpin(?:s|ned|ning)?\s+`[\w-]+/[\w-]+`|リポジトリ|仓库|仓庫|저장소"
)
IN_NAMED = compile_fast(r"(?i)\b(?:in|from|on|at)\s+`?([\w.-]+)`?[,:]?\s+(?:commit|sha)")
# "frontend-app commit 4f2a91c": a repository's name, hyphenated, dotted, snake_cased or in
# backticks, right before "commit" claims that repository's history, not this one's (and so
# does its pull request's: "agent-news#802 commit 686e4f43").
NAMED_BEFORE = compile_fast(
    r"(?i)(?:^|[\s(])(`[\w.-]+`|[a-z0-9]+(?:[._-][a-z0-9]+)+)(?:#\d+)?\s+(?:commits?|sha)\b"
)
# "commit 3e9b2c1 in lite-installer", "(commit 5e6f7a8 в `infra`)": the repository
# named right after the hash.
NAMED_AFTER = compile_fast(
    r"(?i)\bcommits?\s+`?[0-9a-f]{7,40}`?(?:\s*(?:,|and|и)\s*`?[0-9a-f]{7,40}`?)*\s+"
    r"(?:in|from|on|at|of|в|из|на|im|dans|en)\s+(`[\w.-]+`|[a-z0-9]+(?:[._-][a-z0-9]+)+)"
)
# A line that ends where the repository's name would follow: the name is on the next line.
WRAPPED = compile_fast(r"(?i)(?:^|\s)(?:in|from|on|at|of|в|из|на|im|dans|en)\s*$")
# "ferncastle commits 4c1d9e2, 7b3a5f0": a plain name before a plural "commits", unless it is
# one of the words that describe commits.
PLAIN_BEFORE = compile_fast(r"(?i)(?:^|[\s(*])([a-z][a-z0-9]{2,})\s+commits\s+`?[0-9a-f]{7}")
DESCRIBING = frozenset(
    "the these those this that our your my their its his her all both some many few several "
    "two three four five six seven eight nine ten new old older newer latest recent earlier "
    "later previous following next last first final initial local remote unpushed pending "
    "merge squash revert fixup small big large main master develop feature release other "
    "same such no more most any each prior subsequent related relevant separate individual "
    "atomic clean dirty broken failing passing green red upstream downstream".split()
)
# Hyphenated words that describe a commit rather than name a repository.
COMMIT_WORDS = frozenset(
    "follow-up fix-up cherry-pick cherry-picked squash-merge squash-merged clean-up "
    "roll-back check-in sign-off pre-release post-release hot-fix bug-fix last-known-good "
    "merge-base work-in-progress one-line two-line re-land".split()
)


# "(session `0511c092`)": a session's id (the head of its UUID) on a line that also
# mentions a commit, no hash of one.
SESSION_BEFORE = re.compile(r"(?i)\bsession(?:[ _-]?id[\s:=#(`'\"]{1,4}|[\s(`'\"]{1,3})$")
LABEL_WINDOW = 24  # characters before a hash read for its label: linear on a line of hashes
# "(deployment `d0e72640`, ...)", "Worker version `366460c2`", "content hash `3e197af6`": the
# hash labelled right before it as another thing's id, on a line that also names a commit.
OTHER_ID_BEFORE = re.compile(
    r"(?i)\b(?:deploy(?:ment)?|version|build[ _-]?id|digest|image|container|trace|request|"
    r"content[ _-]hash|file[ _-]hash)(?:[ _-]?id)?[\s:=#(`'\"*]{1,4}$"
)


@dataclass(frozen=True)
class Reference:
    line: int
    text: str


def path_references(
    lines: Sequence[str], first_line: int, document: Document | None = None
) -> Iterator[Reference]:
    """Every path candidate, outside code blocks and lines that make no claim.

    ``document``: the lines already parsed (``MemoryFile.markdown``), to parse once."""
    body = "\n".join(lines)
    if "/" not in body and "`" not in body:
        return  # one test for the whole file: most bodies cite nothing
    links: dict[int, list[Link]] = {}
    document = document or parse_markdown(lines, first_line)
    for link in document.links:
        links.setdefault(link.line, []).append(link)
    cited: list[tuple[int, list[str], str]] = []
    for number, text in prose_lines(lines, first_line, document):
        if "/" not in text and "`" not in text:
            continue  # every candidate has a slash or backticks: most lines end here
        paths = list(dict.fromkeys(_paths_in(text, links.get(number, ()))))
        if paths:
            words = text + " " + _sentence_tail(lines, number - first_line)
            cited.append((number, paths, _words_around_paths(words)))
    # The words around the paths, not the paths, say "renamed", "e.g.": one search over
    # all of them, a line apiece (no alternative of the pattern spans a line break).
    claimless = set(lines_matching(NOT_A_CLAIM, "\n".join(c[2] for c in cited), 0))
    # A list introduced by "Removed in the cleanup:" records what went; its items claim nothing.
    leads = [_lead_in(lines, number - first_line) for number, _, _ in cited]
    claimless |= set(lines_matching(NOT_A_CLAIM, "\n".join(leads), 0))
    for place, (number, paths, _) in enumerate(cited):
        if place not in claimless:
            yield from (Reference(number, path) for path in paths)


def says_absent(text: str, path: str) -> bool:
    """The sentence of ``text`` that holds ``path`` says it is absent or not to be used."""
    return LineSentences(text).says_absent(path)


class LineSentences:
    """A line cut into sentences once, each sentence's "absent" verdict read once: asked
    about every path of the line, in time linear in the line (DESIGN §6), not paths × line.

    Sentences are cut with the backticked spans blanked out (a period in `x. y` ends none)
    and read as whole words, without those holding a slash (paths)."""

    def __init__(self, text: str) -> None:
        self.text = text
        masked = BACKTICKED.sub(lambda m: " " * len(m.group()), text)
        # one character each, so every place a search from any start finds, in order
        self.ends = [m.start() for m in SENTENCE_END.finditer(masked)]
        self.words: list[str] = []
        self.starts: list[int] = []
        self.stops: list[int] = []
        at = 0
        for word in masked.split():
            start = masked.find(word, at)
            at = start + len(word)
            self.words.append(word)
            self.starts.append(start)
            self.stops.append(at)
        self.places = _token_places(text)
        self.verdicts: dict[tuple[int, int], bool] = {}

    def says_absent(self, path: str) -> bool:
        """Every sentence that holds ``path`` says it is absent (the whole line when none
        does): one sentence that uses the path still claims it."""
        places = self.places.get(path)
        if places is None:
            at = self.text.find(path)  # a link's target, a token cut by other punctuation
            places = [at] if at >= 0 else []
        if not places:
            return self._verdict(0, len(self.text))
        return all(self._verdict(*self._sentence(at, at + len(path))) for at in places)

    def _sentence(self, at: int, after: int) -> tuple[int, int]:
        before = bisect_left(self.ends, at)
        begin = self.ends[before - 1] + 1 if before else 0
        following = bisect_left(self.ends, after)
        stop = self.ends[following] + 1 if following < len(self.ends) else len(self.text)
        return begin, stop

    def _verdict(self, begin: int, stop: int) -> bool:
        known = self.verdicts.get((begin, stop))
        if known is None:
            # the words that reach into [begin, stop), whole: a sentence cut never splits one
            first, last = bisect_right(self.stops, begin), bisect_left(self.starts, stop)
            words = [w for w in self.words[first:last] if "/" not in w]
            known = self.verdicts[begin, stop] = bool(SAYS_ABSENT.search(" ".join(words)))
        return known


def _token_places(text: str) -> dict[str, list[int]]:
    """Where each white-space separated token of ``text`` stands, keyed by the path it would
    clean to (edge punctuation, backticks, a line suffix, ``./`` and a trailing ``/`` off):
    most paths of the line, looked up rather than searched for."""
    places: dict[str, list[int]] = {}
    at = 0
    for word in text.split():
        start = text.find(word, at)
        at = start + len(word)
        if "/" in word or "." in word:  # no path without one
            _place(places, word, start)
    return places


def _place(places: dict[str, list[int]], word: str, start: int) -> None:
    core = word.lstrip(LEADING_EDGE + "`")
    offset = start + len(word) - len(core)
    if "](" in core:  # a link's target: "[title](path)"
        offset += core.rindex("](") + 2
        core = core[core.rindex("](") + 2 :]
    if ":" in core or "#" in core:
        core = LINE_SUFFIX.sub("", core.rstrip(EDGE_PUNCTUATION + "`"))
    core = core.rstrip(EDGE_PUNCTUATION + "`")
    if core.startswith("./"):
        core, offset = core[2:], offset + 2
    places.setdefault(core.rstrip("/") or core, []).append(offset)


LEAD_IN_REACH = 40  # lines looked back from a list item for the line that introduces it


def _lead_in(lines: Sequence[str], at: int) -> str:
    """The line that introduces the list ``lines[at]`` is an item of (ending in ``:``, or a
    heading), or "" when it is no list item or nothing introduces it within reach."""
    if not LIST_ITEM.match(lines[at]):
        return ""
    for back in range(at - 1, max(-1, at - 1 - LEAD_IN_REACH), -1):
        text = lines[back].strip()
        if not text or LIST_ITEM.match(lines[back]) or lines[back][:1].isspace():
            continue  # blank lines, sibling items and their continuations
        return text if text.endswith(":") or text.startswith("#") else ""
    return ""


def _sentence_tail(lines: Sequence[str], at: int) -> str:
    """The rest of the sentence ``lines[at]`` breaks off (a wrapped list item: "`x.py`
    was" / "DELETED in July"): the next line up to its first sentence end, or "" when the
    line ends a sentence or the next line starts a block (a blank line, an item, a heading)."""
    text = lines[at].rstrip()
    if at + 1 >= len(lines) or not text or text[-1] in SENTENCE_ENDS:
        return ""
    following = lines[at + 1]
    if not following.strip() or LIST_ITEM.match(following) or following.lstrip()[:1] == "#":
        return ""
    end = SENTENCE_END.search(following)
    return following[: end.start()] if end else following


def _words_around_paths(text: str) -> str:
    return " ".join([w for w in BACKTICKED.sub(" ", text).split() if "/" not in w])


def _paths_in(text: str, links: Sequence[Link]) -> Iterator[str]:
    branchy: bool | None = None
    for candidate, backticked in _candidates(text, links):
        path = clean_path(candidate, backticked)
        if path is not None and not has_extension(path):
            if branchy is None:
                branchy = bool(BRANCH_CONTEXT.search(text))
            if branchy:
                continue  # "rebase on feature/x": a branch, not a folder
        if path is not None:
            yield path


def _candidates(text: str, links: Sequence[Link]) -> Iterator[tuple[str, bool]]:
    for match in BACKTICKED.finditer(text):
        for token in match.group(1).split():
            yield token, True
    for link in links:
        if link.wiki or link.mention:
            continue
        if not is_external(link.target) and not link.target.split("#", 1)[0].endswith(".md"):
            yield link.target, True
        text = text.replace(f"]({link.target}", " ").replace(f"[{link.title}", " ")
    prose = BACKTICKED.sub(" ", text)
    if "/" not in prose:
        return  # most lines: their only candidates were in backticks
    for word in prose.split():
        # A word's pieces between backticks: what `[^\s`]*/[^\s`]*` found, without its
        # backtracking (quadratic on a long word with no slash after a backtick).
        if "/" in word:
            yield from ((piece, False) for piece in word.split("`") if "/" in piece)


@lru_cache(maxsize=1 << 16)  # a tree cites the same paths and names again and again
def clean_path(token: str, backticked: bool) -> str | None:
    """The path a token names, or None when it is not a file reference."""
    if "/" not in token and "." not in token:
        return None  # neither a path nor a file name (most backticked words): cleaning adds none
    # A leading dot belongs to the name (`.claude/`, `.env`); a trailing one ends a sentence.
    token = token.lstrip(LEADING_EDGE)
    if ":" in token or "#" in token:  # a line suffix needs one of them
        token = LINE_SUFFIX.sub("", token)
    token = token.rstrip(EDGE_PUNCTUATION)
    if token.startswith("./"):
        token = token[2:]
    if not token or NOT_A_PATH.search(token) or PLACEHOLDER_TEXT.search(token):
        return None
    if "/" not in token and not (backticked and has_extension(token)):
        return None
    parts = [p for p in token.split("/") if p]
    if not parts or _domain(parts) or not LETTER.search(token):
        return None
    # NOT_A_PATH refused white space, so no component ends in a line break that `$` allows
    if not COMPONENTS.fullmatch(token) or _unlikely(parts, token):
        return None
    return token.rstrip("/") or None


def _domain(parts: list[str]) -> bool:
    """A host name (``example.com/x``); a lone ``deploy.sh`` is a shell script."""
    lone_script = len(parts) == 1 and parts[0].lower().endswith(".sh")
    return bool(DOMAIN.match(parts[0])) and not lone_script


def _unlikely(parts: list[str], token: str) -> bool:
    """Branches, generated folders, placeholders and secret-shaped tokens."""
    if parts[0].lower() in REF_PREFIXES and not has_extension(token):
        return True
    generated = GENERATED if not is_machine_path(token) else frozenset()
    if any(p in generated or p.lower() in PLACEHOLDERS for p in parts):
        return True
    return any(SECRET_SHAPED.fullmatch(p) and _mixed(p) for p in parts)


def _mixed(part: str) -> bool:
    """A digit and an upper-case letter in a SECRET_SHAPED (ASCII letters and digits) part:
    there, not all letters means a digit, and lower-casing changes it only for a capital."""
    return not part.isalpha() and part.lower() != part


def has_extension(path: str) -> bool:
    return bool(EXTENSION.search(path.rstrip("/").rsplit("/", 1)[-1]))


ANY_DATE = compile_fast(r"20\d\d[-/.]\d|20\d\d年")
ENTRY_DATE = re.compile(r"(20\d\d)[-/.](\d{1,2})[-/.](\d{1,2})|(20\d\d)年(\d{1,2})月(\d{1,2})日")
# What may come before the date that starts a log entry: a list marker, a table cell, emphasis.
BEFORE_ENTRY_DATE = re.compile(r"\s*(?:[-*+]\s+|\d{1,3}[.)]\s+|\|\s*)?[*_\[(]*")
HEADING = re.compile(r" {0,3}(#{1,6})\s")


# What a log entry says was done then ("created `x.py`"): true on its date, whatever came later.
DONE = compile_fast(
    r"(?i)\b(?:creat\w*|add(?:ed|s)?|wrote|written|writes?|made|built|generat\w*|implement\w*|"
    r"introduc\w*|set up|saved|committed|updated|edited|modified|changed|fixed|refactor\w*|"
    r"extract\w*|wired|drafted|documented|new|"
    r"cre[ée]\w*|cri(?:ei|ad[oa]s?|ou)|agregad[oa]s?|añadid[oa]s?|adicionad[oa]s?|escrit[oa]s?|"
    r"implementad[oa]s?|actualizad[oa]s?|atualizad[oa]s?|modificad[oa]s?|alterad[oa]s?|"
    r"erstellt|hinzugef[üu]gt|geschrieben|angelegt|ge[äa]ndert|aktualisiert|neu|"
    r"ajout[ée]e?s?|[ée]crit|modifi[ée]e?s?|mis à jour|nouveau|nouvelle)\b|"
    r"作成|追加|実装|新規|更新|修正|変更|書い|创建|新增|添加|实现|修改|编写|생성|추가|작성|구현|수정|변경"
)


def says_done(text: str) -> bool:
    """The words of ``text`` outside its paths say something was done (see ``DONE``)."""
    return bool(DONE.search(_words_around_paths(text)))


def entry_dates(
    lines: Sequence[str], first_line: int, document: Document | None = None, body: str = ""
) -> dict[int, tuple[str, bool]]:
    """The date (``YYYY-MM-DD``) of the dated log entry each line belongs to, and whether
    the line itself starts with it: a line that starts with a date, or one under a heading
    that holds a date (``## 2026-05-01``, ``### Session 12 (2026-05-01)``; the innermost
    such heading). Lines of no dated entry are absent. ``body``: the lines joined, when
    the caller has them (one search of it answers for most memories: they hold no date)."""
    if not ANY_DATE.search(body or "\n".join(lines)):
        return {}
    code = (document or parse_markdown(lines, first_line)).code_lines
    found: dict[int, tuple[str, bool]] = {}
    headings: list[tuple[int, str | None]] = []  # (level, date) from the outermost in
    for number, text in enumerate(lines, start=first_line):
        if number in code:
            continue
        heading = HEADING.match(text)
        date = _date_in(text, starting=heading is None)
        if heading is not None:
            level = len(heading.group(1))
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, date))
        if date is not None and heading is None:
            found[number] = (date, True)
            continue
        date = next((d for _, d in reversed(headings) if d is not None), None)
        if date is not None:
            found[number] = (date, False)
    return found


def recording_sections(
    lines: Sequence[str], first_line: int, document: Document | None = None
) -> frozenset[int]:
    """Lines under a heading that says its section records a change or gives examples
    ("## Removed in the cleanup", "### 削除したファイル", "## Examples"): like the items of
    a list such a line introduces, the section's paths (in tables, paragraphs) claim nothing."""
    code = (document or parse_markdown(lines, first_line)).code_lines
    found: set[int] = set()
    headings: list[tuple[int, bool]] = []  # (level, records) from the outermost in
    for number, text in enumerate(lines, start=first_line):
        heading = HEADING.match(text) if number not in code else None
        if heading is not None:
            level = len(heading.group(1))
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, bool(NOT_A_CLAIM.search(_words_around_paths(text)))))
        elif any(records for _, records in headings):
            found.add(number)
    return frozenset(found)


def _date_in(text: str, *, starting: bool) -> str | None:
    """The first date in ``text`` (only one that starts the line, when ``starting``)."""
    match = ENTRY_DATE.search(text)
    if match is None:
        return None
    before = BEFORE_ENTRY_DATE.match(text)
    if starting and (before is None or before.end() != match.start()):
        return None
    year, month, day = (g for g in match.groups() if g is not None)
    if not (1 <= int(month) <= 12 and 1 <= int(day) <= 31):
        return None
    return f"{year}-{int(month):02d}-{int(day):02d}"


def is_machine_path(text: str) -> bool:
    return text.startswith(MACHINE_START)


def commit_references(
    lines: Sequence[str], first_line: int, document: Document | None = None
) -> Iterator[Reference]:
    """Hashes on lines that label them commits and name no other repository."""
    body = "\n".join(lines)
    lowered = body.lower()
    if not any(hint in lowered for hint in LABEL_HINTS) or not HEX_RUN.search(body):
        return  # plain substring tests first: most bodies label no commit at all
    code = (document or parse_markdown(lines, first_line)).code_lines
    for number in lines_matching(HEX_RUN, body, first_line):  # most lines hold no hash
        text = lines[number - first_line]
        if number in code or not COMMIT_LABEL.search(CHECKSUM_LABEL.sub(" ", text)):
            continue
        if WRAPPED.search(text) and number - first_line + 1 < len(lines):
            text += " " + lines[number - first_line + 1].strip()  # "(commit abc в\n repo)"
        if not _names_another_repository(text):
            yield from _hashes(number, lines[number - first_line])


def _hashes(number: int, text: str) -> Iterator[Reference]:
    seen: set[str] = set()
    for match in TOKEN.finditer(text):
        value = match.group(0).rstrip(".:")  # "commit abc1234:" / "... abc1234."
        before = text[max(0, match.start() - LABEL_WINDOW) : match.start()]
        if not HEX_WORD.fullmatch(value) or SESSION_BEFORE.search(before):
            continue
        if OTHER_ID_BEFORE.search(before):
            continue
        if value not in seen and re.search(r"[0-9]", value) and re.search("[a-f]", value):
            seen.add(value)
            yield Reference(number, value)


def _names_another_repository(text: str) -> bool:
    """The line attributes its hashes to a repository other than this project's."""
    if OTHER_REPOSITORY.search(text) or NAMED_AFTER.search(text):
        return True  # "upstream commit …", "commit abc1234 in other-repo"
    if any(m.group(1).lower() not in ("this", "the", "our") for m in IN_NAMED.finditer(text)):
        return True  # "in nixosconfig, commit abc1234"
    named = (m.group(1).strip("`").lower() for m in NAMED_BEFORE.finditer(text))
    return any(n not in COMMIT_WORDS for n in named) or _plain_name_before(text)


def _plain_name_before(text: str) -> bool:
    """ "ferncastle commits abc1234, …": a name, not a word that describes commits."""
    return any(
        m.group(1).lower() not in DESCRIBING and not m.group(1).lower().endswith(("ed", "ing"))
        for m in PLAIN_BEFORE.finditer(text)
    )


def path_exists(tree: MemoryTree, memory: MemoryFile, text: str) -> bool | None:
    """Existence only, for other checks: True/False, or None when it cannot be told here."""
    if text.startswith("~/"):
        return bool(os.path.lexists(tree.home / text[2:]))
    if text.startswith("/"):
        first = text.strip("/").split("/", 1)[0]
        # "/api/v1/users" is a route, not a file: only judge paths under real top-level folders.
        return os.path.lexists(text) if os.path.isdir("/" + first) else True
    project = tree.location.project_path
    bases = [tree.root, tree.root / memory.path.rpartition("/")[0], tree.home]
    if project is not None:
        bases += [project, project.parent]
    if any(os.path.lexists(base / text) for base in bases):
        return True
    return False if project is not None else None
