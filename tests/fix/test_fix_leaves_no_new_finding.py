"""Every Apply leaves the file better: each fix the demo tree's findings propose, applied
alone to a fresh copy, makes no finding the tree did not have. So does each fix of a
governed tree, applied in turn."""

from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from pathlib import Path

from memory_audit.checks import OPTION_TYPES, REGISTRY
from memory_audit.config import settings as config_module
from memory_audit.engine import audit_tree
from memory_audit.fix import dead_weight
from memory_audit.fix.actions import Action, actions, answers_for
from memory_audit.fix.edits import Edit
from memory_audit.fix.session import DEAD_WEIGHT
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.secrets.loading import secret_scanner
from memory_audit.secrets.rules import bundled_rules
from memory_audit.secrets.scanner import Scanner
from tests.harness import load, memory, write_tree

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Sessions and git are not part of the copy: what a fix changes is the tree's own text.
SELECTION = tuple(d for d in REGISTRY if d not in {"usage", "coverage", "stale-refs"})
EVERY_ACTION = frozenset(actions(Scanner(bundled_rules(), b"salt")))


def config() -> config_module.Config:
    return config_module.load(EXAMPLES / "config.yaml", OPTION_TYPES)


def audit(root: Path, profile: str = "auto") -> list[Finding]:
    options = {d: config().check_options(d) for d in SELECTION}
    # the examples' indexes are small: inline content and long hooks are looked for in any
    options["index-budget"] = dataclasses.replace(options["index-budget"], small_index_chars=0)
    return list(audit_tree(load(root, profile=profile), SELECTION, options).findings)


def the_actions() -> dict[str, Action]:
    """With the scanner the audit used (its salt names the secrets it found)."""
    rules = config().check_options("secrets")
    return actions(secret_scanner(rules))


def kinds(found: list[Finding]) -> Counter[tuple[str, str, str]]:
    return Counter((f.dimension, f.code, f.path) for f in found)


def value_for(root: Path, fix: dict[str, object]) -> str:
    """What a user would type for a required value: a good one (a poor description is the
    user's doing, not the fix's)."""
    path = root / str(fix.get("path"))
    body = path.read_text(encoding="utf-8").split("---")[-1] if path.is_file() else ""
    sentence = body.strip().split(". ")[0].split("\n")[0].rstrip(".:")
    return {
        "name": path.stem.replace("_", "-"),
        "type": "project",
        "description": f"{sentence}." if sentence else "Notes.",
        "scope": "billing",
    }.get(str(fix.get("field")), "the billing migration phase")


def apply_alone(root: Path, finding: Finding) -> str:
    """The finding's fix with its own answers (a value where one is required); its name."""
    fix = finding.fix or {}
    action = the_actions()[str(fix["action"])]
    answers = answers_for(action, fix, value_for(root, dict(fix)))
    action.build(Tree.open(root), fix, answers).apply()
    return str(fix["action"])


def fixable(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.fix and str(f.fix.get("action")) in EVERY_ACTION]


def new_findings(
    before: list[Finding], after: list[Finding], fixed: Finding | None = None
) -> list[tuple[str, str, str]]:
    """Findings the fix made. The one exception: the fixed finding's problem at its own
    size (demoting an always-loaded finished memory leaves a finished memory: bloat's
    `finished-work` where `always-on-stale` was), never more of them."""
    grown = kinds(after) - kinds(before)
    if fixed is not None and FOLLOWS.get(fixed.code):
        grown -= Counter({(fixed.dimension, code, fixed.path): 1 for code in FOLLOWS[fixed.code]})
    return [(f.code, f.path, f.message) for f in after if (f.dimension, f.code, f.path) in grown]


FOLLOWS = {"always-on-stale": ("finished-work", "stale-as-of"), "finished-work": ("stale-as-of",)}


def test_no_fix_of_the_demo_tree_makes_a_new_finding(tmp_path: Path) -> None:
    """Each fix alone, on a fresh copy of the demo tree, then the audit again."""
    demo = EXAMPLES / "drifted-memory"
    proposed = fixable(audit(demo))
    made: dict[str, list[tuple[str, str, str]]] = {}
    for number, finding in enumerate(proposed):
        root = tmp_path / f"copy{number}" / "memory"
        shutil.copytree(demo, root, symlinks=True)
        before = audit(root)
        name = apply_alone(root, finding)
        if created := new_findings(before, audit(root), finding):
            made[f"{name} for {finding.code} {finding.path}"] = created
    assert made == {}
    # (the demo's dead links say what their notes held: none is removed, see
    # test_index_drift's entries whose hook is the only record)
    assert {str((f.fix or {})["action"]) for f in proposed} >= {
        "update-index-path",
        "add-index-line",
        "add-field",
        "set-field",
        "rename-file",
        "redact-secret",
    }


GOVERNED = {
    "MEMORY.md": "# Index\n- [Deploy](deploy.md) — how we deploy, step by step\n"
    "- [Gone](gone.md) — removed\n- [Deploy](deploy.md) — deploys\n"
    "- [Old](old.md) — the old plan\n",
    "deploy.md": memory(
        "deploy", scope="infra/deploy", relevance="always", body="Deploys go through the gate."
    ),
    "old.md": memory(
        "old",
        scope="billing",
        relevance="always",
        body="Status:\n- [x] ingest\n- [x] rate\n- [x] render\n- [ ] send\n- [x] webhooks",
    ),
    "loose.md": memory("loose", scope="billing", relevance=None, body="Invoices use UTC."),
}


