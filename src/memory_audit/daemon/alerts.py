"""On-change alerts: a secret landing in a memory file, an index crossing its budget.

The budget is Claude Code's own cut (``tree.load_budget``): the alert fires when
a session would receive MEMORY.md truncated, with the warning appended.

Each (tree, file, secret) alerts once ever (keyed by the secret's salted
fingerprint), unless dismissed or recorded as a false positive. Alerts that
arrive together are coalesced into one notification ("3 possible secrets in
2 files"); alerts held back by the rate limit wait for the next window, and
alerts no notification server accepted are sent again later (with backoff,
across restarts), so nothing is lost. Every alert is logged when raised.
MEMORY.md alerts once each time it crosses its budget.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from memory_audit.daemon.clock import Clock, local_now
from memory_audit.daemon.known_secrets import KnownSecrets
from memory_audit.model.undecodable import escaped
from memory_audit.model.visible import visible
from memory_audit.notify import Notifier
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.fetched_pages import fetched_page_host, page_kind
from memory_audit.secrets.file_text import rules_text
from memory_audit.secrets.grown_files import GrownFiles, Seen
from memory_audit.secrets.published import chosen, chosen_values
from memory_audit.secrets.repeats import RULE as REPEAT
from memory_audit.secrets.retired import retired_marker
from memory_audit.secrets.rules import Rule
from memory_audit.secrets.scanner import Scanner, SecretMatch, marked
from memory_audit.secrets.skill_defaults import a_skill_default
from memory_audit.secrets.test_passwords import a_test_password, local_only
from memory_audit.store.state import State
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.load_budget import CHAR_LIMIT, LINE_LIMIT, LoadedIndex, load_index
from memory_audit.tree.snapshot import other_limit
from memory_audit.tree.walk import (
    IGNORED_TOP_LEVEL,
    PACKAGE_FOLDERS,
    UNREAD_HIDDEN,
    binary_at_start,
    read_as_other,
    read_text,
)

log = logging.getLogger("memory_audit.daemon")
SHOWN_LINES = 3


@dataclass(frozen=True)
class Alert:
    key: str
    kind: str  # "secret" | "budget"
    root: str
    path: str
    text: str  # one line, already redacted


def relative_in_tree(path: Path, root: Path) -> str | None:
    """The tree path of a changed file, or None when it is not something we scan: a file
    the audit reads, a memory or one that is no memory (no Markdown, or hidden: the secret
    rules read its text alone, as the audit does)."""
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        return None
    parts = rel.split("/")
    if (
        any(p in UNREAD_HIDDEN for p in parts)
        or parts[0] in IGNORED_TOP_LEVEL
        or any(p in PACKAGE_FOLDERS for p in parts[:-1])
    ):
        return None
    return rel


def _limit(rel: str, max_bytes: int) -> int:
    """The size read of a changed file: the index whole, any other as far as the audit
    reads it for secrets (a memory too large to read whole as one too)."""
    return 64 * 1024 * 1024 if rel == INDEX_NAME else other_limit(max_bytes)


def _outside_the_walk(path: Path, root: Path, rel: str) -> bool:
    """Whether the audit's walk would not read this file: its real place is outside the
    tree (through a symlinked folder), or a hidden folder on its way is a symlink (the walk
    follows none there)."""
    real_root = os.path.realpath(root)
    if not os.path.realpath(path).startswith(real_root + os.sep):
        return True
    parts = rel.split("/")[:-1]
    hidden = next((i for i, part in enumerate(parts) if part.startswith(".")), None)
    return hidden is not None and any(
        os.path.islink(os.path.join(root, *parts[: i + 1])) for i in range(hidden, len(parts))
    )


@dataclass(frozen=True)
class FileScan:
    """What a changed file holds, read off the loop (no state touched)."""

    root: Path
    rel: str
    matches: tuple[SecretMatch, ...]
    index_load: LoadedIndex | None  # what of MEMORY.md a session receives
    # the tree and the file as alerts show them: a secret in a name masked
    shown_root: str = ""
    shown_rel: str = ""
    name_matches: tuple[SecretMatch, ...] = ()  # secrets in the file's or a folder's name
    # fingerprint -> value of the matches a repository could publish (secrets.published.chosen),
    # kept only until the batch's lookup; never shown, compared or stored
    chosen: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    # the secrets the tree's repository publishes: suggestions in the audit, so no alert
    published: frozenset[str] = frozenset()
    # places repeating a secret the rules found elsewhere in the tree (rule repeated-credential)
    repeats: tuple[SecretMatch, ...] = ()
    # values the file records as no longer valid (``old password``, ``revoked``): suggestions
    # in the audit, so no alert
    retired: frozenset[str] = frozenset()
    # test or demo passwords by their own words (``demo1234``): suggestions, no alert
    tests: frozenset[str] = frozenset()
    # the lines of this file holding each chosen value (a repeat's own line, keyed by the
    # match that first found its value), and the file's text: what the batch's lookup reads
    # to tell a published value the note places on a live system (in production, on
    # another machine), a problem as in the audit; both dropped after the lookup, never
    # shown, compared or stored
    chosen_lines: Mapping[str, tuple[int, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )
    text: str = field(default="", repr=False, compare=False)
    # of a file read through a GrownFiles: its key and what was read, kept by the caller
    # once the scan's alerts are raised (a batch lost is read again with the next change)
    read: tuple[str, Seen] | None = field(default=None, repr=False, compare=False)


def scan_file(
    path: Path,
    root: Path,
    scanner: Scanner,
    max_bytes: int,
    shown_root: str | None = None,
    known: KnownSecrets | None = None,
    *,
    grown: GrownFiles | None = None,
) -> FileScan | None:
    """One changed file's possible secrets; ``shown_root``: the tree as alerts show it, when
    the caller scans many files of one tree (it is the same for all of them); ``known``:
    the secrets the tree holds, whose bare repeats in the file alert too; ``grown``: what
    the caller read of its files before (a log that only grew is read where it grew)."""
    rel = relative_in_tree(path, root)
    if rel is None or _outside_the_walk(path, root, rel):
        return None
    if read_as_other(rel) and binary_at_start(path):  # an image, a database: never read whole
        return None
    result = read_text(path, _limit(rel, max_bytes))
    if result.text is None:
        return None
    loaded = load_index(result.disk_text) if rel == INDEX_NAME else None
    # the text as the rules read it (a string's escapes blanked in a file that is no
    # Markdown: the same places), as the audit reads it; of a log, what it appended
    read: tuple[str, Seen] | None = None
    if grown is not None and read_as_other(rel):
        text, seen = grown.read(str(path), rel, result.text, scanner)
        read = (str(path), seen)
    else:
        text = rules_text(rel, result.text)
    matches = tuple(scanner.scan(text))
    repeats = tuple(known.repeats(text, matches)) if known is not None else ()
    # each match here with the match that first found its value (itself, or a repeat's
    # original elsewhere in the tree) and the value
    here = [(m, (m, text[m.start : m.end])) for m in matches]
    if known is not None:
        here += [(repeat, known.original(text, repeat)) for repeat in repeats]
    chosen = chosen_values(scanner, [first for _, first in here])
    chosen_lines: dict[str, tuple[int, ...]] = {}
    for match, (first, _) in here:
        if first.fingerprint in chosen:
            chosen_lines[first.fingerprint] = (*chosen_lines.get(first.fingerprint, ()), match.line)
    retired = frozenset(
        m.value_fingerprint
        for m in (*matches, *repeats)
        if retired_marker(text, m.start, m.end) is not None
    )
    tests = _quiet_values(scanner, rel, text, (*matches, *repeats))
    # One name a line, without ".md" (as the audit reads names: secrets/boundary.py).
    names = tuple(scanner.scan("\n".join(p.removesuffix(".md") for p in rel.split("/"))))
    # A name that is not UTF-8 is shown (and keyed, and stored) as its escaped bytes.
    rel = escaped(rel)
    root_shown = shown_root if shown_root is not None else shown_path(scanner, str(root))
    shown = (root_shown, shown_path(scanner, rel))
    return FileScan(
        root,
        rel,
        matches,
        loaded,
        *shown,
        name_matches=names,
        chosen=chosen,
        repeats=repeats,
        retired=retired,
        tests=tests,
        chosen_lines=chosen_lines,
        text=text if chosen else "",
        read=read,
    )


def _quiet_values(
    scanner: Scanner, rel: str, text: str, matches: Sequence[SecretMatch]
) -> frozenset[str]:
    """The values that are suggestions in the audit by their places in this file, so raise
    no alert: a test or demo password by its own words, a value in a page an agent's web
    fetch recorded, or a person's password a skill's
    documentation gives as its default, or a key used only with a server on this machine,
    at every place the file holds it (the audit asks every place in the tree: one place in
    the user's own notes keeps it a problem). One
    reason at every place, as the audit asks: a test login at one place and a skill's
    default at another is neither, and a problem."""
    rules = scanner.rules_by_name
    tests: dict[str, bool] = {}
    defaults: dict[str, bool] = {}
    pages: dict[str, bool] = {}
    starts: dict[str, list[tuple[int, int]]] = {}  # a value's places, to ask whether all are local
    found: dict[str, tuple[Rule, str]] = {}  # a value's rule and text, for local_only
    for m in matches:
        rule = rules.get(m.rule)
        default = (
            rule is not None
            and chosen(rule, text[m.start : m.end].strip())
            and a_skill_default(rel, text, m.start, m.line) is not None
        )
        test = a_test_password(text, m.start, m.end, m.line)
        # a page's text an agent's web fetch recorded: the site's value, as the audit reads it
        page = page_kind(rule) and fetched_page_host(text, m.start) is not None
        tests[m.value_fingerprint] = tests.get(m.value_fingerprint, True) and test
        defaults[m.value_fingerprint] = defaults.get(m.value_fingerprint, True) and default
        pages[m.value_fingerprint] = pages.get(m.value_fingerprint, True) and page
        starts.setdefault(m.value_fingerprint, []).append((m.start, m.line))
        if rule is not None:
            found.setdefault(m.value_fingerprint, (rule, text[m.start : m.end].strip()))
    return frozenset(
        value
        for value, test in tests.items()
        if test
        or defaults[value]
        or pages[value]
        or (value in found and local_only(*found[value], ((text, *s) for s in starts[value])))
    )


def shown_path(scanner: Scanner, path: str) -> str:
    """A path as alerts and the state show it: a secret in a file, folder or project name
    masked. Of the path alone, so a tree's key in the state is the same at every scan."""
    return Boundary.for_names(scanner, [path]).path(path)


def alerts_for(scan: FileScan, state: State, ignored: frozenset[str]) -> list[Alert]:
    """New alerts from one scan: secrets never alerted before, and a budget crossing."""
    found = _name_alerts(scan, state, ignored)
    raised: list[str] = []
    # One value is one finding, whatever rules match it: one alert, at its first match, and
    # none when it is ignored (or published) at any of them.
    by_value: dict[str, list[SecretMatch]] = {}
    for match in (*scan.matches, *scan.repeats):
        by_value.setdefault(match.value_fingerprint, []).append(match)
    for matches in by_value.values():
        # A secret the tree's repository publishes, or one the file records as no longer
        # valid, is a suggestion in the audit: suggestions never notify. A secret a session
        # transcript alerted for already: one alert, not two.
        if _a_suggestion(scan, matches, ignored):
            continue
        known = secret_fingerprints(matches)  # as the transcript follower notes and asks
        if any(state.secret_source(fingerprint) == "transcript" for fingerprint in known):
            continue
        # Keyed by the rule of its first match, which changes when another rule finds the
        # value there later (a bare repeat, then ``Bearer <value>``): alerted under any of
        # its matches' keys, the file was alerted for the value.
        keys = [_secret_key(scan, m.fingerprint) for m in matches]
        if not any(state.alerted(key) for key in keys):
            match = matches[0]
            shown = scan.shown_rel or scan.rel
            text = f"{shown}:{match.line} {match.label} {match.redacted}"
            if match.rule == REPEAT:
                text += " (repeated)"
            found.append(Alert(keys[0], "secret", scan.shown_root or str(scan.root), shown, text))
            raised += known
    if raised:
        state.note_secrets(raised, "memory", local_now())
    if scan.index_load is not None:
        crossing = _budget_crossing(scan, scan.index_load, state)
        if crossing is not None:
            found.append(crossing)
    return found


def _a_suggestion(scan: FileScan, matches: list[SecretMatch], ignored: frozenset[str]) -> bool:
    """Whether the value is one the audit does not count as a problem: marked as a false
    positive, published by the tree's repository, recorded here as no longer valid, or a
    test or demo password by its own words."""
    if matches[0].value_fingerprint in scan.retired | scan.tests:
        return True
    return any(marked(m, ignored) or m.fingerprint in scan.published for m in matches)


def _name_alerts(scan: FileScan, state: State, ignored: frozenset[str]) -> list[Alert]:
    """A secret in the file's name, or a folder's it is in: once per file and secret."""
    found = []
    shown = scan.shown_rel or scan.rel
    for match in scan.name_matches:
        key = _secret_key(scan, "name", match.fingerprint)
        if not marked(match, ignored) and not state.alerted(key):
            text = f"{shown}: the name holds a possible {match.label} {match.redacted}"
            found.append(Alert(key, "secret", scan.shown_root or str(scan.root), shown, text))
    return found


def secret_fingerprints(matches: Sequence[SecretMatch]) -> list[str]:
    """What the state notes of a value that alerted, and what it is asked for: its matches'
    rule fingerprints and the value's own (a transcript's rule may differ from memory's)."""
    rules = [m.fingerprint for m in matches]
    return list(dict.fromkeys([*rules, *(m.value_fingerprint for m in matches)]))


def _secret_key(scan: FileScan, *parts: str) -> str:
    """The state's key of a secret alert in one file (of its name: ``"name"`` first)."""
    return hashlib.sha256("\x1f".join([str(scan.root), scan.rel, *parts]).encode()).hexdigest()[:32]


def _budget_crossing(scan: FileScan, loaded: LoadedIndex, state: State) -> Alert | None:
    over = loaded.cut
    root = scan.shown_root or str(scan.root)
    if over == state.over_budget(root):
        return None
    state.set_over_budget(root, over)
    if not over:
        return None  # back under budget: the next crossing alerts again
    # Each crossing alerts anew: its key is unique (never the time, which a clock can repeat).
    crossing = secrets.token_hex(16)
    key = hashlib.sha256(f"{scan.root}\x1fbudget\x1f{crossing}".encode()).hexdigest()[:32]
    shown = Path(scan.shown_root or scan.root)
    name = shown.parent.name or str(shown)
    text = (
        f"{name}: MEMORY.md is {loaded.lines} lines, {loaded.chars:,} characters; sessions "
        f"see only its first {loaded.kept_lines} lines (limits: {LINE_LIMIT} lines, "
        f"{CHAR_LIMIT:,} characters)"
    )
    return Alert(key, "budget", str(shown), INDEX_NAME, text)


class AlertCenter:
    """Collects alerts and sends them as one notification after a short quiet window.

    An alert is recorded as sent only once a notification server accepted it.
    Until then it stays pending, in memory and in the state (a restart sends it
    again): the next attempt comes after the next delay of ``retry_seconds``
    (the last one repeats), or sooner with a fresh alert, but never within the
    first delay of a failed attempt, so a missing server is not asked in a loop.
    """

    def __init__(
        self,
        state: State,
        notifier: Notifier,
        coalesce_seconds: float,
        opens: Callable[[], Path | None],
        retry_seconds: tuple[float, ...] = (10.0,),
        *,
        clock: Clock = local_now,
        mask: Callable[[str], str] | None = None,
    ) -> None:
        self.state = state
        self.clock = clock
        # Every alert's text passes the secret rules: a tree or file named by a secret
        # (a mass deletion names its project) is shown masked in the notification and log.
        self.mask = mask
        self.notifier = notifier
        self.coalesce_seconds = coalesce_seconds
        self.opens = opens
        self.retry_seconds = retry_seconds or (10.0,)
        self._pending: dict[str, Alert] = {}
        self._in_flight: set[str] = set()  # keys being sent: a re-scan must not queue them again
        self._flush: asyncio.TimerHandle | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._failures = 0  # attempts in a row that no server accepted
        self._failed_at: float | None = None  # loop time of the last of them

    def take_over(self, previous: AlertCenter) -> None:
        """Carry on ``previous``'s work after a reload built this one.

        Its waiting alerts move here; the keys it is sending stay excluded (the set
        is shared, so its send in progress still clears them when done).
        """
        if previous._flush is not None:
            previous._flush.cancel()
            previous._flush = None
        self._in_flight = previous._in_flight
        self._failures, self._failed_at = previous._failures, previous._failed_at
        waiting, previous._pending = list(previous._pending.values()), {}
        self._queue(waiting)

    def start(self) -> None:
        """Inside the running loop: send again what an earlier process raised and no server
        accepted."""
        self.resume()

    def stop(self) -> None:
        """No further send; what waits stays held in the state for the next start."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None

    def resume(self) -> None:
        """Send again what an earlier process raised and no server accepted."""
        self._queue([Alert(*row) for row in self.state.held_alerts()])

    def add(self, alerts: list[Alert]) -> None:
        """New alerts: logged and kept in the state at once, sent after the quiet window."""
        alerts = [self._masked(a) for a in alerts]
        fresh = [a for a in alerts if a.key not in self._in_flight and a.key not in self._pending]
        for alert in fresh:
            log.warning("alert: %s", alert.text)
        if fresh:
            held = [(a.key, a.kind, a.root, a.path, a.text) for a in fresh]
            self.state.hold_alerts(held, self.clock())
        self._queue(fresh)

    def _masked(self, alert: Alert) -> Alert:
        if self.mask is None:
            return alert
        mask = self.mask
        return replace(alert, root=mask(alert.root), path=mask(alert.path), text=mask(alert.text))

    def _queue(self, alerts: list[Alert]) -> None:
        fresh = [a for a in alerts if a.key not in self._in_flight and a.key not in self._pending]
        for alert in fresh:
            self._pending[alert.key] = alert
        if fresh:
            self._send_within(self._next_chance())

    def _next_chance(self) -> float:
        """Seconds until fresh alerts may be sent: the quiet window, or, after a failed
        attempt, no sooner than the first retry delay after it."""
        if self._failed_at is None:
            return self.coalesce_seconds
        since = asyncio.get_running_loop().time() - self._failed_at
        return max(self.coalesce_seconds, self.retry_seconds[0] - since)

    def _send_within(self, delay: float) -> None:
        """A flush ``delay`` seconds from now, unless one is already due sooner."""
        loop = asyncio.get_running_loop()
        if self._flush is not None:
            if self._flush.when() <= loop.time() + delay:
                return
            self._flush.cancel()
        self._flush = loop.call_later(delay, self._start_flush)

    def _start_flush(self) -> None:
        self._flush = None
        task = asyncio.ensure_future(self.flush())
        self._sending.add(task)  # asyncio keeps only weak references to tasks
        task.add_done_callback(self._sending.discard)

    async def flush(self) -> None:
        if self._flush is not None:
            self._flush.cancel()  # a direct call (``--once``) leaves no timer behind
        self._flush = None
        if not self._pending:
            return
        # Taken out before the send: alerts arriving while a slow server keeps it
        # waiting go into the next notification, not into this one a second time.
        alerts = list(self._pending.values())
        self._pending.clear()
        keys = {a.key for a in alerts}
        self._in_flight |= keys
        try:
            accepted = await self.notifier.send(title(alerts), body(alerts), self.opens())
        finally:
            self._in_flight -= keys
        if accepted:
            self._failures, self._failed_at = 0, None
            sent = [(a.key, a.kind, a.root, a.path) for a in alerts]
            self.state.record_alerts(sent, self.clock())
            return
        self._pending = {a.key: a for a in alerts} | self._pending
        self._retry_later(rate_limited=accepted is None)

    def _retry_later(self, *, rate_limited: bool) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if rate_limited:  # nothing was attempted: wait for room in the hourly cap
            delay = max(1.0, self.notifier.limit.seconds_until_room())
        else:
            self._failures += 1
            self._failed_at = asyncio.get_running_loop().time()
            delay = self.retry_seconds[min(self._failures, len(self.retry_seconds)) - 1]
            log.info("%d alert(s) not delivered; next attempt in %g s", len(self._pending), delay)
        self._send_within(delay)


def title(alerts: list[Alert]) -> str:
    """What the notification is about, most urgent first (secrets, lost files, the budget)."""
    parts = []
    sessions = [a for a in alerts if a.kind == "transcript"]
    if sessions:
        noun = "secret" if len(sessions) == 1 else "secrets"
        count = len({a.path for a in sessions})
        parts.append(f"{len(sessions)} possible {noun} sent in {count} session(s)")
    secrets = [a for a in alerts if a.kind == "secret"]
    if secrets:
        files = len({(a.root, a.path) for a in secrets})
        noun = "secret" if len(secrets) == 1 else "secrets"
        where = "file" if files == 1 else "files"
        parts.append(f"{len(secrets)} possible {noun} in {files} {where}")
    losses = {a.root for a in alerts if a.kind == "mass-change"}
    if losses:
        parts.append("memory files lost" + (f" in {len(losses)} trees" if len(losses) > 1 else ""))
    if not parts:
        parts.append("MEMORY.md past its load budget")
    return "memory-audit: " + "; ".join(parts)


# What the user loses, most first: a secret leaks, deleted memories are gone, a budget past
# its cut hides entries. The first line of a batched notification is the most severe event.
SEVERITY = {"transcript": 0, "secret": 0, "mass-change": 1, "budget": 2}


def body(alerts: list[Alert]) -> str:
    """One line per alert, most severe first: its text names files, so it is escaped (a
    newline in a name cannot start a line, an ESC or BEL never reaches the notification)."""
    ranked = sorted(alerts, key=lambda a: SEVERITY.get(a.kind, len(SEVERITY)))
    lines = [visible(a.text) for a in ranked[:SHOWN_LINES]]
    if len(ranked) > SHOWN_LINES:
        rest: dict[str, int] = {}
        for alert in ranked[SHOWN_LINES:]:
            name = KIND_NAMES.get(alert.kind, alert.kind)
            rest[name] = rest.get(name, 0) + 1
        kinds = ", ".join(f"{n} {kind}" for kind, n in rest.items())
        lines.append(f"…and {len(ranked) - SHOWN_LINES} more ({kinds})")
    lines.append("Review: memory-audit review")
    return "\n".join(lines)


KIND_NAMES = {
    "transcript": "secrets in sessions",
    "secret": "secrets",
    "mass-change": "memory losses",
    "budget": "budget alerts",
}
