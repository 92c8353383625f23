from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_audit.checks.stale_refs import DesignDoc, Options
from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, digest, findings, index, memory, report, write_tree
from tests.support.git_repo import Repo


def at(project: Path) -> ProjectLocation:
    return ProjectLocation("-p", project, None)


def billing_repo(path: Path) -> Repo:
    repo = Repo(path)
    repo.commit(
        "first",
        {
            "src/billing/rate.py": "x = 1\n",
            "src/billing/retry.py": "y = 2\n",
            "scripts/deploy.sh": "echo deploy\n",
            "scripts/check.sh": "echo check\n",
            "docs/plan.md": "ADR-7 retries\nADR-9 discounts\n",
        },
    )
    return repo


def test_a_deleted_script_still_described_as_active_names_the_commit_and_date(
    tmp_path: Path,
) -> None:
    repo = billing_repo(tmp_path / "ledgerly")
    gone = repo.remove("drop the deploy script", "scripts/deploy.sh")
    date = repo.git("log", "-1", "--format=%cs", gone)
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("deploy.md", "release.md"),
            "deploy.md": memory("deploy", body="Deploys run `scripts/deploy.sh` from CI."),
            "release.md": memory("release", body="Release: scripts/deploy.sh, then tag."),
        },
    )
    before = digest(repo.path)
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert codes(found) == [
        ("deleted-file-reference", "deploy.md", 6),
        ("deleted-file-reference", "release.md", 6),
    ]
    assert found[0].message == (
        f"`scripts/deploy.sh` was deleted from the project in {gone[:7]} ({date})"
    )
    assert digest(repo.path) == before


def test_the_same_memories_with_the_script_present_are_clean(tmp_path: Path) -> None:
    repo = billing_repo(tmp_path / "ledgerly")
    tree = write_tree(
        tmp_path / "memory",
        {"deploy.md": memory("deploy", body="Deploys run `scripts/deploy.sh` from CI.")},
    )
    assert findings(tree, "stale-refs", location=at(repo.path)) == []


def test_a_renamed_file_suggests_the_new_path_and_offers_it_as_the_fix(tmp_path: Path) -> None:
    repo = billing_repo(tmp_path / "ledgerly")
    moved = repo.move("rename retry", "src/billing/retry.py", "src/billing/retries.py")
    tree = write_tree(
        tmp_path / "memory",
        {"a.md": memory("a", body="Intro.\nRetry logic lives in `src/billing/retry.py`.")},
    )
    [found] = findings(tree, "stale-refs", location=at(repo.path))
    assert (found.code, found.line) == ("renamed-file-reference", 7)
    assert f"renamed to `src/billing/retries.py` in {moved[:7]}" in found.message
    assert found.suggestion == "update the reference to `src/billing/retries.py`"
    assert found.fix == {
        "action": "replace-text",
        "path": "a.md",
        "line": 7,
        "old": "src/billing/retry.py",
        "new": "src/billing/retries.py",
    }


def test_memory_md_is_scanned_too(tmp_path: Path) -> None:
    repo = billing_repo(tmp_path / "ledgerly")
    repo.remove("drop", "scripts/check.sh")
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md") + "- Checks: `scripts/check.sh`\n", "a.md": memory("a")},
    )
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "MEMORY.md", 3)
    ]


PROSE = """\
Models: Opus/Sonnet/Haiku, tiers C1/C2/C3, some/many/legacy, Full Auto/Blast/Flame.
The skills and hooks folders; scratch goes to tmp.
Work on feature/x, compare with origin/main, b4/foo is the series.
Tests: `tests/**/*.py`, src/*.py and `{src,lib}/x.py`.
Placeholders: `…/memory`, `<path>/x.py`, `.../memory`, `path/to/file.py`, `$HOME/x.sh`.
Build output lands in `dist/bundle.js` and `node_modules/pkg/index.js`.
For example `src/example.py` shows the layout.
See https://github.com/acme/ledgerly/blob/main/src/url.py and example.com/src/x.py.
We renamed `old.sh` to `new.sh`; `legacy.sh` was deleted.
"""


def prose_repo(path: Path) -> Repo:
    """A project whose history really had paths the prose above could be misread as."""
    repo = Repo(path)
    repo.commit(
        "first",
        {
            name: "x\n"
            for name in (
                "feature/x",
                "b4/foo",
                "skills/a.md",
                "hooks/pre.sh",
                "tmp/scratch.txt",
                "dist/bundle.js",
                "node_modules/pkg/index.js",
                "src/example.py",
                "src/url.py",
                "old.sh",
                "legacy.sh",
                "src/keep.py",
            )
        },
    )
    repo.remove("clean", "feature", "b4", "skills", "hooks", "tmp", "dist", "node_modules")
    repo.remove("clean src", "src/example.py", "src/url.py", "legacy.sh")
    repo.move("rename", "old.sh", "new.sh")
    return repo


