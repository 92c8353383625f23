from __future__ import annotations

from pathlib import Path

from tests.harness import codes, findings, index, memory, write_tree

FINISHED = "Status:\n- [x] ingest\n- [x] rate\n- [x] render\n- [ ] send\n- [x] webhooks"
ACTIVE = "Status:\n- [x] ingest\n- [ ] rate\n- [ ] render\n- [ ] send"


def audit(tree_dir: Path, files: dict[str, str]) -> list[tuple[str, str, int | None]]:
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    return codes(findings(tree_dir, "bloat"))


def test_bloat_finished_work_project_and_not_an_active_one(tree_dir: Path) -> None:
    found = audit(
        tree_dir, {"done.md": memory("done", body=FINISHED), "live.md": memory("live", body=ACTIVE)}
    )
    assert found == [("finished-work", "done.md", None)]


def test_bloat_a_capability_matrix_or_a_listing_is_not_finished_work(tree_dir: Path) -> None:
    matrix = (
        "What the app does today:\n\n| Feature | State |\n|---|---|\n"
        "| Clients and pets | ✅ Done |\n| Calendar | ✅ Done |\n| Till | ✅ Done |\n"
        "| Stock | ✅ Done |\n"
    )
    listing = "Routes:\n\n```\nauth/login/ → LoginComponent ✅\nauth/reset/ → ResetComponent ✅\n"
    listing += "dashboard/ → placeholder ✅\n```\n"
    found = audit(
        tree_dir,
        {
            "matrix.md": memory("matrix", body=matrix),
            "routes.md": memory("routes", body=listing),
            "done.md": memory("done", body=FINISHED),
        },
    )
    assert found == [("finished-work", "done.md", None)]


def test_bloat_stale_as_of_date_framed_as_current(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "old.md": memory("old", body="Intro.\nState of play as of 2026-08-01: rating is slow."),
            "month.md": memory("month", body="Current status (March 2026): discounts pending."),
            "recent.md": memory("recent", body="As of 2026-11-20 the queue is healthy."),
            "history.md": memory("history", body="In 2024-01 we moved to Postgres."),
        },
    )
    assert found == [("stale-as-of", "month.md", 6), ("stale-as-of", "old.md", 7)]


def test_bloat_a_dated_note_s_own_as_of_is_its_frame_not_a_claim(tree_dir: Path) -> None:
    # A research note dated in its name frames its findings "as of" that month: the date
    # says when it was written, not that it is still current. A claim a month or more after
    # the note's date was added later, and is judged like any other.
    found = audit(
        tree_dir,
        {
            "mcp-refresh-2026-07-05.md": memory(
                "mcp-refresh-2026-07-05", body="Question: which servers work as of July 2026?"
            ),
            "migration-2026-08-10.md": memory(
                "migration-2026-08-10", body="Sources: work in progress as of 2026-07-30."
            ),
            "survey-2026-03-02.md": memory(
                "survey-2026-03-02", body="Intro.\nState of play as of 2026-08-01: rating is slow."
            ),
            "undated.md": memory("undated", body="Sources: work in progress as of 2026-07-30."),
            # a name dated after today (a deadline) frames nothing, nor one a year away
            "launch-2027-01-31.md": memory(
                "launch-2027-01-31", body="Status as of 2026-01-02: migration blocked."
            ),
            "recap-2026-06-30.md": memory(
                "recap-2026-06-30", body="Status as of 2025-06-02: migration blocked."
            ),
        },
    )
    assert found == [
        ("stale-as-of", "launch-2027-01-31.md", 6),
        ("stale-as-of", "recap-2026-06-30.md", 6),
        ("stale-as-of", "survey-2026-03-02.md", 7),
        ("stale-as-of", "undated.md", 6),
    ]


