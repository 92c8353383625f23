"""Duplicates: clusters of the same fact, across types, in other words and other scripts."""

from __future__ import annotations

import os
from pathlib import Path

from memory_audit.checks.duplicates import Options
from tests.harness import findings, index, memory, write_tree

RULE = "Integration tests must hit a real Postgres database started from the compose file, never mocks."
NEAR = "Integration tests must always hit a real Postgres database started from the compose file, never mocks."
OTHER = "Deploys go through the pipeline on merge; production needs a manual approval step."


def test_paraphrased_contact_across_types_is_one_finding_with_a_survivor(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("user_email.md"),
            "user_email.md": memory(
                "user_email",
                type="user",
                description="The owner's e-mail address",
                body="Mail for the owner goes to robin.vale@fernhill.example; use it for invoices.",
            ),
            "user_contact.md": memory(
                "user_contact",
                type="reference",
                description="How to reach the owner",
                body="Reach the owner at robin.vale@fernhill.example (the old address bounces).",
            ),
            "deploy.md": memory("deploy", type="project", body=OTHER),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert (finding.code, finding.judgment) == ("possible-duplicate", True)
    assert finding.path == "user_contact.md"
    assert finding.related == ("user_email.md",)
    assert "2 memories say the same thing" in finding.message
    assert "`robin.vale@fernhill.example`" in finding.message
    assert "suggested survivor `user_email.md`" in finding.message  # the indexed one


def test_paraphrased_feedback_pair_is_found(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "feedback_parallel.md": memory(
                "feedback_parallel",
                type="feedback",
                description="Two Claude sessions may run at once in this checkout",
                body="Other sessions run concurrently in the same checkout: never reset, stash "
                "or checkout files you did not change yourself.",
            ),
            "feedback_concurrent.md": memory(
                "feedback_concurrent",
                type="feedback",
                description="Concurrent sessions share this checkout",
                body="Several sessions work concurrently in one checkout, so do not stash, reset "
                "or check out changes that another session made.",
            ),
            "feedback_style.md": memory("feedback_style", type="feedback", body=OTHER),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert {finding.path, *finding.related} == {"feedback_parallel.md", "feedback_concurrent.md"}


def test_chinese_paraphrase_pair_is_found_without_spaces(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory(
                "build_dir",
                description="构建输出目录",
                body="所有构建产物都输出到项目根目录下的 out 文件夹，不要提交到仓库。",
            ),
            "b.md": memory(
                "output_folder",
                description="构建产物放在哪里",
                body="构建产物统一输出到项目根目录的 out 文件夹，这个文件夹不要提交到仓库。",
            ),
            "c.md": memory(
                "c", description="发布流程", body="发布前先在测试环境验证三天，再合并到主分支。"
            ),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert {finding.path, *finding.related} == {"a.md", "b.md"}
    assert "`构建产物" in finding.message or "`根目录" in finding.message


def test_english_and_chinese_note_on_the_same_folder(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "workdir.md": memory(
                "workdir",
                type="user",
                description="Working folder D:/dev/fernhill-site",
                body="All work happens in D:/dev/fernhill-site; never write outside it.",
            ),
            "workdir_zh.md": memory(
                "workdir_zh",
                type="project",
                description="工作目录 D:/dev/fernhill-site",
                body="所有工作都在 D:/dev/fernhill-site 里进行，不要写到外面。",
            ),
            "deploy.md": memory("deploy", body=OTHER),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert {finding.path, *finding.related} == {"workdir.md", "workdir_zh.md"}


def test_short_identical_rules_count(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("pytest", description="Test runner", body="Use pytest."),
            "b.md": memory("runner", description="Test runner", body="Use pytest."),
            "c.md": memory("c", body=OTHER),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert {finding.path, *finding.related} == {"a.md", "b.md"}


def test_forty_restatements_are_one_finding(tree_dir: Path) -> None:
    files = {
        f"note_{n:02}.md": memory(
            f"note_{n:02}",
            type=("feedback", "project", "user")[n % 3],
            description="Always answer in short sentences",
            body=f"Answer in short sentences and show the diff, not a description (variant {n}).",
        )
        for n in range(40)
    }
    files["other.md"] = memory("other", body=OTHER)
    write_tree(tree_dir, files)
    [finding] = findings(tree_dir, "duplicates")
    assert "40 memories say the same thing" in finding.message
    assert "and 34 more" in finding.message
    assert len(finding.related) == 39


def test_unrelated_notes_on_the_same_topic_are_not_duplicates(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory(
                "testing_db",
                type="feedback",
                description="Tests and the database",
                body="Integration tests use a real Postgres database, never mocks.",
            ),
            "b.md": memory(
                "testing_ci",
                type="feedback",
                description="Tests in CI",
                body="The whole test suite runs in CI on every push; a red build blocks the merge.",
            ),
            "c.md": memory(
                "testing_fixtures",
                type="project",
                description="Test fixtures",
                body="Fixtures live in tests/fixtures and are regenerated by make fixtures.",
            ),
        },
    )
    assert findings(tree_dir, "duplicates") == []


def test_governed_profile_keeps_the_scope_overlap_rule(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", scope="[testing, db]", relevance="always", body=RULE),
            "b.md": memory("b", scope="[db]", relevance="always", body=NEAR),
            "c.md": memory("c", scope="[ui]", relevance="always", body=NEAR),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert {finding.path, *finding.related} == {"a.md", "b.md"}
    assert "within a shared scope" in finding.message


def test_threshold_is_configurable(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", body=RULE),
            "b.md": memory("b", body=RULE.replace("never mocks", "and seed it with the fixtures")),
            "c.md": memory("c", body=OTHER),
        },
    )
    assert findings(tree_dir, "duplicates", options={"duplicates": Options(threshold=0.99)}) == []
    assert len(findings(tree_dir, "duplicates")) == 1


def test_superseded_pairs_are_resolved(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {"a.md": memory("a", body=RULE, superseded_by="b.md"), "b.md": memory("b", body=NEAR)},
    )
    assert findings(tree_dir, "duplicates") == []


def test_a_shared_banner_is_not_a_duplicate(tree_dir: Path) -> None:
    banner = (
        "> **Reconstructed from git history.** Drawn from commit messages of the pull requests.\n\n"
    )
    write_tree(
        tree_dir,
        {
            "a.md": memory(
                "retro_search",
                description="Search arc",
                body=banner + "Search got facets and typo tolerance.",
            ),
            "b.md": memory(
                "retro_billing",
                description="Billing arc",
                body=banner + "Invoices moved to a monthly batch job.",
            ),
            "c.md": memory(
                "retro_auth",
                description="Auth arc",
                body="<!-- update before use -->\nLogin moved to passkeys.",
            ),
        },
    )
    assert findings(tree_dir, "duplicates") == []


TEMPLATE = "_Moved out of CLAUDE.md on 2026-05-26 to save tokens; loaded only when needed._"


def test_a_template_line_three_notes_open_with_is_not_what_they_share(tree_dir: Path) -> None:
    bodies = {
        "auto_sync.md": "The home folder syncs between machines through a git hook on start.",
        "role_detection.md": "Each machine reads its role from a marker file and pushes accordingly.",
        "profanity_marker.md": "Swearing in a prompt means the last answer missed; slow down.",
    }
    files = {
        name: memory(name.removesuffix(".md"), body=f"{TEMPLATE}\n\n---\n\n{body}")
        for name, body in bodies.items()
    }
    write_tree(tree_dir, files)
    assert findings(tree_dir, "duplicates") == []


def test_three_copies_of_one_note_are_still_duplicates(tree_dir: Path) -> None:
    files = {
        f"copy_{n}.md": memory(f"copy_{n}", description="Test runner", body=RULE) for n in range(3)
    }
    write_tree(tree_dir, files)
    [finding] = findings(tree_dir, "duplicates")
    assert "3 memories say the same thing" in finding.message


def test_a_note_that_names_the_other_to_set_itself_apart_is_no_duplicate(tree_dir: Path) -> None:
    staging = "The staging server runs the release candidate behind the VPN on port 8443."
    write_tree(
        tree_dir,
        {
            "server_staging.md": memory("server_staging", body=staging),
            "server_preview.md": memory(
                "server_preview",
                body=f"{staging}\n\nNot to be confused with server_staging: this one is the"
                " preview box, wiped nightly.",
            ),
            "deploy.md": memory("deploy", body=OTHER),
            "runner.md": memory("runner", body=RULE),
        },
    )
    assert findings(tree_dir, "duplicates") == []


def test_notes_that_link_each_other_are_siblings_not_duplicates(tree_dir: Path) -> None:
    # Two reviews of one shape, the later one pointing at the earlier: the author kept them
    # apart on purpose, and merging would lose what each one decided.
    review = "Text review calibration: the two tense checks validated, shared rubric applied."
    write_tree(
        tree_dir,
        {
            "story4-review.md": memory("story4-review", body=review),
            "story5-review.md": memory(
                "story5-review", body=f"{review}\n\nSame shape as [[story4-review]]."
            ),
            "deploy.md": memory("deploy", body=OTHER),
        },
    )
    assert findings(tree_dir, "duplicates") == []


def test_a_link_that_calls_the_other_a_duplicate_keeps_the_pair(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "runner.md": memory("runner", body=RULE),
            "runner_copy.md": memory(
                "runner_copy", body=f"{NEAR}\n\nDuplicate of [runner](runner.md)."
            ),
            "deploy.md": memory("deploy", body=OTHER),
        },
    )
    [finding] = findings(tree_dir, "duplicates")
    assert finding.code == "possible-duplicate"


def test_a_link_that_denies_being_a_copy_or_a_replace_elsewhere_on_the_line_parts_them(
    tree_dir: Path,
) -> None:
    # "Not a duplicate of" sets the note apart; "replaces" about something else on the line
    # says nothing of the linked note.
    write_tree(
        tree_dir,
        {
            "runner.md": memory("runner", body=RULE),
            "runner_ci.md": memory(
                "runner_ci", body=f"{NEAR}\n\nNot a duplicate of [[runner]]: this one is for CI."
            ),
            "runner_b.md": memory(
                "runner_b",
                body=f"{NEAR} For CI.\n\nSee [[runner]]; the compose file replaces the old script.",
            ),
            "deploy.md": memory("deploy", body=OTHER),
        },
    )
    found = findings(tree_dir, "duplicates")
    # runner_ci and runner_b still say the same thing as each other, and link neither
    assert [sorted((f.path, *f.related)) for f in found] == [["runner_b.md", "runner_ci.md"]]


def test_a_dated_series_that_links_its_earlier_notes_is_still_a_series(tree_dir: Path) -> None:
    snapshot = "Status snapshot: three services up, the queue drained, disk at 41 percent."
    files = {
        "status-snapshot-2026-04-14.md": memory("snapshot 14", body=snapshot),
        "status-snapshot-2026-04-20.md": memory(
            "snapshot 20", body=f"{snapshot}\n\nPrevious: [[status-snapshot-2026-04-14]]"
        ),
        "status-snapshot-2026-04-21.md": memory(
            "snapshot 21",
            body=f"{snapshot}\n\nPrevious: [[status-snapshot-2026-04-20]],"
            " [[status-snapshot-2026-04-14]]",
        ),
        "deploy.md": memory("deploy", body=OTHER),
    }
    write_tree(tree_dir, files)
    assert [f.code for f in findings(tree_dir, "duplicates")] == ["dated-series"]


def test_a_dated_series_is_one_finding_that_suggests_superseding(tree_dir: Path) -> None:
    snapshot = "Status snapshot: three services up, the queue drained, disk at 41 percent."
    files = {
        f"status-snapshot-2026-04-{day}.md": memory(f"snapshot {day}", body=snapshot)
        for day in ("14", "20", "21")
    }
    files["other.md"] = memory("other", body=snapshot)
    write_tree(tree_dir, files)
    found = findings(tree_dir, "duplicates")
    series = [f for f in found if f.code == "dated-series"]
    assert [(f.path, f.related) for f in series] == [
        (
            "status-snapshot-2026-04-21.md",
            ("status-snapshot-2026-04-14.md", "status-snapshot-2026-04-20.md"),
        )
    ]
    assert "superseded_by" in (series[0].suggestion or "")
    # the undated note saying the same thing is still paired with the series
    assert [f.code for f in found if f.code == "possible-duplicate"] == ["possible-duplicate"]


def test_a_log_whose_entries_now_and_then_tell_alike_is_no_series_to_supersede(
    tree_dir: Path,
) -> None:
    # An agent's cycle journal, a note every few hours (``c-20260309-0945.md``): two runs of
    # one task read alike, the other entries are other work. Its entries are events, none
    # superseding another (round 136's judges: five such "series", one per time slot, all
    # false). Snapshots stamped with a time that each restate the state are still a series.
    topics = [
        "Read the attention-sink paper and noted the probe layers it uses for audio tokens.",
        "Drafted the gap matrix for the submission: three baselines missing a speech eval.",
        "Ran the merge sweep on the dev set; the word error rate fell two points at layer nine.",
        "Planned the next reading block on sparse autoencoders for the encoder stack.",
    ]
    repeat = "Built the gate visualiser and checked the twelve patched layers against the log."
    files = {
        f"cycles/c-202603{day:02d}-{slot}.md": memory(f"cycle {day} {slot}", body=body)
        for day, slot, body in [
            (9, "0945", topics[0]),
            (9, "1345", repeat),
            (10, "0945", topics[1]),
            (11, "2215", topics[2]),
            (12, "1345", repeat.replace("Built", "Rebuilt")),
            (12, "2215", topics[3]),
        ]
    }
    snapshot = "Status snapshot: three services up, the queue drained, disk at 41 percent."
    for day in ("14", "20", "21"):
        files[f"status/status-202604{day}-0930.md"] = memory(f"status {day}", body=snapshot)
    write_tree(tree_dir, files)
    found = findings(tree_dir, "duplicates")
    assert [(f.code, f.path, f.related) for f in found] == [
        (
            "dated-series",
            "status/status-20260421-0930.md",
            ("status/status-20260414-0930.md", "status/status-20260420-0930.md"),
        )
    ]


def test_a_journal_of_numbered_cycles_is_a_series_not_pairs(tree_dir: Path) -> None:
    # An agent writes ``cycles/<n>.md`` each cycle; quiet cycles read alike ("balance
    # unchanged, waiting on replies"). Each records its cycle (round 138's judges: 14 such
    # pairs over two agents' journals, all false). Two numbered notes are no series: a pair
    # of them saying the same thing is still found; an archived copy is not compared.
    quiet = "Checked the treasury: balance unchanged, still waiting on replies from the registry."
    work = [
        "Shipped the network page and opened an issue with the registry maintainers.",
        "Wrote the forking guide and linked it from the navigation bar.",
        "Reviewed three new agents' registrations; two were spam and got blocked.",
    ]
    files = {f"cycles/{n}.md": memory(f"cycle {n}", body=work[n % 3]) for n in (1, 2, 3)}
    files |= {f"cycles/{n}.md": memory(f"cycle {n}", body=quiet) for n in (4, 9)}
    # days' notes end in a number too, and stay days' records, never pairs
    files |= {f"daily/2026-03-{d}.md": memory(f"day {d}", body=quiet) for d in (25, 26, 27)}
    files |= {
        "phase-1.md": memory("phase 1", body=RULE),
        "phase-2.md": memory("phase 2", body=NEAR),
        "entities/archive/deploy.md": memory("deploy old", body=OTHER),
        "entities/deploy.md": memory("deploy", body=OTHER.replace("Deploys go", "Deploys now go")),
    }
    write_tree(tree_dir, files)
    found = findings(tree_dir, "duplicates")
    assert [sorted((f.path, *f.related)) for f in found] == [["phase-1.md", "phase-2.md"]]


def test_a_catalogue_s_metadata_block_is_not_what_its_notes_say(tree_dir: Path) -> None:
    # A catalogue of patterns opens each note with the same short fields under its title;
    # read as the first paragraph, two unrelated patterns were "100% alike" (round 136's
    # judges: four such findings, all false). What follows the block is compared, and two
    # notes that are nothing but fields are still compared by them.
    block = "**Pattern Type**: {}\n**Status**: Confirmed\n\n## Summary\n\n"
    write_tree(
        tree_dir,
        {
            "patterns/node-over-bash.md": memory("node", body=block.format("Engineering") + OTHER),
            "patterns/evidence-first.md": memory(
                "evidence", body=block.format("Engineering") + RULE
            ),
            "patterns/real-database.md": memory("database", body=block.format("Testing") + NEAR),
            "people/manager.md": memory(
                "manager", body="**Name**: Robin Vale\n**Team**: Platform\n**Office**: Harbour St"
            ),
            "people/robin.md": memory(
                "robin", body="**Name**: Robin Vale\n**Team**: Platform\n**Office**: Harbour St"
            ),
        },
    )
    found = findings(tree_dir, "duplicates")
    assert sorted(sorted((f.path, *f.related)) for f in found) == [
        ["patterns/evidence-first.md", "patterns/real-database.md"],
        ["people/manager.md", "people/robin.md"],
    ]


def test_a_journal_s_repeating_entries_are_copies_unless_they_link_each_other(
    tree_dir: Path,
) -> None:
    # Entries that repeat the one before are copies, in the journal's own order (10 after
    # 9, not after 1); entries that link the one before are a chain of siblings. Numbered
    # parts of one topic (rule-1, rule-2, rule-3) are no journal: any two alike are a pair.
    files = {f"cycles/{n}.md": memory(f"cycle {n}", body=RULE) for n in (9, 10, 11)}
    files |= {"cycles/1.md": memory("cycle 1", body=OTHER), "cycles/2.md": memory("c2", body=NEAR)}
    files |= {
        f"chain/{n}.md": memory(f"chain {n}", body=f"{OTHER}\n\nPrevious: [[{n - 1}]]")
        for n in (2, 3, 4)
    }
    files |= {
        "rule-1.md": memory(
            "rule 1",
            body="Releases are tagged from main only after the smoke suite passes on staging.",
        ),
        "rule-2.md": memory("rule 2", body="Cache keys expire after an hour; never cache tokens."),
        "rule-3.md": memory(
            "rule 3",
            body="Releases are always tagged from main, and only after the smoke suite passes on staging.",
        ),
    }
    write_tree(tree_dir, files)
    found = findings(tree_dir, "duplicates")
    assert sorted(sorted((f.path, *f.related)) for f in found) == [
        ["cycles/10.md", "cycles/11.md", "cycles/2.md", "cycles/9.md"],
        ["rule-1.md", "rule-3.md"],
    ]


def test_a_template_line_an_archived_note_shares_is_still_a_template(tree_dir: Path) -> None:
    # the banner opens two live notes and one archived one: three notes, a template
    write_tree(
        tree_dir,
        {
            "deploy.md": memory("deploy", body=f"{TEMPLATE}\n\n{OTHER}"),
            "tests.md": memory("tests", body=f"{TEMPLATE}\n\n{RULE}"),
            "archive/old.md": memory(
                "old", body=f"{TEMPLATE}\n\nThe old wiki moved to the docs site."
            ),
        },
    )
    assert findings(tree_dir, "duplicates") == []


def test_two_days_records_that_tell_alike_are_no_pair(tree_dir: Path) -> None:
    # A day's briefing embeds that day's news digest; two timestamped handoffs of one work
    # stream open alike. Each records its day's event (held-out judges: every such pair
    # false, merging a log's entries loses its history). Two undated notes saying the same
    # are still a pair, and so is a day's note with an undated note repeating it.
    digest = "Funding round for the harbour sensor network closes Friday; the grant portal needs the budget sheet."
    handoff = "Handed the flight search tool to the second agent; it must pass the sandbox orders test first."
    write_tree(
        tree_dir,
        {
            "briefings/2026-03-19.md": memory("briefing 19", body=digest),
            "news/2026-03-19.md": memory("news 19", body=digest),
            "log/20260512-220000-handed-search-tool.md": memory("handoff 22", body=handoff),
            "log/20260512-230000-search-tool-green.md": memory("green 23", body=handoff),
            "grants.md": memory("grants", body=RULE),
            "grants_copy.md": memory("grants copy", body=NEAR),
            "handoffs.md": memory("handoffs", body=handoff.replace("Handed", "We handed")),
        },
    )
    found = findings(tree_dir, "duplicates")
    assert sorted(sorted((f.path, *f.related)) for f in found) == [
        ["grants.md", "grants_copy.md"],
        [
            "handoffs.md",
            "log/20260512-220000-handed-search-tool.md",
            "log/20260512-230000-search-tool-green.md",
        ],
    ]


def test_archived_memories_are_not_compared(tree_dir: Path) -> None:
    # archive/ keeps notes no session loads, for their history (review's archive action
    # moves them there): a note archived beside its live successor is the point, no finding
    write_tree(
        tree_dir,
        {
            "archive/2026/05/testing.md": memory("testing old", body=RULE),
            "testing.md": memory("testing", body=NEAR),
            "deploy.md": memory("deploy", body=OTHER),
        },
    )
    assert findings(tree_dir, "duplicates") == []
    write_tree(tree_dir, {"testing_rule.md": memory("testing rule", body=RULE)})
    found = findings(tree_dir, "duplicates")
    assert [sorted((f.path, *f.related)) for f in found] == [["testing.md", "testing_rule.md"]]


def test_a_day_s_record_is_never_the_survivor_over_a_topic_note(tree_dir: Path) -> None:
    # A cycle's log restates the spec it worked from; the log is indexed and newer, but
    # merging the spec into a day's record would lose the spec (a third judge, round 136)
    spec = "Whisper scaling task: the fraction of heads that gate audio grows with model size."
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("cycles/c-20260323-1245.md"),
            "specs/q155-scaling.md": memory("q155", body=spec),
            "cycles/c-20260323-1245.md": memory("cycle", body=spec.replace("grows", "rises")),
        },
    )
    os.utime(tree_dir / "specs/q155-scaling.md", (1_780_000_000.0, 1_780_000_000.0))
    [finding] = findings(tree_dir, "duplicates")
    assert "suggested survivor `specs/q155-scaling.md`" in finding.message


def test_the_survivor_is_the_newer_file_but_not_by_a_checkout_s_milliseconds(
    tree_dir: Path,
) -> None:
    # Neither indexed nor referenced: the more recent one stays, unless "more recent" is
    # the few milliseconds a fresh clone takes between two files: then the path decides.
    body = "Mail for the owner goes to robin.vale@fernhill.example; use it for invoices."
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("deploy.md"),
            "b_email.md": memory("b_email", body=body),
            "a_email.md": memory("a_email", body=body.replace("Mail for", "Mail to")),
            "deploy.md": memory("deploy", body=OTHER),
        },
    )
    now = 1_780_000_000.0

    def survivor_when(a_time: float, b_time: float) -> str:
        os.utime(tree_dir / "a_email.md", (a_time, a_time))
        os.utime(tree_dir / "b_email.md", (b_time, b_time))
        [finding] = findings(tree_dir, "duplicates")
        return finding.message.split("suggested survivor `")[1].split("`")[0]

    assert survivor_when(now, now + 0.004) == "a_email.md"  # a clone's milliseconds: by path
    assert survivor_when(now, now + 3600) == "b_email.md"  # an hour newer: the newer one


