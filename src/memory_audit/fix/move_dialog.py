"""The review's questions for an orphaned store: into which store, then each step.

What the user sees: README, "Moving a store whose project moved". The steps are those
of :mod:`memory_audit.fix.store_move`; each is shown, then asked (y/n). A no, or a
step that cannot be made safely, ends the move there: what is done stays done (and is
recorded), nothing after it happens, and the old store is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.analysis.moved_projects import moved_into
from memory_audit.fix import store_move as steps
from memory_audit.fix.console import Console, Quit, interrupts_deferred
from memory_audit.fix.edits import Edit, StaleTarget
from memory_audit.fix.tree_access import NotInTree, Tree
from memory_audit.model.finding import Finding

SHOWN = 20  # file names listed per step; the rest are counted
YES_NO = {"y": "yes", "n": "no"}
Diff = Callable[[Edit], str]  # an edit's diff, redacted


@dataclass
class MoveResult:
    new_root: Path | None = None
    changes: list[str] = field(default_factory=list)  # changelog lines, one per step done
    trashed: Path | None = None  # where the old memory folder went
    failed: str | None = None
    interrupted: bool = False  # Ctrl-C or a closed terminal at a question: steps done stay


def pick(console: Console, root: Path, finding: Finding) -> str:
    """The store to move into (its slug), or the key of skip / view / quit."""
    slugs = [s for s in (finding.fix or {}).get("into", []) if isinstance(s, str)]
    if len(slugs) == 1:
        menu = {"a": "Apply (move step by step)", "s": "Skip", "v": "View detail", "q": "quit"}
        key = console.choose("Action?", menu, numbered=True)
        return slugs[0] if key == "a" else key
    console.say("  Which store holds this project now? Nothing is chosen for you:")
    for number, slug in enumerate(slugs, 1):
        console.say(f"    {number}. {slug}")
    menu = {str(n): str(n) for n in range(1, len(slugs) + 1)}
    key = console.choose("Move into", {**menu, "s": "skip", "v": "view detail", "q": "quit"})
    return slugs[int(key) - 1] if key in menu else key


def move(console: Console, tree: Tree, slug: str, diff: Diff) -> MoveResult:
    """Plan, then the three steps, each confirmed."""
    result = MoveResult()
    new_root = moved_into(tree.path.parent.parent, slug)
    if new_root is None:
        result.failed = f"`{slug}` is not a store next to this one"
        console.say(f"  {result.failed}; nothing moved.")
        return result
    result.new_root = new_root
    try:
        plan = steps.plan_move(tree, new_root)
        try:
            console.say(f"  Into {new_root}")
            _steps(console, plan, diff, result)
        finally:
            plan.close()
    except Quit:  # `q` at a step: as no, the steps done are kept and recorded
        console.say("  Stopped here: nothing more is changed; the old store is kept.")
    except (KeyboardInterrupt, EOFError):
        result.interrupted = True  # the caller records the steps done, then stops
    except (steps.MoveStopped, StaleTarget, NotInTree, OSError, UnicodeError) as exc:
        result.failed = _why(exc)
        console.say(f"  Stopped: {result.failed}. Nothing was lost; the old store is kept.")
    return result


def _steps(console: Console, plan: steps.MovePlan, diff: Diff, result: MoveResult) -> None:
    for step in (_copy, _index, _trash):
        if not step(console, plan, diff, result):
            console.say("  Stopped here: nothing more is changed; the old store is kept.")
            return


def _copy(console: Console, plan: steps.MovePlan, diff: Diff, result: MoveResult) -> bool:
    if plan.present:
        console.say(f"  Already there, the same: {_names([t for _, t in plan.present])}")
    if not plan.copies:
        console.say("  Step 1/3: nothing to copy.")
        return True
    console.say(f"  Step 1/3: copy {len(plan.copies)} files the new store lacks:")
    for copy in plan.copies[:SHOWN]:
        renamed = f" as {copy.target} (a different {copy.source} is there)"
        console.say(f"    {copy.source}{renamed if copy.target != copy.source else ''}")
    if len(plan.copies) > SHOWN:
        console.say(f"    … and {len(plan.copies) - SHOWN} more")
    if console.choose("  Copy them?", YES_NO) == "n":
        return False
    with interrupts_deferred():
        steps.copy_files(plan)
    result.changes.append(_copied(plan))
    console.say(f"  Copied {len(plan.copies)} files; each read back and compared.")
    return True


def _copied(plan: steps.MovePlan) -> str:
    names = [
        f"`{c.source}`" + (f" as `{c.target}`" if c.target != c.source else "") for c in plan.copies
    ]
    return f"moved store: copied {', '.join(names)} from {plan.old_root} into {plan.new_root}"


def _index(console: Console, plan: steps.MovePlan, diff: Diff, result: MoveResult) -> bool:
    merge = steps.merge_index(plan)
    if merge is None:
        console.say("  Step 2/3: no index entry to merge (none, or all already there).")
        return True
    console.say(f"  Step 2/3: append {merge.added} entries of the old MEMORY.md to the new one:")
    console.say(diff(merge.edit).rstrip())
    if merge.not_merged:
        console.say(
            f"  {merge.not_merged} other lines of the old index are not merged "
            "(notes, or entries whose file is not there); they stay in .trash."
        )
    warning = steps.over_budget(merge)
    if warning:
        console.say(f"  Warning: {warning}.")
    if console.choose("  Merge them?", YES_NO) == "n":
        return False
    changed = merge.edit.changed_on_disk()
    if changed is not None:
        raise steps.MoveStopped(f"{changed} changed since it was shown")
    with interrupts_deferred():
        merge.edit.apply()
    result.changes.append(f"moved store: {merge.edit.description} ({plan.new_root})")
    console.say(f"  Merged {merge.added} entries.")
    return True


def _trash(console: Console, plan: steps.MovePlan, diff: Diff, result: MoveResult) -> bool:
    to = plan.old_root.parent / steps.trash_name(plan)
    console.say(f"  Step 3/3: move the old memory folder {plan.old_root} to {to}")
    console.say("  (kept there until you delete it; nothing loads it)")
    if plan.left:
        console.say(f"  Not copied, so only there: {_names(plan.left)}")
    if console.choose("  Move it?", YES_NO) == "n":
        return False
    with interrupts_deferred():
        result.trashed = steps.trash_old(plan)
    result.changes.append(f"moved store: the old memory folder {plan.old_root} is now {to}")
    console.say(f"  Moved. The old store is in {result.trashed}.")
    return True


def _names(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:SHOWN])
    return shown + (f" … and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")


def _why(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"{exc.filename or ''} {exc.strerror or type(exc).__name__}".strip()
    return str(exc) or type(exc).__name__