def test_each_fix_of_a_governed_tree_in_turn_makes_no_new_finding(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", GOVERNED)
    applied: list[str] = []
    done: set[tuple[str, str, str]] = set()
    while True:
        found = audit(root, "governed")
        todo = [f for f in fixable(found) if (f.dimension, f.code, f.path) not in done]
        if not todo:
            break
        done.add((todo[0].dimension, todo[0].code, todo[0].path))
        applied.append(apply_alone(root, todo[0]))
        assert new_findings(found, audit(root, "governed"), todo[0]) == [], applied
    assert {"remove-index-line", "add-field", "demote-relevance"} <= set(applied), applied


def dead_weight_edits(tree: Tree, finding: Finding, files: list[str]) -> dict[str, Edit]:
    """The seed's 10a actions on the finding's file: trim takes its done items (`[x]`)."""
    body = dead_weight.numbered_body(tree, finding.path)
    done = ", ".join(str(n) for n, text in body if "[x]" in text or "✓" in text)
    edits = {
        "archive": dead_weight.archive(tree, finding.path, files),
        "delete": dead_weight.delete(tree, finding.path, files),
    }
    if done:
        edits["trim"] = dead_weight.trim(tree, finding.path, done)
    return edits


def test_no_archive_delete_or_trim_of_a_dead_memory_makes_a_new_finding(tmp_path: Path) -> None:
    """Each of the seed's actions, alone on a fresh copy, for every dead-weight finding of
    the demo tree and of a tree whose finished memory is linked from another."""
    trees = {
        "demo": EXAMPLES / "drifted-memory",
        "linked": write_tree(
            tmp_path / "linked" / "memory",
            {
                "MEMORY.md": "# Index\n- [Billing](billing.md) — how invoices are dated\n"
                "- [Ledger](ledger.md) — the ledger migration plan\n",
                "billing.md": memory(
                    "billing", body="Invoices are dated in UTC. History: [ledger](ledger.md)."
                ),
                "ledger.md": memory(
                    "ledger",
                    description="The ledger migration plan",
                    body="Status:\n- [x] ingest\n- [x] rate\n- [x] render\n- [ ] send\n- [x] hooks",
                ),
            },
        ),
    }
    made: dict[str, list[tuple[str, str, str]]] = {}
    tried: set[str] = set()
    for label, source in trees.items():
        dead = [f for f in audit(source) if f.dimension == "bloat" and f.code in DEAD_WEIGHT]
        assert dead, label
        for number, finding in enumerate(dead):
            for name in ("archive", "delete", "trim"):
                root = tmp_path / f"{label}{number}{name}" / "memory"
                shutil.copytree(source, root, symlinks=True)
                before = audit(root)
                files = [p.relative_to(root).as_posix() for p in sorted(root.rglob("*.md"))]
                edit = dead_weight_edits(Tree.open(root), finding, files).get(name)
                if edit is None:
                    continue
                edit.apply()
                tried.add(name)
                if created := new_findings(before, audit(root), finding):
                    made[f"{name} {label} {finding.path}"] = created
    assert made == {}
    assert tried == {"archive", "delete", "trim"}


MORE = {
    "MEMORY.md": "# Index\n- [New plan](new.md) — the current rollout plan\n"
    "- [Old plan](old.md) — the first rollout plan\n- [Notes](notes.md) — deploy notes\n\n"
    "Deploys run from the release branch only. The staging database is reset nightly.\n",
    "new.md": memory("new", description="The current rollout plan", body="Roll out by region."),
    "old.md": memory(
        "old",
        description="The first rollout plan",
        superseded_by="new.md",
        body="Roll out to everyone at once.",
    ),
    "notes.md": "Deploy notes: the deploy script lives in ops/deploy.sh and needs VPN.\n",
}


def test_the_other_fix_actions_make_no_new_finding(tmp_path: Path) -> None:
    """add-frontmatter, move-to-topic, and a superseded file out of the index (with the
    relation that keeps it reachable), each alone on a fresh tree."""
    source = write_tree(tmp_path / "source" / "memory", MORE)
    proposed = fixable(audit(source))
    made: dict[str, list[tuple[str, str, str]]] = {}
    for number, finding in enumerate(proposed):
        root = tmp_path / f"copy{number}" / "memory"
        shutil.copytree(source, root)
        before = audit(root)
        name = apply_alone(root, finding)
        if created := new_findings(before, audit(root), finding):
            made[f"{name} for {finding.code} {finding.path}"] = created
    assert made == {}
    applied = {str((f.fix or {})["action"]) for f in proposed}
    assert {"add-frontmatter", "move-to-topic", "remove-index-line"} <= applied
    # Taking a superseded file out of the index declares the supersession in its successor
    # (add-relation's change), or the file would be an orphan.
    assert any("relate" in (f.fix or {}) for f in proposed)
