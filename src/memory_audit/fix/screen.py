"""What a review session shows: a finding's heading, the lines around it, a change's diff
(paged when long), and the new findings a change would make. Every text from the tree
passes the secret boundary and is escaped (:func:`memory_audit.model.visible.visible`)
before it reaches the terminal; nothing here writes to the tree."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from memory_audit.checks import BY_ID
from memory_audit.fix import batch, tree_access
from memory_audit.fix.console import Console
from memory_audit.fix.edits import Edit
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.model.visible import visible, visible_lines
from memory_audit.report import wording
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.scanner import Scanner

VIEW_LIMIT = 1024 * 1024  # view detail reads at most this much of a file
# A line longer than this (a raw log's record, a minified config) is shown around what
# matters: its change, else its first secret, else its start.
LONG_LINE = 240
BEFORE, AFTER = 80, 160
PREVIEW_SHOWN = 5  # new findings a preview names (then their count)
# The findings a change would make (fix/preview.py).
Preview = Callable[[Edit], list[Finding]]


class ReviewScreen:
    """The session's screens, on its console. ``names`` masks a secret in a file or folder
    name; ``real_paths`` maps a shown (masked) path to the file it shows."""

    def __init__(
        self,
        console: Console,
        tree: Tree,
        scanner: Scanner,
        names: Boundary,
        real_paths: Mapping[str, str],
    ) -> None:
        self.console = console
        self.tree = tree
        self.scanner = scanner
        self.names = names
        self.real_paths = real_paths
        # The findings a change would make (fix/preview.py): said before the question.
        self.preview: Preview | None = None

    def heading(self, finding: Finding, counter: str) -> None:
        self.console.say()
        self.console.say(f"{counter} {BY_ID[finding.dimension].title}: {wording.location(finding)}")
        self.console.say(f"  {visible(finding.message)}")

    def view(self, finding: Finding) -> None:
        """The lines around the finding. Read through the tree guard: a symlink, a FIFO or
        a device in the tree is refused, not opened."""
        try:
            real = self.real_paths.get(finding.path, finding.path)
            data, _ = self.tree.read_bytes(real, VIEW_LIMIT)
        except tree_access.NotInTree as exc:
            self.console.say(f"  (not shown: {visible(self.names.text(str(exc)))})")
            return
        except OSError as exc:  # a folder (a secret in its name), or gone meanwhile
            self.console.say(f"  (not shown: {exc.strerror or type(exc).__name__})")
            return
        lines = data.decode("utf-8", errors="replace").splitlines()
        # Never echo a secret, not even back to its owner's terminal: the boundary of the
        # whole file, so a private key's body lines are masked too.
        boundary = Boundary.for_text(self.scanner, "\n".join(lines))
        middle = (finding.line or 1) - 1
        if middle >= len(lines):
            self.console.say(f"  (line {middle + 1} is past the first {VIEW_LIMIT // 1024:,} KB)")
        for number in range(max(0, middle - 6), min(len(lines), middle + 7)):
            mark = ">" if number == middle else " "
            shown = visible(cut(boundary, lines[number]))
            self.console.say(f"  {mark}{number + 1:5} | {shown}")

    def numbered(self, lines: list[tuple[int, str]]) -> None:
        """Numbered lines of a file (to pick some to remove), masked as a whole."""
        boundary = Boundary.for_text(self.scanner, "\n".join(text for _, text in lines))
        for number, text in lines:
            self.console.say(f"  {number:5} | {visible(boundary.text(text))}")

    def redacted_diff(self, change: Edit) -> str:
        texts = [c.after.text for c in change.changes]
        texts += [c.before.text for c in change.changes if c.before is not None]
        lines = change.diff().split("\n")
        boundary = Boundary.for_text(self.scanner, "\n\n".join(texts)) | self.names
        shown = []
        for number, line in enumerate(lines):
            # a changed line and its new text: both around where they differ
            pair = _pair(lines, number)
            at = _common_prefix(pair[0][1:], pair[1][1:]) if pair is not None else None
            shown.append(line[:1] + cut(boundary, line[1:], at))  # the sign kept
        return visible_lines("\n".join(shown))

    def paged(self, text: str) -> None:
        shown = batch.pages(text)
        for number, page in enumerate(shown, 1):
            self.console.say(page)
            if number < len(shown):
                more = self.console.ask(
                    f"  -- page {number} of {len(shown)}: Enter for more, s to stop the listing"
                )
                if more.lower() in ("s", "stop", "q", "quit"):
                    break

    def warn_new(self, change: Edit) -> None:
        """A change that would make a finding the tree does not have says so before the
        question (Edit offers another value)."""
        if self.preview is None:
            return
        try:
            made = self.preview(change)
        except (OSError, ValueError) as exc:  # no preview, said; the write keeps its guards
            self.console.say(f"  (no preview of its effect: {type(exc).__name__})")
            return
        if not made:
            return
        self.console.say(f"  Careful: this change would make {len(made)} new finding(s):")
        for found in made[:PREVIEW_SHOWN]:
            self.console.say(f"    {wording.location(found)} — {visible(found.message)}")
        self.console.say("  Edit gives it another value; or apply it and decide that next.")


def _pair(lines: list[str], number: int) -> tuple[str, str] | None:
    """A diff's removed line and the added line after it, as they differ (each without its
    sign), when ``number`` is one of the two."""
    line = lines[number]
    if line.startswith("-") and not line.startswith("---"):
        after = lines[number + 1] if number + 1 < len(lines) else ""
        if after.startswith("+") and not after.startswith("+++"):
            return line, after
    if line.startswith("+") and not line.startswith("+++") and number > 0:
        before = lines[number - 1]
        if before.startswith("-") and not before.startswith("---"):
            return before, line
    return None


def _common_prefix(one: str, other: str) -> int:
    """How many first characters two texts share."""
    for i, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            return i
    return min(len(one), len(other))


def cut(boundary: Boundary, line: str, at: int | None = None) -> str:
    """``line`` masked; a long one shown around ``at`` (else its first secret, else its
    start), with what was left out counted. The window is cut from the line as written and
    widened to hold every secret it touches whole before masking: a secret cut in two would
    leave its halves unrecognised, and so unmasked."""
    if len(line) <= LONG_LINE:
        return boundary.text(line)
    spans = boundary.spans(line)
    if at is None:
        at = spans[0][0] if spans else 0
    start, end = max(0, at - BEFORE), min(len(line), at + AFTER)
    for first, last in spans:
        if first < start < last:
            start = first
        if first < end < last:
            end = last
    head = f"…({start:,} characters) " if start else ""
    tail = f" …({len(line) - end:,} characters)" if end < len(line) else ""
    return head + boundary.text(line[start:end]) + tail
