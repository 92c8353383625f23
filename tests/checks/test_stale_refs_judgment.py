"""stale-refs judging what a removed path's memory means: lines that agree with the history,
dated records, memories that record the deletion, moves git saw no rename in, bare names.

Every sample is a look-alike written for the kind of false or missed finding it stands for.
"""

from __future__ import annotations

from pathlib import Path

from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, findings, memory, report, write_tree
from tests.support.git_repo import Repo

BODY_START = 6  # the harness's frontmatter takes lines 1-5


def at(project: Path) -> ProjectLocation:
    return ProjectLocation("-p", project, None)


def line(body: str, text: str) -> int:
    """The file line of the body line that holds ``text``."""
    return BODY_START + next(i for i, t in enumerate(body.split("\n")) if text in t)


def fixtures_repo(path: Path) -> Repo:
    """Golden fixtures added (2026-05-02), then the folder deleted (2026-05-03)."""
    repo = Repo(path)
    repo.commit("golden meshes", {"tests/fixtures/cube.obj": "v 0 0 0\n", "src/mesh.py": "m\n"})
    repo.remove("drop the golden meshes", "tests/fixtures")
    return repo


ABSENT = """\
`tests/fixtures/` is empty (the folder does not exist).
`tests/fixtures/` — not applicable, no golden files are made.
Never commit golden meshes to `tests/fixtures/`.
`tests/fixtures/` は空（ディレクトリ自体が無い）。
モディファイアの出力を `tests/fixtures/` に固定してはならない。
| `tests/fixtures/` | — | **該当なし**。golden は作らない |
La carpeta `tests/fixtures/` ya no existe.
A pasta `tests/fixtures/` está vazia.
Der Ordner `tests/fixtures/` ist leer.
Le dossier `tests/fixtures/` n'existe pas.
+ tests gardés ; `tests/fixtures/` supprimé.
`tests/fixtures/` 不存在。
`tests/fixtures/` 폴더 없음.
There are no `tests/fixtures/` and no golden meshes anywhere in the repository.
Goldens would go under `tests/fixtures/` (none currently exist in-repo).
There is no `tests/fixtures/` directory yet.
The mesh loader was originally in `tests/fixtures/`, absorbed into `src/mesh.py` later.
First seen in `tests/fixtures/` while reviewing the mesh loader.
At the time, the goldens sat in `tests/fixtures/` beside the loader.
Back then only `tests/fixtures/` existed for goldens; the loader lived in `tests/fixtures/` too.
There is no need to touch `tests/fixtures/`; goldens live there.
Goldens live in `tests/fixtures/` (there are no others).
Golden meshes live in `tests/fixtures/`. Never filter meshes in the client."""


def test_a_line_that_says_the_path_is_absent_or_not_to_be_used_agrees_with_the_history(
    tmp_path: Path,
) -> None:
    repo = fixtures_repo(tmp_path / "p")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=ABSENT)})
    # Only the last three lines claim the folder; the last one's "never" is another
    # sentence's, and "there is no need", "there are no others" deny something else.
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", line(ABSENT, "no need to touch")),
        ("deleted-file-reference", "a.md", line(ABSENT, "no others")),
        ("deleted-file-reference", "a.md", line(ABSENT, "Golden meshes live in")),
    ]


TWICE = """\
`tests/fixtures/` is empty. Golden meshes live in `tests/fixtures/`.
Golden meshes live in `tests/fixtures/`; `tests/fixtures/` is empty now.
`tests/fixtures/` is empty; never recreate `tests/fixtures/`.
Meshes were in `tests/fixtures/cube.obj`; `tests/fixtures/` is empty."""


def test_a_path_named_twice_on_a_line_is_judged_in_each_of_its_sentences(
    tmp_path: Path,
) -> None:
    repo = fixtures_repo(tmp_path / "p")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=TWICE)})
    # A sentence that uses the folder claims it, whichever of its sentences comes first;
    # the longer path that holds it is not one of its sentences.
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", line(TWICE, "is empty. Golden")),
        ("deleted-file-reference", "a.md", line(TWICE, "live in `tests/fixtures/`;")),
        ("deleted-file-reference", "a.md", line(TWICE, "Meshes were")),
    ]