def test_bloat_a_date_near_a_status_word_is_not_always_a_dated_claim(tree_dir: Path) -> None:
    # Two wikilinks' names, code, a constant's name, "as of the <date> <event>" (since then)
    # and an end recorded after the date: no claim of the present. Beside them, a status
    # still open after its date, and a plain "as of", are.
    bodies = {
        "links.md": "See [[pms-sync-status]] and [[mass-deactivation-2026-06]].",
        "code.md": "The row had (status='2') 2026-05-28 and shadowed the others.",
        "name.md": "**STATUS namespace collision** (also bit me 2026-06-25): the row's field.",
        "since.md": "As of the 2026-05-28 pivot the kit is stamped at attach.",
        "fixed.md": "**STATUS (2026-06-14): Bug 1 FIXED — committed and pushed.**",
        "open.md": "Status (2026-06-14): migration done for 3 tables, 9 pending.",
        "plain.md": "Live status as of 2026-06-24: two syncs still failing.",
        "notyet.md": "State on `develop` as of 2026-07-22: reader code NOT merged yet.",
    }
    found = audit(tree_dir, {name: memory(name[:-3], body=b) for name, b in bodies.items()})
    assert found == [
        ("stale-as-of", "notyet.md", 6),
        ("stale-as-of", "open.md", 6),
        ("stale-as-of", "plain.md", 6),
    ]


def test_bloat_a_date_that_says_when_a_lasting_state_began_is_no_stale_status(
    tree_dir: Path,
) -> None:
    # "LIVE as of", "installed", "verified", "pushed": the date an event happened, true
    # since. A state dated as current (running, a current state, a status) is still a claim.
    bodies = {
        "live.md": "The shop is LIVE as of 2026-04-05 on the new domain.",
        "wired.md": "Spanish strings: wired in as of 2026-04-20 for every release.",
        "skills.md": "Current project-local skills (installed 2026-04-04): lint, fmt.",
        "linked.md": "**Status:** Linked and functional — verified 2026-04-13",
        "pushed.md": "**Status:** pushed to origin 2026-05-12",
        "running.md": "**Status:** Running as of 2026-03-26: all agents operational.",
        "state.md": "## Current State (2026-04-10): scaffold only, testing next.",
        "checked.md": "CURRENT STATE (verified 2026-07-09, main @ a1d8a13e): cache on.",
        "still.md": "# Tokens on the host: 2 STILL LIVE as of 2026-08-20",
        "deployed.md": "Current status (deployed 2026-04-10): broken on mobile.",
        # an end reached by the date, or what holds since it
        "complete.md": "Migration complete as of 2026-04-17; the pool settings below.",
        "working.md": "Auth fully working as of 2026-04-18.",
        "after.md": "Current rule query (after 2026-04-11 fix): trades joined on id.",
        # an end denied, and a state since a date, are still claims of the present
        "notfixed.md": "Login bug NOT fixed as of 2026-04-10; users still see the loop.",
        "notdone.md": "Data migration not done as of 2026-03-02, half the tables remain.",
        "blocked.md": "Status: blocked since 2026-03-01 on the vendor's API key.",
    }
    found = audit(tree_dir, {name: memory(name[:-3], body=b) for name, b in bodies.items()})
    assert found == [
        ("stale-as-of", "blocked.md", 6),
        ("stale-as-of", "checked.md", 6),
        ("stale-as-of", "deployed.md", 6),
        ("stale-as-of", "notdone.md", 6),
        ("stale-as-of", "notfixed.md", 6),
        ("stale-as-of", "running.md", 6),
        ("stale-as-of", "state.md", 6),
        ("stale-as-of", "still.md", 6),
    ]


def test_bloat_a_status_a_newer_one_of_the_file_supersedes_is_history(tree_dir: Path) -> None:
    # "STATUS (2026-07-14): everything queued is shipped" above the plan's older STATUS: the
    # older one is the file's history. The newest status, still open, is the claim.
    superseded = (
        "**STATUS (2026-07-14): everything queued is now shipped.**\n\n"
        "Historical plan:\n\n**STATUS (2026-07-05): profiling, nothing changed yet.**\n"
    )
    newest_open = (
        "Status (2026-07-05): profiling done.\n\nStatus (2026-07-14): the fix is in review.\n"
    )
    # a wikilink, a code sample, a name or a deadline after today is no newer status
    not_statuses = (
        "Status (2026-03-01): migrating the ledger.\n"
        "See [[notes-2026-11-20]] and `status='2026-11-28'`; STATUS namespace 2026-11-20.\n"
        "Current target: cut over by 2027-02-01.\n"
    )
    found = audit(
        tree_dir,
        {
            "superseded.md": memory("superseded", body=superseded),
            "open.md": memory("open", body=newest_open),
            "others.md": memory("others", body=not_statuses),
        },
    )
    assert found == [("stale-as-of", "open.md", 8), ("stale-as-of", "others.md", 6)]


