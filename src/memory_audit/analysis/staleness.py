"""Reading staleness out of a body: finished-work status lines and dated "as of" claims."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from memory_audit.analysis.dated_series import DATE_IN_NAME
from memory_audit.analysis.dates import parse_date
from memory_audit.analysis.fast_regex import lines_matching

# A marker is read on its own line: the white space around it does not run on into the next
# lines (``\s*`` did: from each line start of 100,000 blank lines, all of them were walked
# again: quadratic), and "done" with white space after it has one way to reach the line's end.
DONE = re.compile(
    r"^[^\S\n]*(?:[-*+][^\S\n]*)?(?:\[[xX]\]|[✓✔✅☑]|~~)"
    r"|\b(?:done|shipped|merged|completed|finished|landed|released)\b[^\S\n]*(?:[.)][^\S\n]*)?$"
    r"|[(:—-]\s*(?:done|shipped|merged|completed)\b(?![.-]\w)|[✓✔✅]",  # not verify-done.sh
    re.I | re.M,
)
OPEN = re.compile(
    r"^[^\S\n]*(?:[-*+][^\S\n]*)?(?:\[ \]|☐|todo\b|wip\b|next\b)"
    r"|\b(?:in progress|pending|blocked|not started)\b",
    re.I | re.M,
)
# Every OPEN and DONE match holds one of these, as IGNORECASE compares (see ``folded``).
OPEN_WORDS = ("[ ]", "☐", "todo", "wip", "next", "in progress", "pending", "blocked", "not started")
DONE_WORDS = (
    *("[x]", "✓", "✔", "✅", "☑", "~~", "done", "shipped", "merged", "completed", "finished"),
    *("landed", "released"),
)
# Characters IGNORECASE takes for an ASCII letter that str.lower() does not turn into one
# (dotted and dotless i, long s); İ must go first, lower() makes it two characters.
FOLD_TO_ASCII = (("İ", "i"), ("ı", "i"), ("ſ", "s"))
CLOSED = re.compile(
    r"\b(?:complete[d]?|resolved|superseded|done|shipped|fixed|closed|merged|finished|retired"
    r"|shelved|abandoned|cancell?ed|dropped|parked"
    # an end recorded with its date: "status: uninstalled 2026-04-18" stays true
    r"|uninstalled|removed|deleted|deprecated|archived|decommissioned|migrated|replaced)\b",
    re.I,
)
MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTHS = {m: i for i, m in enumerate(MONTH_NAMES, start=1)}
DATE = (
    r"(?P<iso>\d{4}-\d{2}(?:-\d{2})?)"
    rf"|(?P<month>{'|'.join(MONTH_NAMES)})[a-z]*\.?\s+(?:(?P<day>\d{{1,2}}),?\s+)?(?P<year>\d{{4}})"
    rf"|(?P<day2>\d{{1,2}})\s+(?P<month2>{'|'.join(MONTH_NAMES)})[a-z]*\.?\s+(?P<year2>\d{{4}})"
)
CURRENT = re.compile(
    r"\b(?P<word>as of|as at|state of play|current(?:ly)?|status|right now)\b"
    rf"[^.\n]{{0,40}}?(?:{DATE})",
    re.I,
)


# What after a CURRENT match's word makes it code: ``status='2'``
CODE_AFTER = tuple("='\"_`")
# A capitalised constant's name before a lower-case word: ``STATUS namespace``
NAMED_BY_CAPITALS = re.compile(r"STATUS [a-z]")
# ``as of the 2026-05-28 pivot``: since an event, a lasting change
SINCE_EVENT = re.compile(r"\bas (?:of|at) the\s", re.I)
# An event right before the date (``installed 2026-04-04``, ``verified 2026-04-13``,
# ``pushed to origin 2026-05-12``, ``(after 2026-04-11 fix)``) or before ``as of`` (``LIVE as
# of``, ``wired in as of``, ``Migration complete as of``): when a lasting state began, or an
# end reached, true since; no status dated as current. Not "since": "blocked since <date>" is
# a state dated as current.
SINCE_STARTED = re.compile(
    r"\b(?<!still )(?:live|wired(?: in)?|installed|verified|pushed(?: to [\w/.-]+)?|deployed"
    r"|released|launched|enabled|introduced|created|set up|configured|linked|went live|in place"
    r"|in effect|effective|after"
    # an end reached by then (``Migration complete as of``, ``Auth fully working as of``)
    r"|complete[d]?|finished|done|fixed|resolved|shipped|merged|migrated|fully working)"
    r"[\s*_]*[:(—–-]?[\s*_]*$",
    re.I,
)
NEGATED = re.compile(r"(?i)\b(?:not|never|yet to be|n't)[\s*_]*$|n't[\s*_]*$")
BEFORE_AS_OF = 30  # characters before ``as of`` read for the event
# A state dated in its heading (``CURRENT STATE (verified 2026-07-09)``, ``Status (deployed
# 2026-04-10): broken on mobile``): a claim of the present, whatever happened on the date.
STATE_CHECKED = re.compile(r"\b(?:state|status)\b[\s*_:]*(?:[(\[]|(?:verified|checked)\b)", re.I)
# Words that keep what follows open: ``as of 2026-07-22: reader code NOT merged yet``
NOT_YET = re.compile(r"\b(?:not|yet|never)\b|n't\b", re.I)
# How far after the date an end it records is read: ``(2026-06-14): Bug 1 FIXED``
AFTER_DATE = 80
# A dated note's "as of" within a month of its name's date frames when it was written
# (a month named alone stands for its last day: "as of July 2026" in a note of July 5)
OWN_FRAME_DAYS = 31
# A dated claim in a project no commit changed for a month after it is as current as the
# project (of 21 held-out "as of" findings judged false, 15 were in such projects: audit
# baselines written on the day of the last commit; of 16 judged true, 5)
MOVED_ON_DAYS = 30
# Every CURRENT match holds one of these, as IGNORECASE compares (see ``folded``).
CURRENT_WORDS = ("as of", "as at", "state of play", "current", "status", "right now")


def finished_work(lines: Sequence[str], ratio: float) -> str | None:
    """Status lines mostly done? A line with an open marker counts as open.

    Two passes over the whole body (not two calls per line): the markers are rare.
    """
    body = "\n".join(lines)
    words = folded(body)
    open_lines = status_lines(body, OPEN) if any(w in words for w in OPEN_WORDS) else set()
    done_lines = status_lines(body, DONE) if any(w in words for w in DONE_WORDS) else set()
    done_lines -= open_lines
    if open_lines or done_lines:
        # A table row is a cell of a matrix ("Search | ✅"), a code block a listing: what
        # exists, not a history of finished steps.
        listed = not_status(lines)
        open_lines -= listed
        done_lines -= listed
    done, total = len(done_lines), len(done_lines) + len(open_lines)
    if total >= 3 and done / total >= ratio:
        return f"body is mostly finished work ({done} of {total} status lines done)"
    return None


def not_status(lines: Sequence[str]) -> set[int]:
    """The 0-based lines that are table rows or inside fenced code blocks."""
    found: set[int] = set()
    fence = ""
    for number, text in enumerate(lines):
        stripped = text.lstrip()
        if fence:
            found.add(number)
            if stripped.startswith(fence):
                fence = ""
        elif stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            found.add(number)
        elif stripped.startswith("|"):
            found.add(number)
    return found


def folded(text: str) -> str:
    """``text`` lower-cased so that a word IGNORECASE finds in it is in the result as
    written in lower case, character for character (tests/analysis/test_staleness.py
    checks every code point)."""
    for character, ascii_letter in FOLD_TO_ASCII:
        text = text.replace(character, ascii_letter)
    return text.lower()


def status_lines(body: str, pattern: re.Pattern[str]) -> set[int]:
    """The 0-based lines holding a match."""
    return set(lines_matching(pattern, body, 0))


def stale_as_of(
    lines: Sequence[str],
    first_line: int,
    today: dt.date,
    days: int,
    written: dt.date | None = None,
    changed: dt.date | None = None,
) -> tuple[int, str] | None:
    """A dated claim framed as current; "Status: resolved 2026-08-05" is a record, not one.
    ``written``: the date a dated note carries in its name; a claim within a month of it is
    the note's own frame ("as of July 2026" in ``mcp-refresh-2026-07-05.md``). A name dated
    after today frames nothing (a launch note named for its deadline). ``changed``: the day
    the note's project last changed; a claim is stale only once the project's commits went
    on for more than :data:`MOVED_ON_DAYS` after it."""
    # Each line is searched on its own, so only the lines holding a word every match holds
    # need the search; folding keeps every character in its place, line breaks included.
    found = folded("\n".join(lines)).split("\n")
    held = [i for i, text in enumerate(found) if any(word in text for word in CURRENT_WORDS)]
    # A status dated before another of the same memory is its history, superseded there
    # ("STATUS (2026-07-14): everything queued is shipped" above "STATUS (2026-07-05): …"):
    # only a claim as new as the newest dated status of the file is the present's.
    newest: dt.date | None = None
    claims: list[tuple[int, re.Match[str], dt.date]] = []
    for at in held:
        text = lines[at]
        for match in CURRENT.finditer(text):
            when = _date(match)
            if when is None:
                continue
            if when <= today and _a_status(text, match):  # not a deadline, code or a link
                newest = when if newest is None else max(newest, when)
            if CLOSED.search(match.group(0)) or _no_claim(text, match):
                continue
            if _own_frame(when, written, today):
                continue
            if (today - when).days > days and _moved_on(when, changed):
                claims.append((first_line + at, match, when))
    for number, match, when in claims:
        if newest is not None and when >= newest:
            return number, _said(match, when, today, changed)
    return None


def _said(match: re.Match[str], when: dt.date, today: dt.date, changed: dt.date | None) -> str:
    said = f"'{match.group(0).strip()}' ({(today - when).days} days ago) as if current"
    if changed is not None:
        said += f"; the project's commits went on {(changed - when).days} days after it"
    return said


def _moved_on(when: dt.date, changed: dt.date | None) -> bool:
    """The project changed for more than a month after ``when`` (no project read: yes)."""
    return changed is None or (changed - when).days > MOVED_ON_DAYS


def _own_frame(when: dt.date, written: dt.date | None, today: dt.date) -> bool:
    """``when`` is within a month of the date the note's name carries, a date not after
    today: the note says when it was written, not that it is still current."""
    return written is not None and written <= today and abs((when - written).days) <= OWN_FRAME_DAYS


def date_in_name(path: str) -> dt.date | None:
    """The date a note's file name carries (``dotnet-migration-2026-08-10.md``), or None."""
    found = DATE_IN_NAME.search(path.rpartition("/")[2])
    if found is None:
        return None
    digits = re.sub(r"\D", "", found.group(0))
    return parse_date(f"{digits[:4]}-{digits[4:6]}-{digits[6:8]}")