def test_a_folder_is_deleted_only_when_none_of_its_files_remain(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("first", {"assets/a.png": "a", "assets/b.png": "b", "old/c.txt": "c"})
    repo.remove("drop some", "assets/a.png", "old/c.txt")
    body = "Images go in `assets/`.\nNotes were kept in `old/`.\nDrafts: `drafts/`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", line(body, "`old/`"))
    ]


def scripts_repo(path: Path) -> tuple[Repo, str]:
    """Two scripts added 2026-05-02; deploy.sh deleted 2026-05-03."""
    repo = Repo(path)
    repo.commit("scripts", {"scripts/deploy.sh": "d\n", "scripts/check.sh": "c\n"})
    gone = repo.remove("drop the deploy script", "scripts/deploy.sh")
    return repo, gone


DATED_LOG = """\
## 2026-05-01
- Created `scripts/deploy.sh` for CI.

### Details
- Wrote the first version of `scripts/deploy.sh`.

2026-05-02: `scripts/deploy.sh` runs the release.

## Session 12 (2026-05-09)
- Added a flag to `scripts/deploy.sh`.

## Release plan v5 (2026-05-01)
**Deliverable:** `scripts/deploy.sh`"""


def test_a_dated_log_entry_from_before_the_deletion_is_history(tmp_path: Path) -> None:
    repo, _ = scripts_repo(tmp_path / "p")
    tree = write_tree(tmp_path / "memory", {"log.md": memory("log", body=DATED_LOG)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    # Reported: an entry dated after the deletion (it claims a file already gone), and a
    # line under a dated heading that records nothing done (a version's stamp).
    assert codes(found) == [
        ("deleted-file-reference", "log.md", line(DATED_LOG, "Added a flag")),
        ("deleted-file-reference", "log.md", line(DATED_LOG, "Deliverable")),
    ]


def test_a_commit_s_file_list_in_a_dated_log_is_history(tmp_path: Path) -> None:
    # A session history a workflow appends to: each commit's dated heading, then "Files
    # changed:" over its files, or its diffstat (round 137's judges: a recorded commit's
    # files, correct at the time, false). A list under a dated heading introduced by no act
    # still claims.
    repo, _ = scripts_repo(tmp_path / "p")
    body = (
        "### 2026-05-02 02:41:35 UTC\n- **Commit:** scripts\n- Files changed:\n"
        "  - `A\tscripts/check.sh`\n  - `A\tscripts/deploy.sh`\n\n"
        "### 2026-05-02 03:42:44 UTC\nChanged files:\n- scripts/check.sh\n- scripts/deploy.sh\n\n"
        "### 2026-05-02 04:00:00 UTC\nScripts we rely on:\n- scripts/check.sh\n"
        "- scripts/deploy.sh\n\n"
        "A commit's diffstat, pasted into the log some days later:\n"
        "  scripts/deploy.sh | 81 ++++++--\n  - `scripts/deploy.sh | 11 +++`\nM\tscripts/deploy.sh\n"
    )
    tree = write_tree(tmp_path / "memory", {"history.md": memory("history", body=body)})
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "history.md", line(body, "04:00:00") + 3),
    ]


def test_a_note_of_one_day_written_before_the_deletion_is_history(tmp_path: Path) -> None:
    # A daily log or briefing named for its day (``2026-05-02.md``, ``briefings/c-20260502-
    # 0915.md``) records that day: a script it ran, deleted or moved the day after, was
    # there then (held-out judges: false, and editing the log would rewrite its history;
    # rounds 136 and 138 judged all 41 such moves false, briefings' output lists and a
    # compaction's record of the notes it moved). A note dated after the deletion or the
    # move, or named for no day, still claims the script, and a moved script's new path
    # leads its reader on.
    repo, _ = scripts_repo(tmp_path / "p")
    repo.move("move the checks", "scripts/check.sh", "ci/check.sh")
    ran = "Ran `scripts/deploy.sh`, then `scripts/check.sh`."
    tree = write_tree(
        tmp_path / "memory",
        {
            "2026-05-02.md": memory("day", body=ran),
            "briefings/c-20260502-0915.md": memory("cycle", body=ran),
            "2026-05-09.md": memory("later", body=ran),
            "runbook.md": memory("runbook", body=ran),
        },
    )
    assert sorted(codes(findings(tree, "stale-refs", location=at(repo.path)))) == [
        ("deleted-file-reference", "2026-05-09.md", BODY_START),
        ("deleted-file-reference", "runbook.md", BODY_START),
        ("renamed-file-reference", "2026-05-09.md", BODY_START),
        ("renamed-file-reference", "runbook.md", BODY_START),
    ]