def test_bloat_always_on_stale_memory_suggests_demotion(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a", scope="[billing]", relevance="always", body=FINISHED),
        },
    )
    [finding] = findings(tree_dir, "bloat")
    assert finding.code == "always-on-stale"
    # `scope` and `relevance` make the tree governed, where `relevance` is required: the
    # demotion keeps the field (another value), or it would be the next finding.
    assert finding.fix == {"action": "demote-relevance", "path": "a.md", "keep_field": True}


def test_bloat_lesson_encoded_in_a_rule_file(tree_dir: Path, isolated_home: Path) -> None:
    rules = isolated_home / ".claude/rules"
    rules.mkdir(parents=True)
    (rules / "testing.md").write_text(
        "# Testing\n\nIntegration tests must hit a real Postgres database, never mocks.\n"
    )
    found = audit(
        tree_dir,
        {
            "a.md": memory(
                "a",
                type="feedback",
                body="Integration tests must hit a real Postgres database, never mocks.",
            ),
            "b.md": memory("b", type="feedback", body="Answers stay short and show a diff."),
        },
    )
    assert found == [("encoded-in-rule", "a.md", None)]


def test_bloat_warning_about_paths_that_are_gone(tree_dir: Path, tmp_path: Path) -> None:
    found = audit(
        tree_dir,
        {
            "w.md": memory("w", kind="warning", body="Never run `~/bin/old-deploy.sh` on prod."),
            "ok.md": memory("ok", kind="warning", body="Never edit `feedback/x.md` by hand."),
            "feedback/x.md": memory("x"),
        },
    )
    assert found == [("warning-dead-target", "w.md", 7)]


def test_bloat_narrative_body(tree_dir: Path) -> None:
    story = (
        "In this session we tried three approaches to the flaky webhook test. At first we thought it "
        "was the clock. It turned out the queue was shared between tests, and we found that resetting it "
        "in a fixture fixed everything. " * 2
    )
    found = audit(
        tree_dir,
        {"s.md": memory("s", body=story), "t.md": memory("t", body="Reset the queue per test.")},
    )
    assert found == [("narrative-body", "s.md", 6)]


def test_bloat_why_line_that_restates_the_rule(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "a.md": memory(
                "a",
                body="Always run migrations before tests.\n\n**Why:** run migrations before tests always.",
            ),
            "b.md": memory("b", body="Use UTC.\n\n**Why:** it is best practice."),
            "c.md": memory(
                "c",
                body="Use UTC.\n\n**Why:** invoices crossed midnight in Sydney and double-billed.",
            ),
            # a Why wrapped onto the next lines: its first line echoes the rule, the rest
            # names the constraint
            "d.md": memory(
                "d",
                body="The board runs hot at idle: ground the drivers to the buck.\n\n"
                "**Why:** ground the drivers and the buck\n"
                "because they share no direct bond, so return current crosses the ESP32's"
                " protection diodes.\n- next item",
            ),
            # the wrapped lines end at a label, a table, a quote: a restatement still is one
            "f.md": memory(
                "f",
                body="Always run migrations before tests.\n\n**Why:** run migrations before tests"
                " always.\n**Source:** the on-call runbook, section four, and the incident log.",
            ),
            "g.md": memory(
                "g",
                body="Always run migrations before tests.\n\n**Why:** run migrations before tests"
                " always.\nHow to apply: the make target does it before each test run.",
            ),
            # "self-evident" is said of the Why itself, not of a note wrapped after it
            "h.md": memory(
                "h",
                body="Pin Node 22 on the deploy hosts.\n\n**Why:** bcrypt's prebuilt binary failed"
                " on Node 23 and took the login down.\nSee the wiki page on best practice.",
            ),
            # a wrapped Why that only repeats the rule is still one
            "e.md": memory(
                "e",
                body="Always run migrations before tests.\n\n**Why:** run migrations\n"
                "before tests always.",
            ),
        },
    )
    assert found == [
        ("why-restates-rule", "a.md", 8),
        ("why-restates-rule", "b.md", 8),
        ("why-restates-rule", "e.md", 8),
        ("why-restates-rule", "f.md", 8),
        ("why-restates-rule", "g.md", 8),
    ]


