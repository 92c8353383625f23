"""One pass over a text for every secret rule.

1. Keyword prefilter: one RE2 set search tells which rules' keywords occur in
   the text at all; a text with none is done.
2. Each rule whose keyword occurs runs its own pattern over the text; the
   secret is its ``secret`` group (else the whole match), and its ``first`` group too
   where a rule finds two secrets given together. Rules run alone, not
   as one combined alternation: most rules' keywords occur in a few files, and
   a combined pattern made RE2 build one large DFA over every file (on a
   realistic 8 MB sweep, 0.2 s of DFA construction, twice the matching).
3. Each hit passes the value classifier (``secrets/values.py``: placeholders,
   distinct characters, entropy; for generic rules the value's shape and its
   line's words around it). Of overlapping matches the leftmost takes the text,
   then the earlier rule, as in one alternation of the rules, even when its value
   is rejected; but a rejected list item, or a rejected word that a label goes on
   after to its colon (``password confirmed working:``), leaves the text to the
   rules after it. A generic hit overlapping a specific one is dropped.

RE2 (``google-re2``) is used when present: linear time, and several times
faster than ``re``. It runs on the UTF-8 bytes of the text: given a ``str``,
its Python wrapper converts every match's byte offsets to character offsets
by counting from the previous match, which on an 8 MB sweep cost more than
the matching itself. Offsets are converted here, and only for a text that is
not ASCII. The stdlib engine is the fallback; both accept the rule syntax (no
look-around, scoped flags).
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memory_audit.analysis.fast_regex import compile_fast
from memory_audit.secrets.redact import fingerprint, redact, value_fingerprint
from memory_audit.secrets.rules import DFA_MEMORY, RE2_ERRORS, Rule, RuleSet, bytes_pattern
from memory_audit.secrets.tables import table_cells
from memory_audit.secrets.values import markers_before, plausible

try:
    import re2 as _re2
except ImportError:  # pragma: no cover - google-re2 is a dependency; a broken wheel: stdlib
    _re2 = None


# Sets of keywords found whose rules are kept worked out (a sweep finds some hundreds).
GROUPS_KEPT = 4096
# The kinds of rules that read a list's items under a heading of their kind (passwords, API
# keys): an item under the other kind's heading is no hit of theirs and takes no text, or a
# list of keys in a file that also names passwords would hide its keys
SECTION_KINDS = frozenset({"section", "token-section", "cookie-section"})
# A rejected word that a label goes on after, to its colon (``password confirmed working:
# "<value>"``: ``confirmed`` read as a bare-space value): no value, so it takes no text
# from the rule that reads the whole label
LABEL_GOES_ON = re.compile(r"(?: [^\s:=*`]{2,16})?\*{0,2} ?[:=：]")
# A label ending "is:" before a rejected value (``The wifi password is: <value>``): a key
# rule's, which takes only a key's shape there, leaves the text to the password rules
IS_LABEL = re.compile(r"(?i:\bis)\*{0,2}[ \t]*[:=：]\*{0,2}[ \t]*[\"'`]?$")
# A rejected value that is itself a password's label (``root@host / password `<value>```:
# a login pair's rule read the word as the password): no value, so it takes no text
LABEL_WORDS = frozenset({"password", "passwd", "pwd", "pass", "passcode", "密码", "口令"})
# A rejected word that opens a note on the password, its value after the note's colon or
# ``es``/``is`` (``Contraseña reseteada desde consola: <value>``): the rules after it read on
# ... or the system's name, its value in backticks right after (``Пароль Synology `<value>```)
NOTE_GOES_ON = re.compile(
    r"[^\n`.;:!?=：|#*]{0,44}?(?:[:：]| (?:es|is|ist|est|é|era|was) )|[ \t]+`(?=[^`\s]+`)"
)


@dataclass(frozen=True)
class _Groups:
    """The rules to run on a text: specific, generic and table rules."""

    specific: frozenset[int]
    generic: frozenset[int]
    tables: frozenset[int]


@dataclass(frozen=True)
class SecretMatch:
    """Where a possible secret is; never the secret itself."""

    rule: str
    label: str
    line: int
    start: int
    end: int
    redacted: str
    fingerprint: str  # of the rule and the value
    value_fingerprint: str  # of the value alone: the same whatever rule found it


def marked(match: SecretMatch, marks: frozenset[str]) -> bool:
    """Whether ``marks`` hold the match: under its value's fingerprint (whatever rule finds
    it), or under its rule's, as marks were saved before one value was one finding."""
    return match.value_fingerprint in marks or match.fingerprint in marks