def test_a_file_named_for_a_version_or_a_plan_is_no_days_note(tmp_path: Path) -> None:
    # A version's stamp or a plan cut on a day still claims what it names (as a dated
    # heading that is a version's stamp does); a day no calendar has names no day
    repo, _ = scripts_repo(tmp_path / "p")
    ran = "Ran `scripts/deploy.sh`."
    names = ["runbook-v2026.05.01.md", "release-plan-v5-2026-05-01.md", "plan_2026-05-01.md"]
    names.append("2026-02-31.md")
    tree = write_tree(tmp_path / "memory", {n: memory(n[:8], body=ran) for n in names})
    found = codes(findings(tree, "stale-refs", location=at(repo.path)))
    assert sorted(found) == sorted(("deleted-file-reference", n, BODY_START) for n in names)


def test_a_memory_citing_the_deleting_commit_records_the_deletion(tmp_path: Path) -> None:
    repo, gone = scripts_repo(tmp_path / "p")
    recorded = f"Commit {gone[:7]} tidied the release flow.\n\nIt used `scripts/deploy.sh`."
    unaware = "The release flow uses `scripts/deploy.sh`."
    tree = write_tree(
        tmp_path / "memory",
        {"a.md": memory("a", body=recorded), "b.md": memory("b", body=unaware)},
    )
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "b.md", BODY_START)
    ]