def test_bloat_terse_descriptions_and_hooks(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "- [A](a.md) — db→real;mock→no;int→docker\n- [B](b.md) — ingest → rate → render → send\n",
            "a.md": memory("a", description="notes"),
            "b.md": memory("b"),
        },
    )
    assert sorted(codes(findings(tree_dir, "bloat"))) == [
        ("terse-description", "MEMORY.md", 1),
        ("terse-description", "a.md", 3),
    ]


def test_bloat_a_wrapped_hook_is_read_whole(tree_dir: Path) -> None:
    # A list item's hook may wrap onto the next lines; Claude Code reads them all.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [Tools](tools.md) — catalog\n"
            "  is built in, but every field can be overridden in config\n"
            "- [Rules](rules.md) — reach\n- [Next](next.md) — sections\n",
            "tools.md": memory("tools"),
            "rules.md": memory("rules"),
            "next.md": memory("next"),
        },
    )
    found = [c for c in codes(findings(tree_dir, "bloat")) if c[0] == "terse-description"]
    assert found == [("terse-description", "MEMORY.md", 4), ("terse-description", "MEMORY.md", 5)]


def test_bloat_no_terse_hook_where_the_title_stands_alone_or_no_session_reads_it(
    tree_dir: Path,
) -> None:
    # A hook of punctuation only is no hook (a hookless line is allowed), a link is all a
    # reference needs, and past the cut-off no session reads the line at all.
    filler = "".join(
        f"- [Note {n}](n{n}.md) — what note {n} holds and when it helps\n" for n in range(200)
    )
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [Preserve existing fixes](a.md).\n"
            "- [Repo](b.md) — https://git.fern.dev/fern/ledger\n"
            "- [Ledger](c.md) — sections\n" + filler + "- [Late](d.md) — misc\n",
            **{f"{x}.md": memory(x) for x in "abcd"},
            **{f"n{n}.md": memory(f"n{n}") for n in range(200)},
        },
    )
    found = [c for c in codes(findings(tree_dir, "bloat")) if c[0] == "terse-description"]
    assert found == [("terse-description", "MEMORY.md", 4)]


LONG_LINE = "a rule of this project, why it holds and how to apply it, line"  # 64 bytes


def test_bloat_long_file(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {"long.md": memory("long", body="\n".join(f"{LONG_LINE} {i}" for i in range(130)))},
    )
    assert found == [("long-file", "long.md", None)]


def test_bloat_an_archived_or_a_day_s_long_note_is_a_record_not_a_long_file(tree_dir: Path) -> None:
    # round 138's held-out half (after its first look): a log's archive of long notes, which
    # no session loads and none would compress; the living note of the same length is found
    body = "\n".join(f"{LONG_LINE} {i}" for i in range(130))
    found = audit(
        tree_dir,
        {
            "archive/2026/03/handoff.md": memory("handoff", body=body),
            "deprecated/old-plan.md": memory("old-plan", body=body),
            # a topic's own archive, deeper in the tree (round 137's judges: "file sits in
            # tasks/deprecated/, an archive kept for history")
            "tasks/Deprecated/task-list.md": memory("task-list", body=body),
            "current.md": memory("current", body=body),
            "deprecated-flags.md": memory("deprecated-flags", body=body),
            # a day's log and a compaction's timestamped record: a long day, a long record
            # (held-out judges: every one false); a plan cut on a day still claims its plan
            "2026-02-18.md": memory("day", body=body),
            "compactions/20260515-173703.md": memory("compaction", body=body),
            "release-plan-2026-05-01.md": memory("plan", body=body),
        },
    )
    assert found == [
        ("long-file", "current.md", None),
        ("long-file", "deprecated-flags.md", None),
        ("long-file", "release-plan-2026-05-01.md", None),
    ]


def test_bloat_a_long_list_of_short_lines_is_no_long_file(tree_dir: Path) -> None:
    # 150 lines of a checklist, 2 KB: read at a glance, nothing to compress; as many lines
    # of prose past 8 KB are
    short = memory("short", body="\n".join(f"- [ ] step {i}" for i in range(150)))
    found = audit(tree_dir, {"short.md": short})
    assert found == []


def test_bloat_many_long_files_are_one_finding_longest_first(tree_dir: Path) -> None:
    files = {
        f"note_{n:02d}.md": memory(
            f"n{n}", body="\n".join(f"{LONG_LINE} {i}" for i in range(130 + n))
        )
        for n in range(11)
    }
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    [finding] = findings(tree_dir, "bloat")
    assert (finding.code, finding.path) == ("long-file", "note_10.md")
    assert finding.message.startswith("11 memories are over 100 lines, the longest `note_10.md`")
    assert finding.message.endswith("and 8 more")
    assert finding.related == tuple(f"note_{n:02d}.md" for n in range(10, -1, -1))