def test_prose_read_as_paths_is_not_a_reference(tmp_path: Path) -> None:
    repo = prose_repo(tmp_path / "p")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=PROSE)})
    assert findings(tree, "stale-refs", location=at(repo.path)) == []


def test_each_prose_line_alone_is_clean_but_a_real_claim_beside_it_is_not(
    tmp_path: Path,
) -> None:
    repo = prose_repo(tmp_path / "p")
    for number, line in enumerate(PROSE.splitlines()):
        body = f"{line}\nThe helper is `src/url.py`."
        tree = write_tree(tmp_path / f"memory{number}", {"a.md": memory("a", body=body)})
        found = findings(tree, "stale-refs", location=at(repo.path))
        assert [(f.code, f.line) for f in found] == [("deleted-file-reference", 7)], line


def test_a_secret_shaped_token_is_not_read_as_a_path(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "p")
    token = "AbCdEf1234567890GhIjKlMn42"
    repo.commit("first", {f"keys/{token}": "x\n", "keys/readme.txt": "x\n"})
    repo.remove("drop", f"keys/{token}")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=f"Key: keys/{token}")})
    assert findings(tree, "stale-refs", location=at(repo.path)) == []


def commit_repo(path: Path) -> tuple[Repo, str, str]:
    """A project with a reachable commit and one that a deleted branch left unreachable."""
    repo = billing_repo(path)
    kept = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-qb", "topic")
    lost = repo.commit("topic work", {"topic.txt": "t\n"})
    repo.git("checkout", "-q", "main")
    repo.git("branch", "-qD", "topic")
    return repo, kept, lost


def test_commits_unreachable_or_absent_are_stale_others_repositories_are_not(
    tmp_path: Path,
) -> None:
    repo, kept, lost = commit_repo(tmp_path / "p")
    body = (
        f"Rates since commit {kept[:9]}.\n"
        f"Topic landed as commit {lost[:9]}.\n"
        "Retries fixed in 4f2a91c0.\n"
        "In nixosconfig, commit abc1234 pinned the kernel.\n"
        "Upstream commit 9e8d7c6b fixed the driver.\n"
        "See deadbeef0 (not labelled) and (12ab34cd).\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert [(f.code, f.line) for f in found] == [
        ("stale-commit-reference", 7),
        ("stale-commit-reference", 8),
    ]
    assert "no longer reachable from any branch or tag" in found[0].message
    assert found[0].level == "suggestion"  # worth a look: the level of the whole code
    assert found[1].message == (
        "commit `4f2a91c0` is not in the project's history (rewritten away, or another"
        " repository's?)"
    )
    assert found[1].level == "suggestion"


def test_when_no_cited_commit_is_in_the_project_they_are_another_repositorys(
    tmp_path: Path,
) -> None:
    repo = billing_repo(tmp_path / "p")
    body = "Merged as commit 4f2a91c0; follow-up commit 5e6f7a8b."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(repo.path))
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == [
        "2 commit reference(s) not checked — none of them is in this project's history "
        "(another repository's commits?)"
    ]


def test_a_hash_of_a_blob_is_not_a_commit(tmp_path: Path) -> None:
    repo, kept, _ = commit_repo(tmp_path / "p")
    blob = repo.git("rev-parse", "HEAD:scripts/deploy.sh")
    body = f"Config pinned at commit {blob} (after commit {kept[:8]})."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(repo.path))
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == ["1 hash(es) name a blob, not a commit"]


def test_without_a_project_nothing_is_reported_and_the_skip_says_why(tmp_path: Path) -> None:
    body = "See `src/x.py` and `~/bin/tool.sh` (commit 4f2a91c0).\n/opt/app/run.sh runs it."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs")
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == [
        "2 home or absolute path(s) not checked here — the tree is not a Claude Code tree "
        "on this machine",
        "1 relative path(s) not checked — project root not located",
        "1 commit reference(s) not checked — project not located",
    ]


def claude_tree(home: Path, files: dict[str, str]) -> Path:
    return write_tree(home / ".claude/projects/-work-p/memory", files)