def test_a_move_git_saw_as_delete_and_add_is_reported_as_a_move_with_the_fix(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("docs", {"documentation/GUIDE.md": "old words\n" * 20, "src/a.py": "a\n"})
    (repo.path / "documentation" / "GUIDE.md").unlink()
    moved = repo.commit("rewrite the guide at the root", {"GUIDE.md": "new text\n" * 30})
    body = "The guide (`documentation/GUIDE.md`) is the source of truth."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    [found] = findings(tree, "stale-refs", location=at(repo.path))
    assert (found.code, found.line) == ("renamed-file-reference", BODY_START)
    assert found.message.startswith(
        f"`documentation/GUIDE.md` was moved to `GUIDE.md` in {moved[:7]}"
    )
    assert found.fix is not None
    assert found.fix["new"] == "GUIDE.md"


def test_the_one_same_named_file_the_project_has_now_is_named_in_the_suggestion(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("first", {"docs/SETUP.md": "s\n", "docs/PLAN.md": "p\n", "ops/PLAN.md": "o\n"})
    repo.remove("drop the docs", "docs")  # 2026-05-03
    repo.commit("setup again", {"guide/SETUP.md": "a different setup\n"})  # 2026-05-04
    body = "Setup steps: `docs/SETUP.md`.\nThe plan: `docs/PLAN.md`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    setup, plan = findings(tree, "stale-refs", location=at(repo.path))
    assert setup.code == plan.code == "deleted-file-reference"
    assert setup.suggestion == (
        "`guide/SETUP.md` exists now (added in "
        f"{repo.git('rev-parse', '--short=7', 'HEAD')} (2026-05-04)): update the reference"
    )
    # ops/PLAN.md was there all along: maybe the same file, maybe not.
    assert plan.suggestion == (
        "`ops/PLAN.md` exists now (added in "
        f"{repo.git('rev-parse', '--short=7', 'HEAD~2')} (2026-05-02)): update the reference "
        "if it is the same file, otherwise remove or update the memory"
    )


def test_bare_file_names_are_looked_up_in_the_whole_history(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit(
        "components",
        {
            "src/components/Header.tsx": "h\n",
            "src/components/Footer.tsx": "f\n",
            "src/App.tsx": "a\n",
            "scripts/publish.sh": "p\n",
        },
    )
    # moved into a subfolder, then deleted there: the name left two paths behind
    repo.move("layout folder", "src/components/Header.tsx", "src/components/layout/Header.tsx")
    repo.move("layout folder", "src/components/Footer.tsx", "src/components/layout/Footer.tsx")
    repo.remove("new shell", "src/components/layout", "scripts/publish.sh")
    body = "The shell renders `Header.tsx` and `Footer.tsx`.\nReleases run `publish.sh`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert [(f.code, f.line, f.message.split(" was ")[0]) for f in found] == [
        ("deleted-file-reference", BODY_START, "`Header.tsx`"),
        ("deleted-file-reference", BODY_START, "`Footer.tsx`"),
        ("deleted-file-reference", BODY_START + 1, "`publish.sh`"),
    ]


def test_a_rename_record_counts_even_when_a_file_of_the_old_name_exists_elsewhere(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("first", {"ROADMAP.md": "plan\n" * 10, "web/ROADMAP.md": "web\n", "x.txt": "x"})
    repo.move("file the roadmap", "ROADMAP.md", "docs/plans/roadmap-2026.md")
    repo.move("scene into a folder", "x.txt", "scenes/x.txt")
    body = "Priorities are in `ROADMAP.md`.\nScenes load from `x.txt`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    [found] = findings(tree, "stale-refs", location=at(repo.path))
    # x.txt moved into a folder under its own name: the name still finds it.
    assert (found.code, found.line) == ("renamed-file-reference", BODY_START)
    assert found.suggestion == "update the reference to `docs/plans/roadmap-2026.md`"


def test_a_file_first_seen_in_keeps_its_new_name_but_not_its_deletion(tmp_path: Path) -> None:
    # a rule's provenance line: a deleted file there is history the memory keeps; a renamed
    # one is still worth its new name (the edit is right, the note stays)
    repo = Repo(tmp_path / "p")
    repo.commit("first", {"src/wizard.tsx": "w\n" * 10, "src/items.tsx": "i\n" * 10})
    repo.remove("drop the wizard", "src/wizard.tsx")
    repo.move("name the form", "src/items.tsx", "src/form-items.tsx")
    body = "Always render role=alert.\nFirst seen in: `src/wizard.tsx`.\nFirst seen in: `src/items.tsx`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    [found] = findings(tree, "stale-refs", location=at(repo.path))
    assert (found.code, found.line) == ("renamed-file-reference", line(body, "items.tsx"))


def test_words_of_time_that_record_no_history_leave_the_claim(tmp_path: Path) -> None:
    # "long-lived", "at the time of writing" and "backend" hold the history words' letters
    # but say what is so now: the deleted folder is still claimed
    repo = fixtures_repo(tmp_path / "p")
    body = (
        "Long-lived golden meshes come from `tests/fixtures/`.\n"
        "At the time of writing, goldens live in `tests/fixtures/`."
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", line(body, "Long-lived")),
        ("deleted-file-reference", "a.md", line(body, "of writing")),
    ]


def test_a_move_read_after_the_history_was_cached_is_still_a_move(
    tmp_path: Path, isolated_home: Path
) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("docs", {"documentation/GUIDE.md": "old words\n" * 20, "src/a.py": "a\n"})
    body = "The guide (`documentation/GUIDE.md`) is the source of truth."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    assert findings(tree, "stale-refs", location=at(repo.path)) == []  # history cached
    (repo.path / "documentation" / "GUIDE.md").unlink()
    repo.commit("rewrite the guide at the root", {"GUIDE.md": "new text\n" * 30})
    # the second audit reads only the new commit, and keeps the cached additions
    repo.commit("more", {"src/b.py": "b\n"})
    for _ in range(2):
        [found] = findings(tree, "stale-refs", location=at(repo.path))
        assert found.message.startswith("`documentation/GUIDE.md` was moved to `GUIDE.md`")


def test_a_folder_now_ignored_is_local_not_stale(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("first", {"private/plan.md": "p\n", "src/a.py": "a\n", "notes/n.md": "n\n"})
    repo.remove("keep it out of the public repository", "private", "notes")
    repo.commit("ignore it", {".gitignore": "private/\n"})
    body = "Personal folders, kept out of git: `private/`.\nNotes: `notes/`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", BODY_START + 1)
    ]


def test_one_of_several_same_named_files_deleted_with_one_added_is_no_move(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("modules", {"billing/NOTES.md": "b\n", "ledger/NOTES.md": "l\n", "a.py": "a"})
    repo.git("rm", "-rq", "billing", "ledger")
    repo.commit("fold both modules into payments", {"payments/NOTES.md": "p\n"})
    body = "Billing notes: `billing/NOTES.md`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    [found] = findings(tree, "stale-refs", location=at(repo.path))
    # which of the two became payments/NOTES.md, if either, git cannot tell
    assert found.code == "deleted-file-reference"


RECORDING = """\
## Cleanup of 1 May: what was deleted

| file | why |
|---|---|
| `scripts/deploy.sh` | CI deploys now |

The deploy flow had used `scripts/deploy.sh` for a year.

### 削除したファイル
`scripts/deploy.sh` はデプロイ用だった。

## Releases

Releases start from `scripts/deploy.sh`."""


def test_a_section_whose_heading_records_the_deletion_claims_nothing(tmp_path: Path) -> None:
    repo, _ = scripts_repo(tmp_path / "p")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=RECORDING)})
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", line(RECORDING, "Releases start"))
    ]