def test_stubs_sharing_one_word_are_no_duplicates(tree_dir: Path) -> None:
    # service notes scaffolded and never written: each says "Scaffolded." and no more; two
    # that share a claim's words still pair
    stubs = {
        f"services/{n}.md": memory(n, description="Scaffolded.", body="Scaffolded.")
        for n in ("auth", "billing")
    }
    claim = "Deploys run from the release branch."
    files = {
        **stubs,
        "deploy.md": memory("deploy", description=claim, body=claim),
        "release.md": memory("release", description=claim, body=claim),
    }
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    found = findings(tree_dir, "duplicates")
    assert [(f.path, f.related) for f in found] == [("release.md", ("deploy.md",))]


def test_notes_opening_with_tables_of_one_layout_are_not_alike_by_it(tree_dir: Path) -> None:
    # daily notes without frontmatter, each opening with a table of what it made that day:
    # the separator row is the same in every note, the header in two; the rows differ
    separator = "|------|------|------|"
    header = "| 文档 | 大小 | 内容 |"
    days = {
        "2026-02-03.md": [
            "| Fernwood_roadmap.md | 6.4 KB | 网络芯片路线图 |",
            "| Kestrel_roadmap.md | 7.6 KB | 存储路线图 |",
        ],
        "2026-02-03_afternoon_report.md": [
            "| `Substrate_Market.md` | 14.9 KB | 综合分析报告 |",
            "| `Substrate_Reference.md` | 5.0 KB | 速查手册 |",
        ],
        "2026-02-04.md": ["| Tern_notes.md | 2.1 KB | 学习笔记 |"],
    }
    files = {
        name: f"# {name.removesuffix('.md')}\n\n## 今日完成\n\n"
        + "\n".join(
            [header if name != "2026-02-04.md" else "| 文件 | 大小 | 说明 |", separator, *rows]
        )
        + "\n"
        for name, rows in days.items()
    }
    write_tree(tree_dir, files)
    assert findings(tree_dir, "duplicates") == []


def test_notes_opening_with_the_same_table_rows_are_still_duplicates(tree_dir: Path) -> None:
    table = (
        "| host | role | port |\n|------|------|------|\n"
        "| fern-db-1 | primary Postgres for billing | 5433 |\n"
        "| fern-db-2 | streaming replica in the second zone | 5433 |\n"
    )
    files = {
        "db_hosts.md": f"# DB hosts\n\n{table}",
        "database_servers.md": f"# Database servers\n\n{table}",
        "other.md": "# Other\n\n| a | b | c |\n|------|------|------|\n| x | y | z |\n",
    }
    write_tree(tree_dir, files)
    [finding] = findings(tree_dir, "duplicates")
    assert "`database_servers.md`, `db_hosts.md`" in finding.message