class Scanner:
    def __init__(self, rules: RuleSet, salt: bytes) -> None:
        self.rules = rules.rules
        # each rule by its name, as a match names the rule that found it
        self.rules_by_name: Mapping[str, Rule] = {rule.name: rule for rule in self.rules}
        self.false_positives = rules.false_positives
        self._salt = salt
        self._keywords = sorted({k for r in self.rules for k in r.keywords})
        # the strings rules require: in the same set search, numbered after the keywords
        required = sorted({text for r in self.rules for text in r.requires})
        self._required = required
        number = {text: len(self._keywords) + n for n, text in enumerate(required)}
        self._requiring = {
            i: frozenset(number[text] for text in r.requires)
            for i, r in enumerate(self.rules)
            if r.requires
        }
        # the rules' gates: in the same search, numbered after the required strings
        self._gates = sorted({r.gate for r in self.rules if r.gate is not None})
        first_gate = len(self._keywords) + len(required)
        gate_number = {gate: first_gate + n for n, gate in enumerate(self._gates)}
        self._gated = {
            i: gate_number[r.gate] for i, r in enumerate(self.rules) if r.gate is not None
        }
        self._always = frozenset(i for i, r in enumerate(self.rules) if not r.keywords)
        # keyword -> the rules it lets run (with the keyword-less ones): a set union per file;
        # a required string lets none run by itself
        self._enabled_by = _enabled_by(self.rules, self._keywords, self._always)
        self._enabled_by += [self._always] * (len(required) + len(self._gates))
        self._requiring_rules = frozenset(self._requiring)
        self._gated_rules = frozenset(self._gated)
        self._keyword_set = _keyword_set(self._keywords, required, self._gates)
        # what the keyword search found -> the rules to run, in their three groups: texts
        # mostly find one of a few sets of keywords, each worked out once
        self._groups: dict[tuple[int, ...], _Groups | None] = {}
        # RE2 everywhere (the keyword set and the rules): the text is matched as bytes.
        self._bytes = _re2 is not None and (self._keyword_set is not None or not self._keywords)
        # A rule checked when loaded is compiled now (its pattern is cached: no cost); a
        # bundled one, which compiles in both engines, when a text first needs it.
        self._patterns: list[_Pattern | None]
        try:
            self._patterns = [
                _Pattern.of(r.regex, self._bytes) if r.checked else None for r in self.rules
            ]
        except RE2_ERRORS:  # a rule RE2 refuses: every rule in the stdlib engine, on text
            self._bytes = False
            self._patterns = [
                _Pattern.of(r.regex, False) if r.checked else None for r in self.rules
            ]
        self._specific = frozenset(i for i, r in enumerate(self.rules) if not r.generic)
        self._tables = frozenset(i for i, r in enumerate(self.rules) if r.table)
        self._generic = frozenset(range(len(self.rules))) - self._specific - self._tables

    def dismissed(self, match: SecretMatch) -> bool:
        """A recorded false positive (:func:`marked` among them)."""
        return marked(match, self.false_positives)

    def scan(self, text: str) -> list[SecretMatch]:
        """Every possible secret in ``text``, false positives included (callers decide).

        A text whose quotes are HTML entities (a chat exported from a web page:
        ``&quot;token&quot;: &quot;<value>&quot;``, a value's ``&`` as ``&amp;``) is read
        with its characters, as the rules know them; the matches' offsets are the text's own
        (a value holding an entity spans it as written, its fingerprint is of the character)."""
        if "&" in text:
            unescaped = _UnescapedEntities.of(text)
            if unescaped is not None:
                return [unescaped.shifted(match) for match in self._scan(unescaped.text)]
        return self._scan(text)

    def _scan(self, text: str) -> list[SecretMatch]:
        subject = _Subject(text, bytes_engine=self._bytes)
        groups = self._candidate_groups(subject)
        if groups is None:  # most texts of a sweep: no keyword, no rule that always runs
            return []
        specific = self._group_hits(subject, groups.specific)
        generic = self._group_hits(subject, groups.generic)
        # a generic hit on a specific one: dropped; a table's cell on either: dropped (hits
        # come sorted by start: a text with one kind of hit, or none, needs no merge)
        found = sorted(specific + _clear_of(generic, specific), key=_start) if generic else specific
        tables = self._table_hits(subject.text, groups.tables)
        return sorted(found + _clear_of(tables, found), key=_start) if tables else found

    def _table_hits(self, text: str, rules: frozenset[int]) -> list[SecretMatch]:
        """The cells of the columns the table rules name that hold a plausible value (the
        first rule naming a cell's column takes it)."""
        if not rules:
            return []
        indexes = sorted(rules)
        cells = table_cells(text, [self.rules[index].regex for index in indexes])
        hits = []
        lines = _LineCounter(text)
        for start, end, named in sorted(cells):
            rule = self.rules[indexes[named]]
            if plausible(rule, text, start, end):
                hits.append(self._match(rule, text, start, end, lines.line(start)))
        return hits

    def pattern(self, index: int) -> _Pattern:
        """The compiled pattern of the ``index``-th rule, compiled at its first use."""
        pattern = self._patterns[index]
        if pattern is None:
            pattern = self._patterns[index] = _Pattern.of(self.rules[index].regex, self._bytes)
        return pattern

    def _candidate_groups(self, subject: _Subject) -> _Groups | None:
        """The rules to run on a text, by group; None when there are none."""
        found = tuple(self._found(subject))
        if found in self._groups:
            return self._groups[found]
        if len(self._groups) >= GROUPS_KEPT:  # a daemon's scanner lives on: bounded
            self._groups.clear()
        groups = self._groups[found] = self._grouped(self._candidate_rules(found))
        return groups

    def _grouped(self, candidates: frozenset[int]) -> _Groups | None:
        if not candidates:
            return None
        return _Groups(
            candidates & self._specific, candidates & self._generic, candidates & self._tables
        )

    def _candidate_rules(self, found: Sequence[int]) -> frozenset[int]:
        if not found:
            candidates = self._always  # no keyword at all: only the rules that always run
        elif len(found) == 1:
            candidates = self._enabled_by[found[0]]
        else:
            candidates = self._always.union(*(self._enabled_by[n] for n in found))
        requiring = candidates & self._requiring_rules
        if requiring:  # a rule that requires a string the text lacks cannot match there
            candidates -= {i for i in requiring if self._requiring[i].isdisjoint(found)}
        gated = candidates & self._gated_rules
        if gated:  # nor a rule whose gate the text does not match
            present = set(found)
            candidates -= {i for i in gated if self._gated[i] not in present}
        return candidates

    def _found(self, subject: _Subject) -> Sequence[int]:
        """The numbers of the keywords (case-insensitive), then of the required strings
        (case-sensitive), then of the gates that occur in the text: one search for them all."""
        if self._keyword_set is not None:
            return self._keyword_set.Match(subject.data) or ()
        lowered = subject.text.lower()
        found = [n for n, k in enumerate(self._keywords) if k in lowered]
        start = len(self._keywords)
        found += [start + n for n, text in enumerate(self._required) if text in subject.text]
        start += len(self._required)
        return found + [
            start + n for n, gate in enumerate(self._gates) if re.search(gate, subject.text)
        ]

    def _group_hits(self, subject: _Subject, rules: frozenset[int]) -> list[SecretMatch]:
        """The hits of these rules as one alternation of them would find them: of overlapping
        matches the leftmost, then the earlier rule, takes the text, even when it is no
        secret (a phrase's disclaimed alternative, a placeholder): it hides the others,
        unless it leaves its text to them (:meth:`_yields`)."""
        if not rules:
            return []
        matches = [
            (m.start(), i, m) for i in rules for m in self.pattern(i).regex.finditer(subject.data)
        ]
        if not matches:  # most texts a rule runs on
            return []
        hits: list[SecretMatch] = []
        lines = _LineCounter(subject.text)
        reach = 0  # where the last match that took its text ends
        for start, index, match in sorted(matches, key=lambda m: m[:2]):
            if start >= reach:
                first = self._first_of_pair(subject, index, match, lines)
                if first is not None:
                    hits.append(first)
                hit = self._hit(subject, index, match, lines)
                if hit is not None:
                    hits.append(hit)
                elif first is None and self._yields(subject, index, match):
                    # a list's item it rejects (under another kind's heading, or a field, a
                    # placeholder), a label's word: the next rule may read it
                    continue
                reach = _claimed_end(match)
        return hits

    def _yields(self, subject: _Subject, index: int, match: Any) -> bool:
        """Whether a rejected match leaves its text to the rules after it: a list's item
        (:data:`SECTION_KINDS`), or a generic rule's value that a label goes on after or
        that is a label's word itself."""
        rule = self.rules[index]
        if rule.value in SECTION_KINDS:
            return True
        group = self.pattern(index).secret
        end = match.span(group)[1]
        if not rule.generic or end < 0:
            return False
        # the end only converted to a character offset (spans go forward: going back to the
        # value's start would decode the text from its start again, at each rejected value)
        after = subject.span((end, end))[1]
        if label_goes_on(subject.text, after):
            return True
        value = match.group(group)
        word = value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else value
        if word.isalpha() and NOTE_GOES_ON.match(subject.text, after):
            return True
        # a label saying what its value is (``The wifi password is: <value>``): a rule
        # reading keys' names after it took no key's shape there, a password's rule may
        label = match.group(0)[: match.start(group) - match.start(0)]
        if isinstance(label, bytes):
            label = label.decode("utf-8", "surrogatepass")
        return is_label_word(word) or IS_LABEL.search(label) is not None

    def _hit(
        self, subject: _Subject, index: int, match: Any, lines: _LineCounter
    ) -> SecretMatch | None:
        group = self.pattern(index).secret
        span = match.span(group if match.span(group)[0] >= 0 else 0)
        return self._plausible(subject, index, span, lines)

    def _first_of_pair(
        self, subject: _Subject, index: int, match: Any, lines: _LineCounter
    ) -> SecretMatch | None:
        """The ``first`` group of a rule that finds two secrets given together (``both
        `<one>` / `<two>` ``): a secret of its own, before the ``secret`` one."""
        group = self.pattern(index).first
        if group is None or match.span(group)[0] < 0:
            return None
        return self._plausible(subject, index, match.span(group), lines, first_of_pair=True)

    def _plausible(
        self,
        subject: _Subject,
        index: int,
        span: tuple[int, int],
        lines: _LineCounter,
        *,
        first_of_pair: bool = False,
    ) -> SecretMatch | None:
        """The match at ``span`` of the subject, unless its value is no plausible secret."""
        rule = self.rules[index]
        found = plausible_span(rule, subject.text, *subject.span(span), first_of_pair)
        if found is None:
            return None
        return self._match(rule, subject.text, *found, lines.line(found[0]))

    def _match(self, rule: Rule, text: str, start: int, end: int, line: int) -> SecretMatch:
        secret = text[start:end].strip()
        return SecretMatch(
            rule=rule.name,
            label=rule.label,
            line=line,
            start=start,
            end=end,
            redacted=redact(secret),
            fingerprint=fingerprint(rule.name, secret, self._salt),
            value_fingerprint=value_fingerprint(secret, self._salt),
        )