def test_machine_paths_are_checked_on_their_own_machine(
    tmp_path: Path, isolated_home: Path
) -> None:
    write_tree(isolated_home, {".claude/rules/testing.md": "rule"})
    body = (
        "Rules: `~/.claude/rules/testing.md`, `~/.claude/rules/gone.md`.\n"
        "Scratch in /tmp/build/out.log, devices at /dev/ttyUSB9, mounts at /mnt/nas/x.txt.\n"
        "API route /api/v1/users.\n"
    )
    tree = claude_tree(isolated_home, {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs")
    assert [(f.code, f.message, f.judgment) for f in found] == [
        ("missing-file-reference", "`~/.claude/rules/gone.md` is not on this machine", True)
    ]


def test_auto_memory_directory_counts_as_this_machines_tree(
    tmp_path: Path, isolated_home: Path
) -> None:
    custom = tmp_path / "elsewhere/memory"
    write_tree(
        isolated_home,
        {".claude/settings.json": json.dumps({"autoMemoryDirectory": str(custom)})},
    )
    tree = write_tree(custom, {"a.md": memory("a", body="Tool: `~/bin/gone.sh`.")})
    assert [f.message for f in findings(tree, "stale-refs")] == [
        "`~/bin/gone.sh` is not on this machine"
    ]


def test_a_project_path_written_absolute_gets_the_history_evidence(
    tmp_path: Path, isolated_home: Path
) -> None:
    repo = billing_repo(isolated_home / "work/ledgerly")
    gone = repo.remove("drop", "scripts/check.sh")
    body = f"Run {repo.path}/scripts/check.sh before pushing."
    tree = claude_tree(isolated_home, {"a.md": memory("a", body=body)})
    [found] = findings(tree, "stale-refs", location=at(repo.path))
    assert found.code == "deleted-file-reference"
    assert gone[:7] in found.message


def test_the_history_is_cached_by_head(tmp_path: Path, isolated_home: Path) -> None:
    repo = billing_repo(tmp_path / "p")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="`scripts/check.sh`")})
    assert findings(tree, "stale-refs", location=at(repo.path)) == []
    [cache] = (isolated_home / ".local/state/memory-audit/cache").glob("git-history-*.json")
    assert cache.stat().st_mode & 0o777 == 0o600
    assert json.loads(cache.read_text())["head"] == repo.git("rev-parse", "HEAD")
    repo.remove("drop", "scripts/check.sh")
    assert codes(findings(tree, "stale-refs", location=at(repo.path))) == [
        ("deleted-file-reference", "a.md", 6)
    ]
    assert json.loads(cache.read_text())["head"] == repo.git("rev-parse", "HEAD")


def test_paths_never_in_the_history_are_a_note_only_when_asked_for(tmp_path: Path) -> None:
    repo = billing_repo(tmp_path / "p")
    body = "See `src/billing/never.py`, `nodir/never.py` and `src/billing/Never`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    assert findings(tree, "stale-refs", location=at(repo.path)) == []
    options = {"stale-refs": Options(never_existed=True)}
    found = findings(tree, "stale-refs", options=options, location=at(repo.path))
    assert [(f.message, f.judgment) for f in found] == [
        ("`src/billing/never.py` was never in the project's history", True)
    ]


def test_stale_refs_design_doc_ids(tmp_path: Path) -> None:
    repo = billing_repo(tmp_path / "p")
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body="Per ADR-7 and ADR-12 we retry.")}
    )
    options = {"stale-refs": Options(design_docs=(DesignDoc(r"ADR-\d+", "docs/plan.md"),))}
    found = findings(tree, "stale-refs", options=options, location=at(repo.path))
    assert [(f.code, f.message) for f in found] == [
        ("outdated-reference", "cites `ADR-12`, which docs/plan.md no longer mentions")
    ]


def test_stale_refs_session_recaps_are_exempt(tmp_path: Path) -> None:
    repo = billing_repo(tmp_path / "p")
    repo.remove("drop", "scripts/check.sh")
    tree = write_tree(
        tmp_path / "memory",
        {
            "sessions/2026-01-01-x.md": memory(
                "x", type="session-recap", body="`scripts/check.sh` commit 4f2a91c0"
            )
        },
    )
    assert findings(tree, "stale-refs", location=at(repo.path)) == []