def test_a_file_renamed_then_deleted_names_the_deletion(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("first", {"src/components/Header.tsx": "h\n", "src/App.tsx": "a\n"})
    repo.move("layout folder", "src/components/Header.tsx", "src/layout/Header.tsx")
    gone = repo.remove("new shell", "src/layout/Header.tsx")
    body = "The header lives in `src/components/Header.tsx`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    [found] = findings(tree, "stale-refs", location=at(repo.path))
    assert found.message == (
        f"`src/components/Header.tsx` was deleted from the project in {gone[:7]} (2026-05-04)"
    )


def test_a_memory_describing_many_deleted_files_is_one_finding(tmp_path: Path) -> None:
    # A module's file table, then a dead-code cleanup deleted the module: one decision
    # about the memory, not a finding per row.
    repo = Repo(tmp_path / "p")
    files = {f"src/sim/part{i}.rs": f"fn p{i}() {{}}\n" for i in range(5)}
    repo.commit("simulation", {**files, "src/main.rs": "fn main() {}\n"})
    repo.remove("remove dead code: the simulation module", "src/sim")
    table = "".join(f"| `src/sim/part{i}.rs` | step {i} of the solver |\n" for i in range(5))
    body = "| File | Role |\n|---|---|\n" + table + "\nThe entry point is `src/main.rs`.\n"
    few = "Stepping lives in `src/sim/part0.rs`.\n"
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body=body), "b.md": memory("b", body=few)}
    )
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert codes(found) == [
        ("deleted-file-reference", "a.md", line(body, "part0")),
        ("deleted-file-reference", "b.md", BODY_START),
    ]
    grouped = found[0]
    assert grouped.message == (
        "5 files it describes were deleted from the project: `src/sim/part0.rs`,"
        " `src/sim/part1.rs`, `src/sim/part2.rs`, `src/sim/part3.rs`, `src/sim/part4.rs`"
        " (lines 8, 9, 10, 11, 12)"
    )
    assert "was deleted from the project in" in found[1].message


def test_a_memory_citing_many_renamed_files_is_one_finding_with_one_edit(
    tmp_path: Path,
) -> None:
    # Skills consolidated into a folder each by one commit: a resume note listing the old
    # files is one decision about the note, its edit updating every line at once.
    repo = Repo(tmp_path / "p")
    names = ("layout", "timer", "alerts", "streaks")
    repo.commit("skills", {f"skills/{n}-skill.md": f"# {n}\n" for n in names})
    for n in names:
        repo.move(f"move {n}", f"skills/{n}-skill.md", f"skills/{n}/SKILL.md")
    body = "".join(f"- Created: `skills/{n}-skill.md`\n" for n in names)
    few = "See `skills/layout-skill.md`.\n"
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body=body), "b.md": memory("b", body=few)}
    )
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert codes(found) == [
        ("renamed-file-reference", "a.md", BODY_START),
        ("renamed-file-reference", "b.md", BODY_START),
    ]
    grouped = found[0]
    assert grouped.message == (
        "4 files it names were renamed or moved: "
        + ", ".join(f"`skills/{n}-skill.md` → `skills/{n}/SKILL.md`" for n in names)
        + f" (lines {', '.join(str(BODY_START + i) for i in range(4))})"
    )
    assert grouped.fix == {
        "action": "replace-texts",
        "path": "a.md",
        "replacements": [
            {"line": BODY_START + i, "old": f"skills/{n}-skill.md", "new": f"skills/{n}/SKILL.md"}
            for i, n in enumerate(names)
        ],
    }
    assert found[1].fix is not None
    assert found[1].fix["action"] == "replace-text"