CLOSERS = (")", "）")
SENTENCE_STOPS = frozenset(".,;:!?。，；：！？")
OPENER_REACH = 60


def _unemphasized(text: str, start: int, end: int) -> tuple[int, int]:
    """A value set in bold (``password: **Test@2031**``, ``__...__``), or ending a bold
    run that opened earlier on its line (``**ops@host / Test@2031**``): the value, without
    the markers, which most rules' value classes take in (a password may hold ``*``)."""
    if end - start > 1 and text[end - 1] in CLOSERS and "(" not in text[start : end - 1]:
        # ``Twelvedata (API Key: <key>)``: the bracket the label opened, closed after the
        # value, is no character of it (read no further back than a label's reach)
        reach = max(0, start - OPENER_REACH)
        line_break = text.rfind("\n", reach, start)
        before = text[line_break + 1 if line_break >= 0 else reach : start]
        opened = max(before.rfind("("), before.rfind("（"))
        if opened > max(before.rfind(")"), before.rfind("）")):  # still open at the value
            return start, end - 1
    for marker in ("***", "**", "__"):  # bold italic first: its ``***`` holds ``**``
        width = len(marker)
        # the sentence's stop after the bold run (``not the default **a/b**.``)
        stopped = (
            text[end - 1 : end] in SENTENCE_STOPS and text[end - 1 - width : end - 1] == marker
        )
        stop = end - 1 if stopped else end
        if stop - start <= 2 * width or text[stop - width : stop] != marker:
            continue
        if text[start : start + width] == marker:
            return start + width, stop - width
        line_start = text.rfind("\n", 0, start) + 1
        if markers_before(text, line_start, start, marker) % 2:
            return start, stop - width
    return start, end