def dated_as_current(
    lines: Sequence[str], first_line: int, today: dt.date, days: int
) -> tuple[int, str] | None:
    """A dated claim framed as current, line by line (for lines read alone: an index's);
    :func:`stale_as_of` reads a whole body, where a newer dated status supersedes it."""
    for number, text in enumerate(lines, start=first_line):
        for match in CURRENT.finditer(text):
            if CLOSED.search(match.group(0)) or _no_claim(text, match):
                continue
            when = _date(match)
            if when is not None and (today - when).days > days:
                return number, f"'{match.group(0).strip()}' ({(today - when).days} days ago)"
    return None


def _no_claim(text: str, match: re.Match[str]) -> bool:
    """The words and the date make no dated claim of the present: they cross a wikilink
    (``[[...-status]] and [[...-2026-06]]``); the word is code or a name (``status='2'``,
    ``STATUS namespace``); ``as of the <date> <event>`` says since when; or the words
    just after the date record an end (``STATUS (2026-06-14): Bug 1 FIXED``)."""
    found = match.group(0)
    if not _a_status(text, match):
        return True
    if SINCE_EVENT.search(found) or _since_started(text, match):
        return True
    after = text[match.end() : match.end() + AFTER_DATE]
    still_open = OPEN.search(after) or NOT_YET.search(after)  # "NOT merged yet"
    return CLOSED.search(after) is not None and still_open is None