def test_files_a_commit_moved_out_to_another_package_are_not_stale(tmp_path: Path) -> None:
    # "brainsplit: extract brain logic to fernbrain package": the files live on there; a
    # memory citing them is not stale for that. A plain deletion still is.
    repo = Repo(tmp_path / "p")
    files = {"src/brain.py": "b\n", "src/old_led.py": "l\n", "package-lock.json": "{}\n"}
    repo.commit("robot", {**files, "src/main.py": "m\n"})
    repo.remove("brainsplit: extract brain logic to fernbrain package", "src/brain.py")
    gone = repo.remove("remove dead LED code", "src/old_led.py")
    # a tool moved to, and a file name holding "package": no destination
    dropped = repo.remove("Migrate to pnpm, remove package-lock.json", "package-lock.json")
    body = (
        "Ticks come from `src/brain.py`.\nThe LED lives in `src/old_led.py`.\n"
        "Versions are pinned in `package-lock.json`.\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(repo.path))
    assert [(f.code, f.line) for f in result.findings] == [
        ("deleted-file-reference", BODY_START + 1),
        ("deleted-file-reference", BODY_START + 2),
    ]
    assert gone[:7] in result.findings[0].message
    assert dropped[:7] in result.findings[1].message
    assert any(
        s.reason.startswith("1 reference(s) to files their deleting commit moved into a package")
        for s in result.skipped
    )


WRAPPED = """\
- Supporting: `src/keep.py` (kept).
  NOTE: `src/tool.py` (the brittle exact matcher) was
  DELETED 2026-05-03 — superseded by the grains tool.
- The runner still lives in `src/tool.py`, wrapped
  across two lines of this item."""


def test_a_wrapped_line_whose_sentence_records_the_deletion_claims_nothing(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("tools", {"src/tool.py": "t\n", "src/keep.py": "k\n"})
    repo.remove("drop the matcher", "src/tool.py")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=WRAPPED)})
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", line(WRAPPED, "still lives"))
    ]


def test_a_lesson_written_in_the_commit_that_deleted_the_file_records_it(tmp_path: Path) -> None:
    # The agent that deleted `components/empty-state.tsx` wrote its lesson in the same
    # commit: the incident it cites is the deletion itself. A project note written in that
    # commit, or a memory written later, that still describes a deleted file is stale.
    repo = Repo(tmp_path / "app")
    repo.commit(
        "ui",
        {"components/empty-state.tsx": "x\n", "components/banner.tsx": "b\n", "src/a.ts": "a\n"},
    )
    lesson = "Gate effects on the parent: `components/empty-state.tsx` fired them twice."
    state = "New pages reuse the fetch layer in `src/a.ts`."
    repo.git("rm", "-q", "components/empty-state.tsx", "src/a.ts")
    repo.commit(
        "drop the empty state",
        {
            ".claude/memory/lesson.md": memory("lesson", type="feedback", body=lesson),
            ".claude/memory/state.md": memory("state", body=state),
        },
    )
    later = "The banner lives in `components/banner.tsx`."
    repo.git("rm", "-q", "components/banner.tsx")
    repo.commit("drop the banner")
    repo.commit("notes", {".claude/memory/banner.md": memory("banner", body=later)})
    tree = repo.path / ".claude" / "memory"
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "banner.md", BODY_START),
        ("deleted-file-reference", "state.md", BODY_START),
    ]