def plausible_span(
    rule: Rule, text: str, start: int, end: int, first_of_pair: bool = False
) -> tuple[int, int] | None:
    """The span of the value a rule's group took (:func:`value_span`) when it is a
    plausible secret; a value whose sentence's stop was taken off and then fails is judged
    again with it (``Password = <value>.``: a short value may need it), else None."""
    found = value_span(text, start, end)
    if plausible(rule, text, *found, first_of_pair=first_of_pair):
        return found
    whole = value_span(text, start, end, stop=False)
    if whole != found and plausible(rule, text, *whole, first_of_pair=first_of_pair):
        return whole
    return None


def value_span(text: str, start: int, end: int, *, stop: bool = True) -> tuple[int, int]:
    """The value a rule's group took, without what dresses it: bold markers, a URL query's
    next parameter, a sentence's stop (unless ``stop`` is false), a variable's name before
    ``=`` (``Token : `GANDI_API_TOKEN=<value>` ``)."""
    start, end = _unemphasized(text, start, end)
    end = _unqueried(text, start, end)
    if stop:
        start, end = _unstopped(text, start, end)
    return _unassigned(text, start, end)


# A URL query's next parameter (``&key=``), which a rule that reads to the next space takes,
# and a value that is a query parameter's own (``?pageToken=``, ``&accessToken=``)
NEXT_PARAMETER = re.compile(r"&[A-Za-z_][\w.-]{0,40}=")
QUERY_PARAMETER = re.compile(r"[?&][A-Za-z_][\w.-]{0,40}=\Z")