def test_bloat_rule_citing_a_memory_by_compound_name(tree_dir: Path, isolated_home: Path) -> None:
    rules = isolated_home / ".claude/rules"
    rules.mkdir(parents=True)
    (rules / "db.md").write_text("Carries the testing-real-db memory. Testing matters.\n")
    found = audit(
        tree_dir,
        {
            "x.md": memory("testing-real-db", type="feedback", body="Real DB only in tests."),
            "y.md": memory("testing", type="feedback", body="Write tests first always."),
        },
    )
    assert found == [("encoded-in-rule", "x.md", None)]


def test_bloat_terse_reads_the_language_and_names(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": (
                "- [A](a.md) — see src/memory_audit/checks/index_budget_and_friends.py first\n"
                "- [B](b.md) — 构建产物统一输出到项目根目录的 out 文件夹\n"
                "- [C](c.md) — 選股;低量箱型→爆量突破+堆疊;15:00推播;未回測\n"
                "- [D](d.md) — `getUserAccountPreferencesFromTheCache()` is slow\n"
                "- [E](e.md) — Media3+SurfaceView+Ktor+PixelCopy, reviewed with Gemini\n"
            ),
            "e.md": memory("e"),
            "a.md": memory("a", description="備忘録です"),
            "b.md": memory("b", description="出力先"),
            "c.md": memory("c", description="https://example.org/a/very/long/path/to/the/docs"),
            "d.md": memory("d", description="Use user_email_address_for_the_invoice_recipient"),
        },
    )
    assert sorted(codes(findings(tree_dir, "bloat"))) == [
        ("terse-description", "MEMORY.md", 3),  # glued symbols in Chinese: shorthand
        ("terse-description", "b.md", 3),  # three characters: too short
        ("terse-description", "c.md", 3),  # a URL alone is one word
    ]


def test_bloat_narrative_needs_two_markers_in_prose_sentences(tree_dir: Path) -> None:
    padding = "Keep the queue per test and reset it in the fixture. " * 8
    found = audit(
        tree_dir,
        {
            "heading.md": memory(
                "heading",
                body="## What we found in this session\n\n| step | note |\n|---|---|\n"
                "| 1 | it turned out fine |\n\n> we tried X\n\n" + padding,
            ),
            "first.md": memory("first", body="The import fails at first use. " + padding),
            "one.md": memory("one", body="It turned out the queue was shared. " + padding),
        },
    )
    assert found == []


def test_bloat_why_is_compared_with_the_rule_before_it_not_itself(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "same_paragraph.md": memory(
                "same_paragraph",
                body="Use UTC everywhere.\n**Why:** invoices crossed midnight in Sydney and double-billed.",
            ),
            "restated.md": memory(
                "restated",
                body="Intro line.\n\nRun migrations before the tests.\n"
                "**Why:** migrations run before the tests.\n**How to apply:** make test does it.",
            ),
        },
    )
    assert found == [("why-restates-rule", "restated.md", 9)]


def test_bloat_a_closed_status_with_a_date_is_a_record_not_a_current_claim(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "fixed.md": memory("fixed", body="Status: RESOLVED 2026-08-05 by pinning the driver."),
            "gone.md": memory("gone", body="Status: this design was superseded on 2026-04-07."),
            "tool.md": memory(
                "tool", body='`swarm.json` marks `status: "uninstalled 2026-04-18"`.'
            ),
        },
    )
    assert found == []