def _a_status(text: str, match: re.Match[str]) -> bool:
    """Whether the words and the date state something dated at all: not across a wikilink
    (``[[...-status]] and [[...-2026-06]]``), nor code or a name (``status='2'``, ``STATUS
    namespace``), nor since an event (``as of the <date> pivot``)."""
    found = match.group(0)
    if "[[" in found or "]]" in found or SINCE_EVENT.search(found):
        return False
    word_end = match.end("word")
    code = text[word_end : word_end + 1] in CODE_AFTER
    return not (code or NAMED_BY_CAPITALS.match(text, match.start()))


def _since_started(text: str, match: re.Match[str]) -> bool:
    date_at = next(match.start(g) for g in ("iso", "month", "day2") if match.group(g))
    if STATE_CHECKED.search(text, match.start(), date_at):
        return False
    if _event(text, match.start(), date_at):
        return True
    if match.group("word").lower() not in ("as of", "as at"):
        return False  # "Live status as of ...": the status is the claim
    return _event(text, max(0, match.start() - BEFORE_AS_OF), match.start())


def _event(text: str, start: int, end: int) -> bool:
    """An event right before ``end`` (SINCE_STARTED), not negated: "NOT fixed as of" and
    "not done as of" still claim an open state."""
    event = SINCE_STARTED.search(text, start, end)
    return event is not None and not NEGATED.search(text, max(0, event.start() - 12), event.start())


def _date(match: re.Match[str]) -> dt.date | None:
    groups = match.groupdict()
    try:
        if groups["iso"]:
            parts = [int(p) for p in groups["iso"].split("-")]
            return (
                dt.date(parts[0], parts[1], parts[2])
                if len(parts) == 3
                else _month_end(parts[0], parts[1])
            )
        month = groups["month"] or groups["month2"]
        year = int(groups["year"] or groups["year2"])
        day = groups["day"] or groups["day2"]
        number = MONTHS[month.lower()[:3]]
        return dt.date(year, number, int(day)) if day else _month_end(year, number)
    except (ValueError, TypeError, KeyError):
        return None


def _month_end(year: int, month: int) -> dt.date:
    following = dt.date(year + month // 12, month % 12 + 1, 1)
    return following - dt.timedelta(days=1)