def _unqueried(text: str, start: int, end: int) -> int:
    """``?pageToken=<value>&key=$API_KEY``: a query parameter's value ends where the
    query's next parameter begins. Only a parameter's: a SAS token (``sp=r&sig=...``) or a
    password holding ``&x=`` keeps every character."""
    if QUERY_PARAMETER.search(text, max(0, start - 42), start) is None:
        return end
    following = NEXT_PARAMETER.search(text, start, end)
    return end if following is None or following.start() == start else following.start()


# A credential's name in capitals and "=", inside a value a label's rule took whole
ASSIGNED_NAME = re.compile(r"[A-Z][A-Z0-9_]*(?:TOKEN|KEY|SECRET|PASSWORD|PASS|PWD)=")


def _unassigned(text: str, start: int, end: int) -> tuple[int, int]:
    """``GANDI_API_TOKEN=<value>`` given after ``Token :``: the value is what follows the
    name's ``=``, so the same value written elsewhere alone is found as the same one."""
    name = ASSIGNED_NAME.match(text, start, end)
    if name is None or end - name.end() < 1:
        return start, end
    return name.end(), end


def _unstopped(text: str, start: int, end: int) -> tuple[int, int]:
    """A value that ends its sentence (``Password = <value>.`` at the line's end): the stop
    is no character of it, so the value is the one written elsewhere without it and one
    finding names both places. A value holding another ``.`` (a host, a version) keeps it."""
    if (
        end - start > 1
        and text[end - 1] == "."
        and text[end - 2].isalnum()
        and "." not in text[start : end - 1]
        and (end == len(text) or text[end].isspace())
    ):
        return start, end - 1
    return start, end