def test_bloat_an_as_of_claim_is_stale_only_once_its_project_moved_on(tmp_path: Path) -> None:
    # a security baseline "as of" the day of its project's last commit is as current as the
    # project: nothing it describes changed since, however old the date. A project whose
    # commits went on for more than a month after the claim has moved on from it.
    from memory_audit.tree.discovery import locate
    from tests.support.git_repo import Repo

    def audited(name: str, claim: str, commits: int) -> list[tuple[str, str, int | None]]:
        repo = Repo(tmp_path / name)
        body = f"Intro.\nAudit baseline as of {claim}: no open findings."
        repo.commit(
            "seed", {"memory/MEMORY.md": index("a.md"), "memory/a.md": memory("a", body=body)}
        )
        for day in range(commits - 1):
            repo.commit(f"work {day}", {"src/app.py": f"# {day}\n"})
        tree = repo.path / "memory"
        return codes(findings(tree, "bloat", location=locate(tree)))

    # the claim on 2026-04-30, the last commit on 2026-05-02 and on 2026-05-04: quiet since
    assert audited("quiet", "2026-04-30", 1) == []
    # the memory's own later edits are no change of the project it describes
    # (the claim 2026-04-05; the project's last commit 2026-05-02, 27 days on; memory
    # edits until 2026-05-08, 33 days on)
    repo = Repo(tmp_path / "edits")
    body = "Intro.\nAudit baseline as of 2026-04-05: no open findings."
    seed = {"src/app.py": "# app\n", "memory/MEMORY.md": index("a.md")}
    repo.commit("seed", {**seed, "memory/a.md": memory("a", body=body)})
    for day in range(6):
        repo.commit(f"note {day}", {"memory/b.md": memory("b", body=f"Note {day}.")})
    tree = repo.path / "memory"
    assert codes(findings(tree, "bloat", location=locate(tree))) == []
    repo.commit("work", {"src/app.py": "# app, later\n"})  # the project moves on: 2026-05-09
    assert codes(findings(tree, "bloat", location=locate(tree))) == [("stale-as-of", "a.md", 7)]
    assert audited("quiet2", "2026-04-30", 3) == []
    # the claim on 2026-03-01, commits until 2026-05-02: two months of change after it
    [(code, path, line)] = audited("moved", "2026-03-01", 1)
    assert (code, path, line) == ("stale-as-of", "a.md", 7)
    [moved] = findings(
        tmp_path / "moved" / "memory", "bloat", location=locate(tmp_path / "moved" / "memory")
    )
    assert moved.message.endswith("the project's commits went on 62 days after it")


def test_bloat_a_rule_that_sends_the_reader_to_a_memory_does_not_encode_it(
    tree_dir: Path, isolated_home: Path
) -> None:
    # a skill that says "see [[x]] for details" depends on the memory; one that lists the
    # memories to read first is their reading list: archiving them would break the skill.
    # A rule that names memories in prose as carried over still encodes them, however many.
    skills = isolated_home / ".claude/skills/rewrite"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text(
        "# Rewrite\n\n1. No crutch phrases (see [[ai-crutches]] for the list).\n"
        "2. Skeleton first; the full method is in [[skeleton-first]].\n"
        "3. 伏笔克制（详见 [[foreshadowing-restraint]]）\n"
        "4. Keep the narrator's voice; 常见 [[voice-drift]] errors are fixed here as follows.\n"
    )
    rules = isolated_home / ".claude/rules"
    rules.mkdir(parents=True)
    (rules / "db.md").write_text(
        "Carries the testing-real-db, no-mocks-e2e and fixture-per-test memories: real DB,"
        " no mocks, one fixture per test.\n"
    )
    (rules / "reading.md").write_text(
        "## Read before writing\n\n- `rhythm.md` — sentence rhythm\n- `inner-voice.md` —"
        " inner voice\n- `narrator-persona.md` — the narrator\n"
    )
    names = [
        *("ai-crutches", "skeleton-first", "foreshadowing-restraint", "voice-drift"),
        *("testing-real-db", "no-mocks-e2e", "fixture-per-test"),
        *("rhythm", "inner-voice", "narrator-persona"),
    ]
    files = {
        f"{name}.md": memory(name, type="feedback", body=f"Lesson on {name} {n}.")
        for n, name in enumerate(names)
    }
    assert audit(tree_dir, files) == [
        ("encoded-in-rule", "fixture-per-test.md", None),
        ("encoded-in-rule", "no-mocks-e2e.md", None),
        ("encoded-in-rule", "testing-real-db.md", None),
        ("encoded-in-rule", "voice-drift.md", None),
    ]
    # two listed memories are no reading list: each item names a memory the rule carries
    (rules / "reading.md").write_text("- `rhythm.md` — sentence rhythm\n- `inner-voice.md`\n")
    found = audit(tree_dir, files)
    assert ("encoded-in-rule", "rhythm.md", None) in found
    assert ("encoded-in-rule", "inner-voice.md", None) in found