def test_files_behind_a_tracked_symlink_or_now_ignored_are_not_stale(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit(
        "first", {"tools/x/run.py": "r\n", "tools/keep.py": "k\n", "conf/local.yml": "a: 1\n"}
    )
    repo.remove("move tools/x to its own repository", "tools/x")
    (repo.path / "tools/x").symlink_to("../../elsewhere/x")
    repo.git("rm", "-q", "--cached", "conf/local.yml")
    repo.commit("link it; stop tracking the local env", {".gitignore": "conf/local.yml\n"})
    body = "Run `tools/x/run.py` or `run.py`; settings in `conf/local.yml`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    (repo.path / "conf/local.yml").unlink()  # even when it is not on this disk
    assert findings(tree, "stale-refs", location=at(repo.path)) == []


def test_a_hash_the_line_attributes_to_another_named_repository_is_not_checked(
    tmp_path: Path,
) -> None:
    repo, kept, lost = commit_repo(tmp_path / "p")
    body = (
        f"Rates since commit {kept[:9]}; the topic landed as commit {lost[:9]}.\n"
        "The frontend-app commit 4f2a91c0 added the login page.\n"
        "Matching `billing` commit 5e6f7a8b changed the token format.\n"
        "Its follow-up commit 6a7b8c9d is ours and missing.\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert [(f.code, f.line) for f in found] == [
        ("stale-commit-reference", 6),
        ("stale-commit-reference", 9),
    ]


def test_a_pinned_dependencys_commit_and_a_checksum_are_no_commits_of_the_project(
    tmp_path: Path,
) -> None:
    # A dependency pinned to a commit cites its own repository's history; a SHA-256 of a
    # download is no commit at all.
    repo, kept, lost = commit_repo(tmp_path / "p")
    body = (
        f"Rates since commit {kept[:9]}; the topic landed as commit {lost[:9]}.\n"
        "- pinned `fern/lint-action` from floating `@v3` to commit `4e1c2b9a7d`\n"
        "- every `actions/*` step pinned to a commit SHA (checkout `93cb6ef`, "
        "setup-node `ece7cb0`)\n"
        "- SHA256 of the installer (`9a7d3c1…`) checked before it runs\n"
        "- the sha-256 `5b6c7d8e` of the tarball\n"
        "- SHA 6a7b8c9d is ours and missing.\n"
        "- The SHA-256 hash of the installer: 9a7d3c1e5f\n"
        "- Fixed the cart race in src/actions/cart.ts, commit 7b8c9d0e.\n"
        "- Pinned requirements/prod.txt to Django 4.2 in commit 8c9d0e1f.\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert [(f.line, f.message.split("`")[1]) for f in found] == [
        (6, lost[:9]),
        (11, "6a7b8c9d"),
        (13, "7b8c9d0e"),
        (14, "8c9d0e1f"),
    ]


def test_a_list_introduced_as_removed_records_the_deletion_and_is_not_stale(
    tmp_path: Path,
) -> None:
    repo = billing_repo(tmp_path / "p")
    repo.remove("drop the scripts", "scripts/deploy.sh", "scripts/check.sh")
    body = (
        "We ripped out the shell scripts:\n"
        "\n"
        "- `scripts/deploy.sh`\n"
        "- `scripts/check.sh`\n"
        "\n"
        "Releases still start from:\n"
        "\n"
        "- `scripts/deploy.sh` on the build host\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert codes(found) == [("deleted-file-reference", "a.md", 13)]


def test_a_hash_attributed_after_it_or_by_a_plain_project_name_is_not_checked(
    tmp_path: Path,
) -> None:
    repo, kept, lost = commit_repo(tmp_path / "p")
    body = (
        f"Rates since commit {kept[:9]}; the topic landed as commit {lost[:9]}.\n"
        "1. **Install script** (commit 4f2a91c0 in lite-installer)\n"
        "2. **Start script** (commit 5e6f7a8b в\n"
        "   lite-installer) — add the same warning\n"
        "Key files: ferncastle commits 6a7b8c9d, 7b8c9d0e; notes to follow.\n"
        "Latest commits 8c9d0e1f and 9d0e1f2a are ours and missing.\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert [(f.code, f.line, f.message.split("`")[1]) for f in found] == [
        ("stale-commit-reference", 6, lost[:9]),
        ("stale-commit-reference", 11, "8c9d0e1f"),
        ("stale-commit-reference", 11, "9d0e1f2a"),
    ]


def test_a_session_s_id_on_a_line_citing_a_commit_is_no_commit(tmp_path: Path) -> None:
    # "(session `0511c092`)": the head of the session's UUID, on a line that also says what
    # was committed; the commit on the line is still checked.
    repo, kept, lost = commit_repo(tmp_path / "p")
    body = (
        f"Approved in session `0511c092`, landed as commit {lost[:9]}.\n"
        f"Session id: 7d3e9f10, commit {kept[:9]}.\n"
        # a label of commits before "session:" still labels the hashes after it
        "Commits from the pairing session: 4f2a91c0, 9e8d7c6b.\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert [(f.code, f.line, f.message.split("`")[1]) for f in found] == [
        ("stale-commit-reference", 6, lost[:9]),
        ("stale-commit-reference", 8, "4f2a91c0"),
        ("stale-commit-reference", 8, "9e8d7c6b"),
    ]


def test_a_deployment_s_or_a_version_s_id_beside_a_commit_is_no_commit(tmp_path: Path) -> None:
    # "Prod = commit `125791e` (deployment `d0e72640`)", "Worker version `366460c2`", "content
    # hash `3e197af6`": ids a host or a tool gives, labelled so, on lines naming a commit;
    # a pull request's repository before "commit" names its history, not this one's
    repo, kept, lost = commit_repo(tmp_path / "p")
    body = (
        f"Prod = commit **`{lost[:9]}`** (deployment `d0e72640`, buildId `5c6d7e8f`).\n"
        f"Deployed commit {kept[:9]}; Worker version `366460c2` @ 16:24Z.\n"
        "Fired once per content hash `3e197af6`, not per commit.\n"
        "Found in agent-news#802 commit `686e4f43` on signals.ts.\n"
        "Reverted in commit 4f2a91c0 after the deploy.\n"
        # a build named by its hash is often the commit's: still checked
        "Rolled back the commit to build 5b6c7d8e.\n"
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(repo.path))
    assert [(f.code, f.line, f.message.split("`")[1]) for f in found] == [
        ("stale-commit-reference", 6, lost[:9]),
        ("stale-commit-reference", 10, "4f2a91c0"),
        ("stale-commit-reference", 11, "5b6c7d8e"),
    ]


def test_a_file_citing_only_other_repositories_hashes_is_skipped_with_the_reason(
    tmp_path: Path,
) -> None:
    repo, kept, lost = commit_repo(tmp_path / "p")
    log = (
        "- Website: latest commit `4f2a91c0` (blog post).\n"
        "- Product: CI duty cycle landed (`5e6f7a8b`) and retro closed (commit 6a7b8c9d).\n"
    )
    tree = write_tree(
        tmp_path / "memory",
        {
            "activity-log.md": memory("activity-log", body=log),
            "a.md": memory("a", body=f"Since commit {kept[:9]}; topic was commit {lost[:9]}."),
        },
    )
    result = report(tree, "stale-refs", location=at(repo.path))
    assert codes(list(result.findings)) == [("stale-commit-reference", "a.md", 6)]
    assert [s.reason for s in result.skipped] == [
        "3 commit reference(s) in activity-log.md not checked — none of them is in this "
        "project's history (another repository's commits?)"
    ]


def test_many_paths_of_another_machine_in_one_memory_are_one_finding(
    tmp_path: Path, isolated_home: Path
) -> None:
    # A memory written on the owner's other machine names its folders: one decision about
    # that memory, not a finding for each path.
    body = "\n".join(f"- tool {n}: `/home/ann/scripts/tool{n}/run.sh`" for n in range(6))
    body += "\nRules: `~/.claude/rules/gone.md`.\n"
    tree = claude_tree(
        isolated_home,
        {"a.md": memory("a", body=body), "b.md": memory("b", body="See `~/bin/gone.sh`.")},
    )
    found = findings(tree, "stale-refs")
    assert [(f.code, f.path, f.line) for f in found] == [
        ("missing-file-reference", "a.md", 6),
        ("missing-file-reference", "b.md", 6),
    ]
    many = found[0]
    assert many.message.startswith(
        "7 paths it names are not on this machine: `/home/ann/scripts/tool0/run.sh`,"
    )
    assert many.message.endswith("`~/.claude/rules/gone.md` (lines 6, 7, 8, 9, 10, 11, 12)")
    assert many.judgment


def test_claude_folder_paths_resolve_in_the_folder_claude_code_was_moved_to(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CLAUDE_CONFIG_DIR moved Claude Code's folder: `~/.claude/...` in a memory means it
    moved = tmp_path / "dotfiles/dot_claude"
    write_tree(moved, {"CLAUDE.md": "instructions", "rules/testing.md": "rule"})
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(moved))
    body = (
        "Home instructions at `~/.claude/CLAUDE.md`, rules in `~/.claude/rules/testing.md`"
        " and `~/.claude/rules/gone.md`; all of it under `~/.claude`."
    )
    tree = write_tree(moved / "projects/-work-p/memory", {"a.md": memory("a", body=body)})
    assert [f.message for f in findings(tree, "stale-refs")] == [
        "`~/.claude/rules/gone.md` is not on this machine"
    ]
