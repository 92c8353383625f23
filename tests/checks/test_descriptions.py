"""Descriptions that recall: generic, off the body, shared, cut, and hookless index lines."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.descriptions import content_words
from tests.harness import codes, findings, memory, write_tree

BODY = "Deploys to production need a manual approval in the pipeline. The approver is on call."


def test_generic_and_empty_descriptions_propose_the_first_sentence(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "misc.md": memory("ops_a", description="misc notes", body="# Deploys\n\n" + BODY),
            "various.md": memory("ops_b", description="Various notes and things", body=BODY),
            "empty.md": memory("empty", description="''", body=BODY),
            "good.md": memory(
                "good", description="Production deploys need a manual approval", body=BODY
            ),
        },
    )
    found = findings(tree_dir, "descriptions")
    assert sorted(codes(found)) == [
        ("generic-description", "empty.md", 3),
        ("generic-description", "misc.md", 3),
        ("generic-description", "various.md", 3),
    ]
    misc = next(f for f in found if f.path == "misc.md")
    assert "Deploys to production need a manual approval in the pipeline." in (
        misc.suggestion or ""
    )
    assert misc.fix == {
        "action": "set-field",
        "path": "misc.md",
        "field": "description",
        "value": "Deploys to production need a manual approval in the pipeline.",
    }


def test_cjk_stop_words_and_their_bigrams_are_no_content_words(tree_dir: Path) -> None:
    assert content_words("備忘録 その他 メモ") == set()
    assert content_words("備忘録 デプロイ") == {"デプ", "プロ", "ロイ"}
    write_tree(
        tree_dir,
        {
            "memo.md": memory("memo_a", description="備忘録 その他", body=BODY),
            "deploy.md": memory("deploy", description="デプロイ 承認 手順", body=BODY),
        },
    )
    assert codes(findings(tree_dir, "descriptions")) == [("generic-description", "memo.md", 3)]


def test_description_sharing_nothing_with_its_body(tree_dir: Path) -> None:
    long_body = BODY + " The pipeline blocks until the approval arrives; rollbacks skip the wait."
    write_tree(
        tree_dir,
        {
            "off.md": memory(
                "deploys",
                description="Favourite lunch places near Kreuzberg office",
                body=long_body,
            ),
            "on.md": memory(
                "approval", description="Who approves production deploys", body=long_body
            ),
            "kana.md": memory(  # CJK marks that are no letters: no share, no division by zero
                "kana_marks",
                description="Katakana middle dots and sound marks",
                body="・゛゜" * 30,
            ),
            "zh.md": memory(
                "stock_tools",
                description="Taiwan stock lending monitor scripts and schedules",
                body="台股借券與融資監控腳本的位置、用法與排程。" * 6,
            ),
        },
    )
    assert codes(findings(tree_dir, "descriptions")) == [("description-off-body", "off.md", 3)]


def test_cjk_phrases_joined_by_slashes_are_read_as_phrases_not_a_path(tree_dir: Path) -> None:
    # "会话开始/开发中/会话结束" names three steps the body describes; read as one path it
    # shared nothing with the body. A slash-joined description the body does not hold still
    # gets the finding.
    body = (
        "每次会话应遵循闭环：\n- 会话开始：`./scripts/check.sh brief` 对齐状态\n"
        "- 开发中改完代码：`./scripts/check.sh check` 检查影响与契约\n"
        "- 会话结束：`./scripts/check.sh debrief` 记录趋势，不要跳过。\n"
    )
    write_tree(
        tree_dir,
        {
            "loop.md": memory(
                "loop", description="维护工作流——会话开始/开发中/会话结束的标准操作", body=body
            ),
            "far.md": memory("far", description="午餐地点/咖啡馆/晚餐餐厅推荐名单", body=body),
        },
    )
    assert codes(findings(tree_dir, "descriptions")) == [("description-off-body", "far.md", 3)]


def test_off_body_reads_the_whole_body_and_counts_only_content_words(tree_dir: Path) -> None:
    filler = " ".join(f"zq{i}x" for i in range(40))
    eleven = " ".join(f"yq{i}x" for i in range(9)) + " misc notes various things"
    write_tree(
        tree_dir,
        {  # descriptions share nothing with the names "aa", "bb", "cc"
            "late.md": memory("aa", description="Kreuzberg lunch places", body=filler + " lunch"),
            "short.md": memory("bb", description="Kreuzberg dinner venues", body=eleven),
            "long.md": memory("cc", description="Kreuzberg lunch spots", body=eleven + " yq9x"),
        },
    )
    assert codes(findings(tree_dir, "descriptions")) == [("description-off-body", "long.md", 3)]


def test_same_description_on_two_files_is_one_finding(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", description="Deploy approval rules", body=BODY),
            "b.md": memory("b", description="Rules for deploy approvals", body=BODY),
            "c.md": memory("c", description="Deploy rollback steps", body=BODY),
        },
    )
    [finding] = findings(tree_dir, "descriptions")
    assert (finding.code, finding.path) == ("same-description", "a.md")
    assert "`b.md`" in finding.message


def test_description_cut_mid_sentence(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "dots.md": memory("dots", description="Deploys need an approval and the…", body=BODY),
            "word.md": memory("word", description="Button hover states updated to", body=BODY),
            "comment.md": memory(
                "comment", description="Use dark text (var(--bg) or #000) on neon", body=BODY
            ),
            "whole.md": memory("whole", description="Deploys need a manual approval.", body=BODY),
            "ensure.md": memory(
                "ensure", description="Before a release always ensure that", body=BODY
            ),
            # "that" as the pronoun closing the sentence: whole
            "pronoun.md": memory(
                "pronoun",
                description="Never mark a milestone shipped as the user has a process for that",
                body=BODY,
            ),
            "does.md": memory(
                "does",
                description="Agents never refresh snapshots, only the user does that",
                body=BODY,
            ),
            # a preposition an infinitive leaves at the end: whole
            "stranded.md": memory(
                "stranded",
                description="Buttons published to a namespaced topic, a bug to check for",
                body=BODY,
            ),
            # "to" before a determiner or a number is a preposition: cut short
            "vault.md": memory(
                "vault", description="Staging credentials moved to the vault in", body=BODY
            ),
            "waits.md": memory(
                "waits", description="Workers restart and wait up to five minutes for", body=BODY
            ),
            # a verb's particle ("plugs in", "logs in") and an acronym ("AT", "OR") end a
            # sentence whole; a noun before "in" leaves it open (the vault's above)
            "plugs.md": memory(
                "plugs",
                description="How options reach the factory, and how AddProblemDetails plugs in",
                body=BODY,
            ),
            "logs.md": memory(
                "logs", description="Sessions are refreshed each time the user logs in", body=BODY
            ),
            "acronym.md": memory(
                "acronym",
                description="A table's aria-label doubles announcements in some AT",
                body=BODY,
            ),
        },
    )
    # YAML reads ` #000)...` as a comment: one cause, one finding, frontmatter's
    assert sorted(codes(findings(tree_dir, "descriptions", "frontmatter"))) == [
        ("cut-description", "dots.md", 3),
        ("cut-description", "ensure.md", 3),
        ("cut-description", "vault.md", 3),
        ("cut-description", "waits.md", 3),
        ("cut-description", "word.md", 3),
        ("value-cut-by-comment", "comment.md", 3),
    ]


def test_a_long_first_sentence_is_proposed_up_to_its_last_clause(tree_dir: Path) -> None:
    # Clipped at 150 characters mid-thought, the proposal would read "…, not something.";
    # ended at its last clause it is a sentence.
    body = (
        'Found while looking into "the clear button does nothing" — it turned out to be an\n'
        "older bug that also broke the home and the save buttons of the page, not something\n"
        "new at all. Both had never worked."
    )
    write_tree(tree_dir, {"a.md": memory("a", description="Buttons and the", body=body)})
    [finding] = findings(tree_dir, "descriptions")
    assert finding.fix is not None
    assert finding.fix["value"] == (
        'Found while looking into "the clear button does nothing" — it turned out to be an'
        " older bug that also broke the home and the save buttons of the page"
    )


def test_a_first_sentence_is_not_cut_before_its_caveat_inside_brackets_or_when_whole(
    tree_dir: Path,
) -> None:
    caveat = (
        "Deleting the cache directory is safe on developer laptops and on the staging hosts,"
        " except while the background indexer is running and still holds open file locks on it."
    )
    bracket = (
        "The importer reads the nightly export (orders, refunds, chargebacks, and the ledger"
        " lines the finance team adds by hand each morning before nine) and then the stock file."
    )
    written = "Tried connection pooling, longer timeouts, retries… none helped."
    write_tree(
        tree_dir,
        {
            "caveat.md": memory("caveat", description="Cache and the", body=caveat),
            "bracket.md": memory("bracket", description="Importer and the", body=bracket),
            "written.md": memory("written", description="Tries and the", body=written),
        },
    )
    proposals = {f.path: f.fix["value"] for f in findings(tree_dir, "descriptions") if f.fix}
    # the caveat is kept as far as it goes, never dropped to state the rule bare
    assert proposals["caveat.md"].startswith("Deleting the cache directory is safe")
    assert "except while" in proposals["caveat.md"]
    # no cut inside the brackets: the proposal would read as cut itself
    assert proposals["bracket.md"].count("(") == proposals["bracket.md"].count(")")
    # an ellipsis the author wrote is the author's, not a clip
    assert proposals["written.md"].startswith("Tried connection pooling, longer timeouts, retries")


def test_index_line_without_a_hook(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": (
                "# Index\n- [Deploys](deploys.md)\n- [Rollback](rollback.md) — how to roll back\n"
                "- [Credit spreads must be atomic multi-leg orders](spreads.md)\n"
            ),
            "deploys.md": memory(
                "deploys", description="Production deploys need approval", body=BODY
            ),
            "rollback.md": memory("rollback", description="Rolling back a release", body=BODY),
            "spreads.md": memory("spreads", description="Order entry for spreads", body=BODY),
        },
    )
    [finding] = findings(tree_dir, "descriptions")
    assert (finding.code, finding.path, finding.line) == ("index-line-without-hook", "MEMORY.md", 2)
    assert "Production deploys need approval" in (finding.suggestion or "")


def test_a_title_of_its_own_words_is_enough_in_a_small_index(tree_dir: Path) -> None:
    # "Debugging Patterns", 个人资料: in an index of a few kilobytes the title says what the
    # file holds; a title that repeats the file's path says nothing; a large index asks both
    files = {
        "debugging.md": memory("debugging", description="Patterns for flaky CI", body=BODY),
        "profile.md": memory("profile", description="The user's background and role", body=BODY),
        "services/auth-service.md": memory("auth", description="Auth service notes", body=BODY),
    }
    small = (
        "# Index\n- [Debugging Patterns](debugging.md)\n- [个人资料](profile.md)\n"
        "- [services/auth-service.md](services/auth-service.md)\n"
    )
    write_tree(tree_dir, {"MEMORY.md": small, **files})
    found = [(f.code, f.line) for f in findings(tree_dir, "descriptions")]
    assert found == [("index-line-without-hook", 4)]
    filler = "".join(
        f"- [Note {n}](debugging.md#n{n}) — when note {n} helps with it\n" for n in range(220)
    )
    write_tree(tree_dir, {"MEMORY.md": small + filler})
    lines = {
        f.line for f in findings(tree_dir, "descriptions") if f.code == "index-line-without-hook"
    }
    assert {2, 3, 4} <= lines