def test_a_note_reporting_its_writer_s_act_before_the_deletion_records_it(tmp_path: Path) -> None:
    # An agent's cycle journal (``cycles/66.md``, named for no day) opens its lines with what
    # it did: "- created `docs/why.html`". The project had the note before it deleted the
    # page, so the page was there when it was made (round 138's judges: false, a journal's
    # history). The same line in a note added after the deletion claims a page already gone,
    # and a living note that says a page is "built but hardcoded" still claims it.
    # Nor is a participle before a claim an act ("Generated pages live in ..."), and a
    # moved file's new place still leads on.
    repo = Repo(tmp_path / "site")
    repo.commit(
        "pages",
        {"docs/why.html": "w\n", "docs/posts.js": "p\n", "docs/a.html": "a\n", "i.html": "i\n"},
    )
    did = "- created `docs/why.html` - a guide for forkers\n- updated docs/a.html to pull live data"
    status = (
        "- Built but hardcoded in `docs/posts.js`\nGenerated pages live in `docs/why.html`.\n"
        "Updated weekly by cron: `docs/posts.js`"
    )
    repo.commit(
        "cycle 66",
        {
            ".claude/memory/cycles/66.md": memory("cycle 66", body=did),
            ".claude/memory/project.md": memory("project", body=status),
        },
    )
    repo.remove("drop the old pages", "docs/why.html", "docs/posts.js")
    repo.move("move a page", "docs/a.html", "site/a.html")
    repo.commit("cycle 90", {".claude/memory/cycles/90.md": memory("cycle 90", body=did)})
    tree = repo.path / ".claude" / "memory"
    assert sorted(codes(findings(tree, "stale-refs", location=at(repo.path)))) == [
        ("deleted-file-reference", "cycles/90.md", BODY_START),
        ("deleted-file-reference", "project.md", BODY_START),
        ("deleted-file-reference", "project.md", BODY_START + 1),
        ("deleted-file-reference", "project.md", BODY_START + 2),
        ("renamed-file-reference", "cycles/66.md", BODY_START + 1),
        ("renamed-file-reference", "cycles/90.md", BODY_START + 1),
    ]


def test_a_day_s_record_the_moving_commit_added_records_the_move(tmp_path: Path) -> None:
    # A compaction moves its inbox notes to archive/ and, in the same commit, writes its
    # record naming their old places; the record is named for its UTC day, the commit for
    # the committer's local one, a day earlier (round 138: seven such records, judged
    # false). A project note that commit added still claims the old place.
    repo = Repo(tmp_path / "log")
    repo.commit("note", {"memory/inbox/handoff.md": memory("handoff", body="Handed over.")})
    old = "Source entries: `memory/inbox/handoff.md`."
    repo.write(
        {
            "memory/compactions/20260504-052525.md": memory("compaction", body=old),
            "memory/state.md": memory("state", body=old),
        }
    )
    repo.move("compact", "memory/inbox/handoff.md", "memory/archive/handoff.md")  # day 3
    tree = repo.path / "memory"
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("renamed-file-reference", "state.md", BODY_START),
    ]


def test_an_archived_memory_s_deleted_and_moved_paths_are_history(tmp_path: Path) -> None:
    # A memory moved to _archive/ records an investigation whose scripts the project later
    # deleted or moved on purpose: its pointers to them are history, and no session loads
    # it to be led astray (round 138's judges: 27 of 27 moves in archived notes false, a
    # compaction had moved the notes they named from inbox/ to archive/). Each is counted.
    repo = Repo(tmp_path / "app")
    repo.commit(
        "diagnostics", {"diag/probe.py": "p\n", "diag/geometry.py": "g\n", "src/a.py": "a\n"}
    )
    repo.git("rm", "-q", "diag/probe.py")
    repo.commit("drop the probe")
    repo.move("move geometry", "diag/geometry.py", "src/geometry.py")
    note = "Ran `diag/probe.py`, then checked `diag/geometry.py`."
    tree = write_tree(
        tmp_path / "memory",
        {
            "_archive/investigation.md": memory("investigation", body=note),
            "live.md": memory("live", body=note),
        },
    )
    result = report(tree, "stale-refs", location=at(repo.path))
    assert codes(list(result.findings)) == [
        ("deleted-file-reference", "live.md", BODY_START),
        ("renamed-file-reference", "live.md", BODY_START),
    ]
    assert "2 deleted or moved path(s) in archived memories: their history" in [
        skip.reason for skip in result.skipped
    ]