def is_label_word(value: str) -> bool:
    """Whether a rejected value is a password's label word (:data:`LABEL_WORDS`)."""
    return value.strip("\"'`*").lower() in LABEL_WORDS


def label_goes_on(text: str, end: int) -> bool:
    """Whether one more word or none, then a colon, follows a rejected value ending at
    ``end``: the value was a word of its label (:data:`LABEL_GOES_ON`)."""
    return LABEL_GOES_ON.match(text, end) is not None


def _start(match: SecretMatch) -> int:
    return match.start


def _clear_of(hits: list[SecretMatch], taken: list[SecretMatch]) -> list[SecretMatch]:
    """The ``hits`` that overlap none of ``taken`` (sorted, disjoint: each is inside a match
    that took its text), by bisection: a text with many hits of both kinds stays linear."""
    starts = [m.start for m in taken]
    clear = []
    for hit in hits:
        before = bisect.bisect_left(starts, hit.end) - 1  # the last one starting before it ends
        if before < 0 or taken[before].end <= hit.start:
            clear.append(hit)
    return clear


class _LineCounter:
    """Line numbers of offsets asked in increasing order (one pass over a group's hits),
    counted on from the last one asked: counting from the start for each hit made a text
    of many hits quadratic."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._offset = 0
        self._line = 1

    def line(self, offset: int) -> int:
        self._line += self._text.count("\n", self._offset, offset)
        self._offset = offset
        return self._line


# A quote written as an HTML entity, with its semicolon (one without it stays the text's: the
# value classifier reads ``<value>&quot`` and ``that&apos;s``), and the entities a page's
# export writes inside a value (``&amp;``, ``&lt;``, ``&gt;``)
ESCAPING_ENTITY = re.compile(
    r"&(?:quot|apos|#0*3[49]|#x0*2[27]|amp|#0*38|#x0*26|lt|#0*60|#x0*3c|gt|#0*62|#x0*3e);",
    re.IGNORECASE,
)


class _UnescapedEntities:
    """A text with its entity-written quotes (and ``&``, ``<``, ``>``) as characters, and
    offsets back to the text."""

    def __init__(self, text: str, at: list[int], shifts: list[int]) -> None:
        self.text = text
        self._at = at  # where each entity's character is in the unescaped text
        self._shifts = shifts  # how much longer the text is up to and with each entity

    @classmethod
    def of(cls, text: str) -> _UnescapedEntities | None:
        parts: list[str] = []
        at: list[int] = []
        shifts: list[int] = []
        done = shift = 0
        for found in ESCAPING_ENTITY.finditer(text):
            parts.append(text[done : found.start()])
            at.append(found.start() - shift)
            shift += len(found.group()) - 1
            shifts.append(shift)
            parts.append(_character(found.group()))
            done = found.end()
        if not at:
            return None
        parts.append(text[done:])
        return cls("".join(parts), at, shifts)

    def offset(self, offset: int) -> int:
        """The text's offset of an unescaped text's: a character's is its entity's start."""
        before = bisect.bisect_left(self._at, offset)  # the entities before the offset
        return offset + (self._shifts[before - 1] if before else 0)

    def shifted(self, match: SecretMatch) -> SecretMatch:
        return dataclasses.replace(
            match, start=self.offset(match.start), end=self.offset(match.end)
        )


def _character(entity: str) -> str:
    """The character an entity of :data:`ESCAPING_ENTITY` writes."""
    name = entity[1:-1].lower()
    if name.startswith("#x"):
        return chr(int(name[2:], 16))
    if name.startswith("#"):
        return chr(int(name[1:]))
    return NAMED_ENTITIES[name]


NAMED_ENTITIES = {"quot": '"', "apos": "'", "amp": "&", "lt": "<", "gt": ">"}


class _Subject:
    """A text as the engine sees it (UTF-8 bytes for RE2), and back to character offsets."""

    def __init__(self, text: str, *, bytes_engine: bool) -> None:
        self.text = text
        self.data: str | bytes = text.encode("utf-8", "surrogatepass") if bytes_engine else text
        self._same_offsets = not bytes_engine or text.isascii()
        self._known = (0, 0)  # a byte offset and its character offset, the last converted

    def span(self, span: tuple[int, int]) -> tuple[int, int]:
        if self._same_offsets:
            return span
        start = self._characters(span[0])
        return start, self._characters(span[1])

    def _characters(self, offset: int) -> int:
        """The character offset of a byte offset, decoded on from the last one converted
        (spans come in increasing order; decoding from the start each time was quadratic)."""
        assert isinstance(self.data, bytes)
        known_bytes, known_chars = self._known if offset >= self._known[0] else (0, 0)
        chars = known_chars + len(self.data[known_bytes:offset].decode("utf-8", "surrogatepass"))
        self._known = (offset, chars)
        return chars


def _enabled_by(
    rules: Sequence[Rule], keywords: list[str], always: frozenset[int]
) -> list[frozenset[int]]:
    """For each keyword, the rules it lets run (with the keyword-less ones): one pass over
    the rules' keywords, not one over the rules for each keyword."""
    numbers = {keyword: number for number, keyword in enumerate(keywords)}
    enabled: list[set[int]] = [set(always) for _ in keywords]
    for index, rule in enumerate(rules):
        for keyword in rule.keywords:
            enabled[numbers[keyword]].add(index)
    return [frozenset(rules_run) for rules_run in enabled]


