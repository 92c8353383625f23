"""``memory-audit restore FILE [--at TIME | --version N]`` and ``restore --tree TREE --at TIME``.

Each restore shows its diff (or "the file was deleted") and asks; a whole tree is
summarised first, then restored all at once or file by file. Files changed since
they were shown are refused and shown again. MEMORY.md is read again before it is
touched, and a restored file missing from it gets its old index line back on
request. Every restore is recorded in the journal and in the structural changelog,
with the reason the user gives (masked like every label).

The journal masks secrets before it keeps a version, so a version that held one
brings back its masked form (``ghp_…wxyz``), never the secret: each restore of
such a version says so before it asks, and again once written.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.engine import names_boundary
from memory_audit.errors import UsageError
from memory_audit.fix import restore as restoring
from memory_audit.fix.changelog import append, changelog_path
from memory_audit.fix.console import Console
from memory_audit.fix.tree_access import Tree
from memory_audit.journal import lookup
from memory_audit.journal.blobs import CorruptBlob
from memory_audit.journal.content import decoded, masked_bytes
from memory_audit.journal.index import Version
from memory_audit.journal.labels import SCANNED_CHARS, label
from memory_audit.journal.recorder import masked_history
from memory_audit.journal.store import Journal
from memory_audit.model.visible import code_span, visible
from memory_audit.secrets.loading import masking_scanner
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.index_file import INDEX_NAME


def run(
    *,
    target: str,
    at: str | None,
    version: int | None,
    tree: bool,
    config_path: Path | None,
    inp: TextIO,
    out: TextIO,
) -> int:
    config = config_module.load(config_path, OPTION_TYPES)
    journal = Journal(config.state_dir, config.settings.journal.max_file_bytes)
    console = Console(inp, out)
    rules = config.check_options("secrets")
    scanner = masking_scanner(rules)
    held: Tree | None = None
    try:
        root, rel = lookup.locate(journal.index, target)
        masked = _masker(journal, root, scanner, config.settings.journal.max_file_bytes)
        console = Console(inp, out, _names(rules, journal, root))
        when = _tree_moment(at) if tree or not rel else None
        held = restoring.open_tree(root)  # from here on, every write goes through it
        if when is not None:
            plans = _tree_plans(journal, held, when, masked)
        else:
            chosen = _chosen(journal, root, rel, at, version)
            plans = [restoring.plan(journal, held, chosen, masked)]
        done = _confirm_and_write(console, journal, plans)
        if done:
            _offer_index_lines(console, journal, held, done)
            _record(console, journal, config.changelog_dir, root, done, scanner)
    except restoring.RestoreRefused as exc:
        raise UsageError(str(exc)) from None
    except EOFError:
        console.say("\nStopped: nothing more restored.")
        return 130
    finally:
        if held is not None:
            held.close()
        journal.close()
    return 0


def _masker(
    journal: Journal, root: Path, scanner: Scanner, max_bytes: int
) -> Callable[[bytes], bytes]:
    """A file's bytes masked as the journal keeps them: the rules' secrets, and the values
    the tree says elsewhere, where this file repeats them. Versions kept before the tree
    said so are masked first (the service does it at the tree's next change; it may not
    have run since), so no version shown or written back holds one."""
    repeats = masked_history(journal.index, journal.blobs, root, scanner, max_bytes)
    return lambda data: masked_bytes(data, scanner, repeats)


def _tree_moment(at: str | None) -> float:
    if at is None:
        raise UsageError("restore --tree needs --at TIME (the moment to go back to)")
    return lookup.parse_when(at)


def _chosen(journal: Journal, root: Path, rel: str, at: str | None, number: int | None) -> Version:
    if number is not None:
        found = journal.index.get(number)
        if found is None or (found.root, found.path) != (str(root), rel):
            raise UsageError(f"no version {number} of {rel} (see: memory-audit history {rel})")
    elif at is not None:
        found = lookup.at_time(journal.index, root, rel, lookup.parse_when(at))
    else:
        found = lookup.restorable(journal.index, root, rel)
    if found is None or not found.kept:
        raise UsageError(f"no kept version of {rel} to restore at that point")
    return found


def _tree_plans(
    journal: Journal, tree: Tree, when: float, masked: Callable[[bytes], bytes]
) -> list[restoring.RestorePlan]:
    then = lookup.tree_at(journal.index, tree.path, when)
    plans = []
    for _, version in sorted(then.items()):
        if version.kept:
            plan = restoring.plan(journal, tree, version, masked)
            if plan.needed:
                plans.append(plan)
    return plans


def _confirm_and_write(
    console: Console, journal: Journal, plans: list[restoring.RestorePlan]
) -> list[restoring.RestorePlan]:
    if not plans:
        console.say("Nothing to restore: the files already hold those versions.")
        return []
    if len(plans) == 1:
        return _one(console, journal, plans[0])
    deleted = sum(1 for p in plans if p.current is None)
    console.say(f"{len(plans)} files differ from then ({deleted} deleted since):")
    for plan in plans:
        state = "deleted" if plan.current is None else "changed"
        console.say(
            f"  {visible(plan.path)} ({state}; version {plan.version.id}{_masked_tag(plan)})"
        )
    answer = console.choose("Restore", {"a": "all", "o": "one by one", "n": "none"})
    if answer == "n":
        return []
    if answer == "a":
        return _write_all(console, plans)
    chosen = []
    for plan in plans:
        console.say(restoring.diff(plan) + _masked_note(plan.version))
        if console.choose("Restore this file?", {"y": "yes", "n": "no"}) == "y":
            chosen.append(plan)
    return _write_all(console, chosen)


def _one(
    console: Console, journal: Journal, plan: restoring.RestorePlan, tries: int = 3
) -> list[restoring.RestorePlan]:
    """Show, ask, write; a file changed while the user looked is shown again."""
    for _ in range(tries):
        console.say(restoring.diff(plan) + _masked_note(plan.version))
        if console.choose("Restore this version?", {"y": "yes", "n": "no"}) != "y":
            return []
        try:
            restoring.write(plan)
        except restoring.TreeMoved:
            raise
        except restoring.RestoreRefused as exc:
            console.say(f"  not restored: {visible(str(exc))}")
            plan = restoring.replan(journal, plan)
            continue
        console.say(
            f"  restored {visible(plan.path)} (version {plan.version.id}{_masked_tag(plan)})"
        )
        return [plan]
    return []


def _masked_note(version: Version) -> str:
    """What a restore of ``version`` cannot bring back: the secrets the journal masked."""
    if version.masked == 0:
        return ""
    if version.masked is None:
        return (
            f"Version {version.id} was kept before the journal counted masked secrets: "
            "any secret it held comes back masked (its first and last characters), "
            "not as it was.\n"
        )
    return (
        f"Version {version.id} had {version.masked} secret(s) masked by the journal: "
        "the restored file holds the masked form (its first and last characters), "
        "not the secret, which the journal never kept.\n"
    )


def _masked_tag(plan: restoring.RestorePlan) -> str:
    masked = plan.version.masked
    if masked == 0:
        return ""
    return f"; {masked} secret(s) come back masked" if masked else "; secrets come back masked"


def _write_all(console: Console, plans: list[restoring.RestorePlan]) -> list[restoring.RestorePlan]:
    written = []
    for plan in plans:
        try:
            restoring.write(plan)
        except (restoring.RestoreRefused, OSError) as exc:
            console.say(f"  not restored: {visible(str(exc))}")
            continue
        written.append(plan)
        console.say(
            f"  restored {visible(plan.path)} (version {plan.version.id}{_masked_tag(plan)})"
        )
    return written


def _offer_index_lines(
    console: Console, journal: Journal, tree: Tree, done: list[restoring.RestorePlan]
) -> None:
    restored = {p.path for p in done}
    if INDEX_NAME in restored:
        return
    root = tree.path
    shown = restoring.read_current(tree, INDEX_NAME)
    index_now = (shown or b"").decode("utf-8", "replace")
    missing = [rel for rel in sorted(restored) if f"]({rel})" not in index_now]
    found = {rel: _old_index_line(journal, root, rel) for rel in missing}
    lines = {rel: line for rel, line in found.items() if line is not None}
    if not lines:
        return
    console.say("MEMORY.md no longer lists:")
    for line in lines.values():
        console.say(f"  {line}")
    if console.choose("Add these lines back to MEMORY.md?", {"y": "yes", "n": "no"}) == "y":
        _append_index_lines(console, tree, shown, list(lines.values()))


def _old_index_line(journal: Journal, root: Path, rel: str) -> str | None:
    for version in journal.index.history(str(root), INDEX_NAME):
        if version.kept:
            try:
                text = decoded(journal.content(version))
            except CorruptBlob:  # damaged, or a row naming no content hash: not read
                continue
            line = next((x for x in text.splitlines() if f"]({rel})" in x), None)
            if line is not None:
                return line
    return None


def _append_index_lines(
    console: Console, tree: Tree, shown: bytes | None, lines: list[str]
) -> None:
    text = (shown or b"").decode("utf-8", "replace")
    text += ("" if not text or text.endswith("\n") else "\n") + "\n".join(lines) + "\n"
    try:
        restoring.write_checked(tree, INDEX_NAME, shown, text.encode("utf-8"))
    except restoring.RestoreRefused:
        console.say("  MEMORY.md changed meanwhile; index lines not added (add them by hand).")
        return
    console.say(f"  added {len(lines)} line(s) to MEMORY.md")


def _record(
    console: Console,
    journal: Journal,
    changelog_dir: Path,
    root: Path,
    done: list[restoring.RestorePlan],
    scanner: Scanner,
) -> None:
    try:
        typed = console.ask("Why restore? (for the changelog)")
    except EOFError:
        typed = ""
    # Stored in the journal (shortened there) and the changelog: masked first.
    reason = label(typed, scanner, SCANNED_CHARS)
    now = time.time()
    for plan in done:
        restoring.record(journal, plan, reason or "not given", now)
    shown = console.mask
    changes = [f"restored {code_span(shown(p.path))} from version {p.version.id}" for p in done]
    name = shown(root.parent.name if root.name == "memory" else root.name)
    entry = _entry(dt.datetime.now().astimezone(), changes, shown(reason))
    # the tree's own changelog
    append(changelog_path(changelog_dir, root, shown(str(root))), name, entry)
    console.say(f"Restored {len(done)} file(s); recorded in the changelog.")


def _names(rules: object, journal: Journal, root: Path) -> Callable[[str], str]:
    """Masks a secret in the tree's path or in a journaled file's name, as reports do."""
    paths = {v.path for v in journal.index.history(str(root))}
    return names_boundary(rules, [str(root), *sorted(paths)]).text


def _entry(when: dt.datetime, changes: list[str], why: str) -> str:
    lines = [f"## {when:%Y-%m-%d %H:%M} — restore from the journal", "", "### Changes"]
    lines += [f"- {c}" for c in changes]
    lines += ["", "### Why", why or "(not given)", ""]
    return "\n".join(lines) + "\n"