def _keyword_set(keywords: Sequence[str], required: Sequence[str], gates: Sequence[str]) -> Any:
    if _re2 is None or not (keywords or required or gates):
        return None
    options = _re2.Options()
    options.case_sensitive = False
    options.max_mem = DFA_MEMORY  # a gate counts characters: room for its states
    keyword_set = _re2.Set.SearchSet(options)
    for keyword in keywords:
        keyword_set.Add(re.escape(keyword))
    for text in required:
        keyword_set.Add(f"(?-i:{re.escape(text)})")
    for gate in gates:
        keyword_set.Add(f"(?-i:{gate})")  # as written: its own (?i:...) parts only
    keyword_set.Compile()
    return keyword_set


def _name(key: str | bytes) -> str:
    return key.decode() if isinstance(key, bytes) else key


def _claimed_end(match: Any) -> int:
    """Where the text a match takes ends: not at the whitespace that closes its value, which
    the next line's match may open with (a line ending ``ops / <one>``, the next
    ``Administrator / <two>``: the line break closes the first and opens the second)."""
    end: int = match.end()
    last = match.group(0)[-1:]
    return end - 1 if last in WHITESPACE else end


WHITESPACE = frozenset({" ", "\t", "\n", "\r", b" ", b"\t", b"\n", b"\r"})


@dataclass(frozen=True)
class _Pattern:
    """A rule's compiled pattern and the number of its ``secret`` group (0: the whole match),
    and of its ``first`` group if it has one (the first of two secrets given together)."""

    regex: Any
    secret: int
    first: int | None = None

    @classmethod
    def of(cls, source: str, as_bytes: bool) -> _Pattern:
        regex = bytes_pattern(source) if as_bytes else compile_fast(source)
        numbers = {_name(key): number for key, number in regex.groupindex.items()}
        return cls(regex, numbers.get("secret", 0), numbers.get("first"))
