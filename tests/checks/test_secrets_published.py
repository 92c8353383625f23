"""A secret value the project's repository publishes itself (a README's demo login, a seed
script's account) is a suggestion; a token in an issuer's format, or a value the repository
does not track outside the tree, stays a problem."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memory_audit.model.finding import Finding
from memory_audit.tree.discovery import locate
from memory_audit.tree.location import ProjectLocation
from tests.harness import findings, index, memory
from tests.secrets.samples import CASES
from tests.support.git_repo import Repo

DEMO = "Bluefin42!x"  # a look-alike seed password
GITHUB = CASES["github-pat"][0][0][0]


def _project(tmp_path: Path, files: dict[str, str], note: str) -> Path:
    """A repository keeping its memory in ``memory/`` beside ``files``, all committed."""
    repo = Repo(tmp_path / "shop")
    tree = {
        "memory/MEMORY.md": index("a.md"),
        "memory/a.md": memory("a", body=f"Notes.\n{note}\n"),
    }
    repo.commit("seed", {**files, **tree})
    return repo.path / "memory"


def _audit(tree: Path, location: ProjectLocation | None = None) -> list[Finding]:
    return findings(tree, "secrets", location=location or locate(tree))


SEED = f"users:\n  - login: ops@fern.io\n    password: {DEMO}\n"  # a seed file publishing it


def _seeded_level(where: Path, note: str) -> str | None:
    """The level of the one finding of ``note``, whose value a seed file publishes."""
    [found] = _audit(_project(where, {"tools/seed.yml": SEED}, note))
    return found.level


def _assert_seeded_levels(where: Path, notes: tuple[str, ...], level: str) -> None:
    """Each note, seeded alone in a project of its own under ``where``, has ``level``."""
    for n, note in enumerate(notes):
        assert _seeded_level(where / str(n), note) == level, note


def test_a_demo_login_the_readme_prints_is_a_suggestion_naming_the_file(tmp_path: Path) -> None:
    readme = f"# Shop\n\nTry it: the demo login is demo/{DEMO} on the sandbox.\n"
    tree = _project(tmp_path, {"docs/README.md": readme}, f"The demo login is demo/{DEMO} here.")
    [found] = _audit(tree)
    assert (found.code, found.path, found.level) == ("possible-secret", "a.md", "suggestion")
    assert found.message.endswith("; docs/README.md hands this demo login out")
    assert str(found.suggestion).startswith(
        "if the demo account is meant to be public, mark it as a false positive; if it can do"
        " more than a demo should, change it on the live site (docs/README.md makes it public)"
    )
    assert DEMO not in repr(found)


def test_a_published_value_no_readme_hands_out_as_a_demo_turns_on_a_deployed_system(
    tmp_path: Path,
) -> None:
    # a seed file's login, or a README's that the note does not call a demo's: a demo
    # account can be live too, so the advice turns on whether it opens a deployed system
    cases = (
        ({"tools/seed.yml": f"users:\n  - demo/{DEMO}\n"}, f"The demo login is demo/{DEMO} here."),
        ({"README.md": f"Ops: ops/{DEMO}\n"}, f"The ops login is ops/{DEMO} here."),
    )
    for n, (files, note) in enumerate(cases):
        [found] = _audit(_project(tmp_path / str(n), files, note))
        assert found.level == "suggestion", note
        assert "publishes this value in" in found.message
        assert str(found.suggestion).startswith(
            "if it opens a deployed system (a demo account on a live site too), change it there:"
        )
        assert str(found.suggestion).endswith("mark it as a false positive")


def test_a_demo_login_the_readme_hands_out_stays_a_suggestion_in_production(
    tmp_path: Path,
) -> None:
    # a live site's public demo, its login in the README and pre-filled on the sign-in page:
    # changing it breaks the demo its owner offers on purpose. A seed file's demo login in
    # production stays a problem (above), and so does a README's login no demo is named for.
    readme = f"# Shop\n\nTry the live demo: owner@shop.demo / {DEMO}\n"
    note = f"Deployed to production on Render.\n- **Demo login:** owner@shop.demo / {DEMO}"
    [found] = _audit(_project(tmp_path / "demo", {"README.md": readme}, note))
    assert (found.level, found.message.endswith("; README.md hands this demo login out")) == (
        "suggestion",
        True,
    )
    ops = f"Deployed to production on Render.\n- **Ops login:** ops@fern.io / {DEMO}"
    [live] = _audit(_project(tmp_path / "ops", {"README.md": f"ops@fern.io / {DEMO}\n"}, ops))
    assert live.level == "problem"
    assert "the note places its system in production" in live.message
    # a demo in passing names no demo login, and a handover note is no README
    cases = (
        ({"README.md": f"Admin: ops@fern.io / {DEMO}\n"}, "(used in Friday's demo)"),
        ({"docs/readme_prod_handover.md": f"ops@fern.io / {DEMO}\n"}, "demo login"),
    )
    for n, (files, words) in enumerate(cases):
        note = f"Deployed to production.\n- Admin: ops@fern.io / {DEMO} {words}"
        [kept] = _audit(_project(tmp_path / f"kept{n}", files, note))
        assert kept.level == "problem", words


def _labelled_level(where: Path, note: str) -> str | None:
    """The level of the one finding of ``note``, whose value (``DEMO``) a seed file
    publishes, with the message's words on production checked against the level."""
    [found] = _audit(_project(where, {"tools/seed.yml": SEED}, note))
    if found.level == "suggestion":
        assert found.message.endswith(
            "; the repository publishes this test account's login in tools/seed.yml"
        ), note
        assert str(found.suggestion).startswith(
            "if the test account exists only on local or test systems, mark it as a false"
        )
    return found.level


PROMOTED = "The app was promoted to production on Vercel last week.\n\n## Accounts\n"


def test_a_published_login_its_line_labels_a_test_account_s_stays_a_suggestion_in_production(
    tmp_path: Path,
) -> None:
    # round 145's false problems (judged after the look): a test account's login that the
    # repository's seed or tests publish, in a note that speaks of production elsewhere
    # (look-alikes), labelled in the languages of the corpus
    labels = (
        "- **ops test account:**",
        "- ✅ Usuario de prueba:",
        "- 测试账号：",
        "- Testkonto:",
        "- conta de teste:",
        "- compte de test :",
        "- テストアカウント：",
        "- 테스트 계정:",
    )
    for n, label in enumerate(labels):
        note = PROMOTED + f"{label} `ops@fern.io` / `{DEMO}`"
        assert _labelled_level(tmp_path / str(n), note) == "suggestion", label


def test_a_test_account_s_line_or_headings_naming_production_or_a_live_system_keep_it_a_problem(
    tmp_path: Path,
) -> None:
    # its own line, its section's heading, a section's it sits in (the second reader's
    # "# Production" over "## Accounts"), a bold line over it; a live system's words
    login = f"`ops@fern.io` / `{DEMO}`"
    notes = (
        PROMOTED + f"- **production test account:** {login}",
        f"## Production\n- **ops test account:** {login}",
        f"# Production\n\nDeployed weekly.\n\n## Accounts\n- **ops test account:** {login}",
        f"## Production\n\n**Admin**\n- test account: {login}",
        PROMOTED + f"- live test account: {login}",
        PROMOTED + f"- PRD test user: {login}",
        PROMOTED + f"- prod2 test account: {login}",
        "项目已上线生产。\n\n## 线上账号\n" + f"- 测试账号：{login}",
        # a second reader's (session 64): a live system's hyphenated and other languages'
        # words, and production named only by a bold list item the line is nested in, or by
        # a bold line above the nearest one
        PROMOTED + f"- **test account (PRD-EU):** {login}",
        PROMOTED + f"- **test account (prod2-eu):** {login}",
        PROMOTED + f"- test account on live-db: {login}",
        PROMOTED + f"- Testkonto (Livesystem): {login}",
        PROMOTED + f"- 테스트 계정(실서버): {login}",
        PROMOTED + f"- 测试账号（现网环境）：{login}",
        f"## Accounts\n- **Production**\n  - **ops test account:** {login}",
        f"## Accounts\n\n**Production**\n\n**Logins**\n- **ops test account:** {login}",
        f"## Accounts\n> - **Production**\n>   - test account: {login}",
    )
    for n, note in enumerate(notes):
        assert _labelled_level(tmp_path / str(n), note) == "problem", note


def test_production_named_only_by_a_bold_line_over_a_test_account_keeps_it_a_problem(
    tmp_path: Path,
) -> None:
    # no heading names production: only the bold line over the label does; the same note
    # with that bold line naming nothing leaves the published test login a suggestion
    login = f"`ops@fern.io` / `{DEMO}`"
    note = "Promoted to production last week.\n\n## Accounts\n\n**{}**\n- test account: " + login
    assert _labelled_level(tmp_path / "prod", note.format("Production logins")) == "problem"
    assert _labelled_level(tmp_path / "other", note.format("Shop logins")) == "suggestion"


def test_words_that_name_no_test_account_s_label_keep_a_production_login_a_problem(
    tmp_path: Path,
) -> None:
    # the second reader's: "test" as a verb, a real service's trial account, a contest's
    # users (コンテスト, 콘테스트), "tested the user" (已测试用户), no label at all
    login = f"`ops@fern.io` / `{DEMO}`"
    lines = (
        f"- test login with {login} on the shop",
        f"- cuenta de prueba de AWS: {login}",
        f"- コンテストユーザー: {login}",
        f"- 콘테스트 계정: {login}",
        f"- 已测试用户登录：{login}",
        f"- **ops account:** {login} (tested today)",
        # a second reader's (session 64): a label denied, one after the value or in a link
        # after it, a colon in the value or a time after "test login", a trial account by
        # other words
        f"- **ops account (not a test account):** {login}",
        f"- not a test account: {login}",
        f"- Admin: {login} (test users: see seed.yml)",
        f"- Admin {login}, see [test users](seed.md)",
        f"- test login with ops:{DEMO} on the shop",
        f"- test login at 10:30 with {login}",
        f"- cuenta de prueba del servicio AWS: {login}",
        f"- cuenta de prueba en AWS: {login}",
        f"- compte de test AWS : {login}",
    )
    for n, line in enumerate(lines):
        assert _labelled_level(tmp_path / str(n), PROMOTED + line) == "problem", line


def test_a_labelled_test_account_stays_a_problem_on_a_server_or_beside_a_production_place(
    tmp_path: Path,
) -> None:
    # the label answers production named elsewhere in its note, nothing more: a test
    # account on a server the note names is that server's (the second reader's), and the
    # same value on another line that names production is a production login
    hosted = PROMOTED + f"- test user: `ops@fern.io` / `{DEMO}` on https://abcd.supabase.co"
    [found] = _audit(_project(tmp_path / "host", {"tools/seed.yml": SEED}, hosted))
    assert found.level == "problem"
    assert "the note binds it to abcd.supabase.co" in found.message
    both = (
        PROMOTED + f"- test user: `ops@fern.io` / `{DEMO}`\n- prod admin password is also `{DEMO}`"
    )
    assert _labelled_level(tmp_path / "both", both) == "problem"


def test_a_value_repeated_in_agents_instructions_stays_a_problem(tmp_path: Path) -> None:
    # a scraper's login in its CLAUDE.md, a tenant's password in a skill: agents read these
    # as they read memory, so the value leaked there too; a README's stays a publication
    files = {
        "scraper/CLAUDE.md": f"# Scraper\nThe scraper login is ops/{DEMO} on the site.\n",
        "skills/tenants/SKILL.md": f"# Tenants\nThe tenant login is admin/{DEMO} at first.\n",
        "skills/import-orders.md": f"# Import\nThe import login is admin/{DEMO} at first.\n",
    }
    tree = _project(tmp_path, files, f"The scraper login is ops/{DEMO} here.")
    [found] = _audit(tree)
    assert (found.path, found.level) == ("a.md", "problem")
    assert "publishes" not in found.message


def test_a_published_value_a_note_places_in_production_stays_a_problem(tmp_path: Path) -> None:
    # a demo login seeded into the production project, the production database's password
    # the compose file repeats: the publication makes them worse, not a demo's; a product's
    # name ("prodigy", "products") places nothing
    live = f"The demo operator ops@fern.io / {DEMO} now lives in the production project.\n"
    tree = _project(tmp_path, {"tools/seed.yml": SEED}, live)
    [found] = _audit(tree)
    assert (found.path, found.level) == ("a.md", "problem")
    assert found.message.endswith(
        "; the repository publishes this value in tools/seed.yml too, and the note places its"
        " system in production"
    )
    assert str(found.suggestion).startswith("change it on the production system")
    quiet_words = (
        *("the Prodigy products page", "reproduce it with the seed", "a non-production copy"),
        *("never deployed to production", "Kafka 消息生产者 test", "непрод стенд"),
        # code that is not a test's (batch 215): "production code" runs nowhere of its own
        *("created by the real production code path", "prod code only"),
    )
    for n, words in enumerate(quiet_words):
        note = f"{words}: ops@fern.io / {DEMO}"
        assert _seeded_level(tmp_path / str(n), note) == "suggestion", words


def test_an_index_entry_is_placed_in_production_by_its_own_line_only(tmp_path: Path) -> None:
    # round 145: another entry of the index ("Backend pinned to dev; staging/prod refusing
    # stubs") placed the test accounts' published password of the entry below in production
    def level(where: Path, index_text: str) -> str | None:
        repo = Repo(where / "shop")
        repo.commit(
            "seed",
            {
                "tools/seed.yml": SEED,
                "memory/MEMORY.md": index_text,
                "memory/a.md": memory("a", body="Backend pinned to dev.\n"),
                "memory/b.md": memory("b", body="Accounts in the seed file.\n"),
            },
        )
        [found] = _audit(repo.path / "memory")
        assert found.path == "MEMORY.md"
        return found.level

    backend = "- [Backend pinned to dev](a.md) — staging/prod refusing stubs\n"
    for title in ("Test accounts", "Ops accounts"):
        accounts = f"- [{title}](b.md) — all `ops@fern.io` / `{DEMO}`\n"
        assert level(tmp_path / f"other-{title}", backend + accounts) == "suggestion"
        own = f"- [{title}](b.md) — `ops@fern.io` / `{DEMO}` on prod\n"
        assert level(tmp_path / f"own-{title}", backend + own) == "problem"
        # the second reader's: the entry's heading and the index's opening still speak of it
        entries = "- [Backend](a.md) — api\n" + accounts
        heading = level(tmp_path / f"heading-{title}", "## Production\n" + entries)
        assert heading == "problem", title
        # ... but the opening, as any text of the note outside the entry's line and
        # headings, does not reach an entry whose title labels a test account's login
        opening = "All of these run the live production shop.\n"
        expected = "suggestion" if title == "Test accounts" else "problem"
        assert level(tmp_path / f"opening-{title}", opening + entries) == expected, title


def test_a_production_system_named_after_code_is_still_production(tmp_path: Path) -> None:
    # the second reader's cases: only the code itself ("production code path", "prod code
    # only") runs nowhere; a server, a box or a portal of it is a production system
    notes = tuple(
        f"{words}: ops@fern.io / {DEMO}"
        for words in (
            "the production code server",
            "prod code deploy box",
            "the production code signing portal",
        )
    )
    _assert_seeded_levels(tmp_path, notes, "problem")


def test_a_development_machine_in_a_production_note_is_no_production(tmp_path: Path) -> None:
    # a production infrastructure note's section on the developer's own database: the
    # heading (or the value's line) names a development machine, so it stays a suggestion
    notes = (
        f"# Production infrastructure\n\n**Fallback DB (dev machine, local)**\n\nops@fern.io / {DEMO}",
        f"# 生产环境基础设施\n\n**备选数据库（开发机本地）**\n\nops@fern.io / {DEMO}",
        f"# Production infrastructure\n\n- staging: ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path, notes, "suggestion")


def test_a_copy_of_production_and_a_command_named_prod_place_nothing_in_production(
    tmp_path: Path,
) -> None:
    # a reviewer's note on the local stack that holds a copy of the production data: "prod
    # copy", "a dump of production" and a make target's name in backticks say where the
    # data came from, not where the system runs; the compose default stays a suggestion
    quiet = (
        f"The local stack runs a prod copy (`make sync-prod`).\n- db: ops@fern.io / {DEMO}",
        f"Restore the local prod-copy DB first.\n- db: ops@fern.io / {DEMO}",
        f"Loads a dump of production into docker.\n- db: ops@fern.io / {DEMO}",
        f"Run `./scripts/deploy-prod.sh --dry-run` to compare.\n- db: ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # production named in prose, or a production name on the value's own line, still counts
    live = (
        f"The prod copy is refreshed from production nightly.\n- db: ops@fern.io / {DEMO}",
        f"Local notes.\n- `PROD_DB`: ops@fern.io / {DEMO}",
        # a host's or a system's name in a code span is a place
        f"## Database\nHost: `db.prod.fern.io`\n- db: ops@fern.io / {DEMO}",
        f"Server `fern-prod` since May.\n- db: ops@fern.io / {DEMO}",
        # production between two code spans is outside both
        f"Runs `api` on prod via `make up`.\n- db: ops@fern.io / {DEMO}",
        # a copy of production's settings or credentials is production's
        f"Keep a copy of the prod credentials here:\n- db: ops@fern.io / {DEMO}",
        f"The production copy of settings.yml holds:\n- db: ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path / "live", live, "problem")


def test_production_said_to_be_left_untouched_places_nothing_there(tmp_path: Path) -> None:
    # round 132's tuning half: a suite's users seeded through the admin API, "prod realm
    # export UNTOUCHED": production is what was not changed, the values are the local
    # stack's; production changed, or untouched only far along its clause, still counts
    quiet = (
        f"- e2e: ops@fern.io / {DEMO}, seeded via the admin API; prod realm export UNTOUCHED.",
        f"- db: ops@fern.io / {DEMO}\n\nThe production DB left alone; this is the local stack.",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # production's value unchanged, or production itself, is still production (the second
    # reader's cases)
    live = (
        f"- admin: ops@fern.io / {DEMO} on the production server; the old box untouched.",
        f"- db: ops@fern.io / {DEMO}\n\nProduction runs this since May; the old box is untouched.",
        f"- admin: ops@fern.io / {DEMO} (production password unchanged since 2023)",
        f"- admin: ops@fern.io / {DEMO}. Production unchanged: it still uses this login.",
        f"- admin: ops@fern.io / {DEMO} on the production server and the legacy box untouched",
        f"- admin: ops@fern.io / {DEMO}\n\nThe production DB unchanged, still this login.",
    )
    _assert_seeded_levels(tmp_path / "live", live, "problem")


def test_a_mode_the_code_runs_in_places_nothing_in_production(tmp_path: Path) -> None:
    # an end-to-end suite's note (round 109's judges): a rate limit "only active in
    # `NODE_ENV=production`" names a mode the code checks, not where the database runs
    quiet = (
        f"- db: ops@fern.io / {DEMO}\n\nRate limiting: only active in `NODE_ENV=production`.",
        f"- db: ops@fern.io / {DEMO}\n\nMails go out only if `RAILS_ENV == 'production'`.",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # advice for a production the note's system is not in (round 110's judges)
    advice = (
        f"- db: ops@fern.io / {DEMO}\n\nFor production, restrict the DB user and use a vault.",
        f"- db: ops@fern.io / {DEMO}\n\n- For the production, rotate it and use a vault.",
    )
    _assert_seeded_levels(tmp_path / "advice", advice, "suggestion")
    # the mode set for the value's own system, on its line, or as its environment (a
    # listing, a command run against it), places it; so does production as the value's use
    # (the second reader's cases)
    live = (
        f"- db (`APP_ENV=production`): ops@fern.io / {DEMO}",
        f"- db: ops@fern.io / {DEMO}\n\nFor production, the same login opens the admin.",
        f"## Live server .env\n\n```\nAPP_ENV=production\nDB_PASSWORD={DEMO}\n```",
        f"Ran RAILS_ENV=production bin/rails db:seed on the VPS.\n\n- admin: ops@fern.io / {DEMO}",
        f"ASPNETCORE_ENVIRONMENT=Production on the box.\n\n- admin: ops@fern.io / {DEMO}",
        f"## Credentials for production use only\n\n- db: ops@fern.io / {DEMO}",
        f"These accounts are for production use.\n\n- db: ops@fern.io / {DEMO}",
        f"For production, use these credentials:\n\n- db: ops@fern.io / {DEMO}",
        f"For production: use the ops login below.\n\n- db: ops@fern.io / {DEMO}",
        f"For prod, set DB_PASSWORD on the server to:\n\n- db: ops@fern.io / {DEMO}",
        f"Keys for the production set of servers:\n\n- db: ops@fern.io / {DEMO}",
        f"The ops database is for production, set up by Ana.\n\n- db: ops@fern.io / {DEMO}",
        # the second reader's second pass
        f"For production, use the ops login below.\n\n- db: ops@fern.io / {DEMO}",
        f"The only box running in APP_ENV=production is fern-1.\n\n- db: ops@fern.io / {DEMO}",
        f"When RAILS_ENV=production was enabled we seeded it.\n\n- db: ops@fern.io / {DEMO}",
        f"While APP_ENV=production is set on fern-1:\n\n- db: ops@fern.io / {DEMO}",
        # the third pass
        f"For production, use the ops login.\n\n- db: ops@fern.io / {DEMO}",
        f"This login is only used in APP_ENV=production.\n\n- db: ops@fern.io / {DEMO}",
        f"The ops box is only on with APP_ENV=production.\n\n- db: ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path / "live", live, "problem")


def test_production_as_a_case_or_a_stage_to_come_places_nothing(tmp_path: Path) -> None:
    # a security review's warning about a fallback in the code (round 113's judges): "any
    # prod deploy that forgets an env var" is a case that may come, no system there; so is
    # a stage the review tells its reader to reach ("must ... before production.")
    quiet = (
        f"- C-1 ships defaults (ADMIN_PASSWORD={DEMO}). Any prod deploy that forgets an env"
        " var boots with it.",
        f"- db: ops@fern.io / {DEMO}\n\nAny production server that runs this build would be open.",
        f"- db: ops@fern.io / {DEMO}\n\nAny prod box without DB_PASSWORD set boots with it.",
        f"- db: ops@fern.io / {DEMO}\n\n- [ ] TODO: rotate it before prod.",
        f"- db: ops@fern.io / {DEMO}\n\nYou must rotate ops@fern.io before production.",
        f"- db: ops@fern.io / {DEMO}\n\nAuth endpoints must get a limiter before production.",
        f"- db: ops@fern.io / {DEMO}\n\nRotate it before the prod launch.",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # a production named as one, "any" of something else, the real fleet ("any prod host"),
    # and what was done before production went live (it is there now) still place it (the
    # second reader's cases too)
    live = (
        f"- C-1 ships defaults (ADMIN_PASSWORD={DEMO}). The prod deploy boots with it.",
        f"- db: ops@fern.io / {DEMO}\n\nProd has it; any deploy that forgets it fails.",
        f"- db: ops@fern.io / {DEMO}\n\nDo any prod checks before noon.",
        f"- admin: ops@fern.io / {DEMO}\n\nSeeded before production went live; still there.",
        f"- db: ops@fern.io / {DEMO}\n\nAny production server running this build is open.",
        f"- db: ops@fern.io / {DEMO}\n\nSSH into any prod host with the same login.",
        f"- any prod box: ops@fern.io / {DEMO}",
        f"- admin: ops@fern.io / {DEMO}\n\nSeeded before the production launch; still there.",
        f"- admin: ops@fern.io / {DEMO}\n\nSeeded two weeks before production\nwent live.",
        f"- admin: ops@fern.io / {DEMO}\n\nThe WAF sits before prod.fern.io and keeps it.",
        f"- admin: ops@fern.io / {DEMO}\n\nAlso valid on any prod-hosts in the inventory.",
        # the second reader's second pass: the fleet a clause describes, a modal's other
        # senses, a modal in the sentence before, a clause past the sentence's reach
        f"- db: ops@fern.io / {DEMO}\n\nAny production server that runs this build is open.",
        f"- db: ops@fern.io / {DEMO}\n\nWorks on any prod host that has the agent installed.",
        f"- admin: ops@fern.io / {DEMO}\n\nThe fix landed before production; still live.",
        f"- admin: ops@fern.io / {DEMO}\n\nSeeded (the must-have script) before production.",
        f"- admin: ops@fern.io / {DEMO}\n\nQ: should we rotate it? Seeded before production.",
        f"Must rotate. - admin: ops@fern.io / {DEMO} {'word ' * 50}seeded before production.",
        # the third pass: "needs" without "to", a person's modal, a noun opening the clause
        f"- admin: ops@fern.io / {DEMO}\n\nNobody needs it, but it was seeded before production.",
        f"- db: ops@fern.io / {DEMO}\n\nIt opens any prod server where you might need root.",
        f"- admin: ops@fern.io / {DEMO}\n\nFix deployed before prod release; admin still live.",
    )
    _assert_seeded_levels(tmp_path / "live", live, "problem")


def test_production_named_in_another_section_of_a_brief_places_nothing(tmp_path: Path) -> None:
    # a project brief's seed section: "production" only in its configuration example's
    # placeholder and in a file tree, in other sections; a ``# comment`` in a fenced block
    # opens no section of its own
    brief = (
        "# Brief\n\n## Structure\n```\nsrc/environment.prod.ts\n```\n\n## Configuration\n"
        "jwt: ${JWT_SECRET:key-change-in-production}\n\n## Seed data\n```sql\n"
        f"# the admin\n-- admin (password: {DEMO})\n```\n"
    )
    assert _seeded_level(tmp_path / "brief", brief) == "suggestion"
    quiet = (
        # what to do once there is said of a system not there yet
        f"## Seed\nsecret: key-change-in-production\n- admin ops@fern.io / {DEMO}",
        f"## Seed\nChange it before going to production.\n- admin ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # the value's own section, the opening of a section it sits in, and a note's opening
    # before its first heading do place it
    live = (
        f"# Guide\n## Other\n## Seed\nDeployed to production.\n- admin ops@fern.io / {DEMO}",
        f"# Servers\nThe prod box runs all below.\n## Database\n- admin ops@fern.io / {DEMO}",
        f"# Production\n## Seed\n- admin ops@fern.io / {DEMO}\n## Other\nnone",
        f"The production stack.\n# Seed\n- admin ops@fern.io / {DEMO}",
        # a change made there, and production that went live, are production's
        f"A schema change in production.\n- admin ops@fern.io / {DEMO}",
        f"Seeded the day before production went live.\n- admin ops@fern.io / {DEMO}",
        # a fence line with an info string closes no fence: its `# build` is no heading
        f"## Seed\nDeployed to production.\n```\n```bash\n# build\n```\n- admin ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path / "live", live, "problem")
    # a later section's opening is not one the value sits in
    later = f"# Seed\n- admin ops@fern.io / {DEMO}\n# Deploy\nRuns in production."
    assert _seeded_level(tmp_path / "later", later) == "suggestion"


def test_an_indented_shell_comment_opens_no_section(tmp_path: Path) -> None:
    # commands indented by two spaces under a bold label, their "# terminal 1" comments:
    # Markdown would read a heading there, the note's author a comment; read as a heading,
    # it made a far section's production table the opening of every section below it
    note = (
        "# Stack\n\n## Payments\n\n**Start order:**\n\n  # terminal 1: api\n  npm run dev\n\n"
        "| env | mode |\n|---|---|\n| Production (Vercel) | live payments |\n\n### Git LFS\n"
        "Assets in LFS.\n\n## Testing\n\n### Test users (seed.sql)\n\n"
        f"| role | email | password |\n|---|---|---|\n| admin | admin@fern.dev | {DEMO} |\n"
    )
    assert _seeded_level(tmp_path, note) == "suggestion"


def test_other_languages_name_production_too(tmp_path: Path) -> None:
    for n, words in enumerate(
        (
            "生产环境数据库",
            "em produção desde maio",
            "本番サーバー",
            "the prod-db",
            "fern-prod db",
            "PROD_DB",
        )
    ):
        note = f"{words}: ops@fern.io / {DEMO}"
        assert _seeded_level(tmp_path / str(n), note) == "problem", words
    # a test user's address at a ``.local`` domain names no development machine
    note = f"# Production DB\n- test user qa@fern.local / {DEMO}"
    assert _seeded_level(tmp_path / "local", note) == "problem"


def test_a_setting_for_dev_and_another_for_prod_places_no_other_line_in_production(
    tmp_path: Path,
) -> None:
    # round 143 (first look): a status list gives a cooldown "for dev" and "for prod" in
    # one item, and the seeded test accounts' password two items below; and a value the
    # line itself calls the dev default, in Russian (look-alikes)
    quiet = (
        f"## Status\n- `cooldownHours: 0.003` (10 s for dev, change to 24 for prod)\n"
        f"- test users tester1/2/3: ops@fern.io / {DEMO}",
        f"## Статус\n- `cooldownHours: 0.003` (10 сек для dev, менять на 24 для prod)\n"
        f"- тестовые пользователи: ops@fern.io / {DEMO}",
        f"- Контейнер whisper: ops@fern.io / {DEMO} (дев-дефолт), прод=large на GPU",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # production named without such a contrast, or both environments sharing the value,
    # still places it
    live = (
        f"## Status\n- cooldown is 24 h in prod\n- admin: ops@fern.io / {DEMO}",
        f"## Status\n- dev and prod share it (for dev, and for prod)\n- admin: ops@fern.io / {DEMO}",
        f"- Контейнер: ops@fern.io / {DEMO}, прод сервер",
    )
    _assert_seeded_levels(tmp_path / "live", live, "problem")


def test_advice_to_change_a_default_in_production_places_nothing_there(tmp_path: Path) -> None:
    # round 144 (first look): a README's default accounts under "change the default password
    # in production" in Chinese; in Japanese and Korean too (look-alikes)
    quiet = (
        f"### 默认账户\n| 用户名 | 密码 |\n|---|---|\n| ops@fern.io | {DEMO} |\n\n"
        "> ⚠️ 生产环境请务必修改默认密码。",
        f"- 初期アカウント: ops@fern.io / {DEMO}\n- 本番環境では必ず変更してください",
        f"- 기본 계정: ops@fern.io / {DEMO}\n- 운영 환경에서는 반드시 변경하세요",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # ... and production named as the system the value is kept out of (round 144)
    kept_out = (
        f"The login `ops@fern.io / {DEMO}` is a committed placeholder.\n"
        "Production runs `authn.mode` against a real IdP and never uses this\nlogin.",
        f"- login: ops@fern.io / {DEMO}; prod doesn't use the default login",
    )
    _assert_seeded_levels(tmp_path / "kept_out", kept_out, "suggestion")
    # a change made there, or the production system's own login, still places it
    live = (
        f"- 生产环境密码已修改: ops@fern.io / {DEMO}",
        f"- 生产环境账户: ops@fern.io / {DEMO}（请勿修改）",
        f"- 生产环境请勿修改: ops@fern.io / {DEMO}",
        f"- prod login: ops@fern.io / {DEMO} (never used it anywhere else)",
        # the second reader's: "do not change", changed *to* what follows, and another
        # system's clause after a comma or in brackets
        f"- 生产环境请一定不要修改此账户: ops@fern.io / {DEMO}",
        f"- 生产环境请千万别修改: ops@fern.io / {DEMO}",
        f"- 운영 환경에서는 반드시 변경하지 마세요: ops@fern.io / {DEMO}",
        f"- 本番環境では必ず変更しないこと: ops@fern.io / {DEMO}",
        f"- 生产环境必须更换为以下账户: ops@fern.io / {DEMO}",
        f"- Production admin, the mobile app never uses it: ops@fern.io / {DEMO}",
        f"- Production login (the CI runner never uses this): ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path / "live", live, "problem")


def test_a_published_value_a_note_binds_to_another_machine_stays_a_problem(
    tmp_path: Path,
) -> None:
    # a LAN server's login an archived plan repeats, a hosted database's password a guide
    # repeats: the value opens a system others reach, and its publication is a leak too
    note = f"## Hardware\n\n- **Host:** `192.168.7.21` (gpu-box)\n- **User/Pass:** ops / {DEMO}"
    [found] = _audit(_project(tmp_path / "lan", {"tools/seed.yml": SEED}, note))
    assert found.level == "problem"
    assert found.message.endswith(
        "; the repository publishes this value in tools/seed.yml too, and the note binds it to"
        " 192.168.7.21"
    )
    assert found.suggestion == (
        "change it on 192.168.7.21 (tools/seed.yml makes it public), then redact the copies here"
    )
    assert DEMO not in repr(found)
    hosted = (
        "## Local development\n```bash\nPROJECT_URL=https://qwrtzuiopasdfghj.supabase.co\n"
        f"DB_PASSWORD={DEMO}\n```"
    )
    assert _seeded_level(tmp_path / "hosted", hosted) == "problem"
    # the developer's machine in the paragraph, or a server in another one: a local default
    quiet = (
        f"DB on 192.168.1.20, or localhost:5432 locally\n- db: ops@fern.io / {DEMO}",
        f"Server: 192.168.7.21\n\nLocal seed: ops@fern.io / {DEMO}",
        f"Container 172.18.0.3: ops@fern.io / {DEMO}",
    )
    _assert_seeded_levels(tmp_path / "quiet", quiet, "suggestion")
    # a test password by its own words stays a suggestion on a server, as unpublished
    test = "Demo1234!"
    seed = f"users:\n  - login: ops\n    password: {test}\n"
    note = f"- Host: 192.168.7.21\n- Login: ops/{test}"
    [found] = _audit(_project(tmp_path / "test", {"tools/seed.yml": seed}, note))
    assert found.level == "suggestion"


def test_a_project_root_beside_the_tree_is_searched_too(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    repo.commit("seed", {"seed.yml": f"users:\n  - login: demo\n    password: {DEMO}\n"})
    tree = tmp_path / "store" / "memory"
    tree.mkdir(parents=True)
    (tree / "MEMORY.md").write_text(index("a.md"))
    (tree / "a.md").write_text(memory("a", body=f"The demo login is demo/{DEMO} here.\n"))
    [found] = _audit(tree, ProjectLocation(project_path=repo.path))
    assert found.level == "suggestion"
    assert found.message.endswith(" in seed.yml")


def test_a_repeat_of_a_published_value_is_a_suggestion_too(tmp_path: Path) -> None:
    tree = _project(
        tmp_path,
        {"README.md": f"demo login: demo/{DEMO}\n"},
        f"The demo login is demo/{DEMO} here.\nSign in with {DEMO} again.",
    )
    [found] = _audit(tree)  # one value, one finding: its repeat is one of its places
    assert found.level == "suggestion"
    assert found.fix is not None
    first, second = (place["line"] for place in found.fix["places"])
    assert second == first + 1


def test_a_token_in_an_issuers_format_stays_a_problem_though_published(tmp_path: Path) -> None:
    readme = f"CI token: {GITHUB}\nThe demo login is demo/{DEMO}.\n"
    note = f"CI uses {GITHUB}\nThe demo login is demo/{DEMO} here."
    tree = _project(tmp_path, {"README.md": readme}, note)
    token, demo = _audit(tree)
    assert (token.level, demo.level) == ("problem", "suggestion")
    assert "github-pat" in token.message
    assert "publishes" not in token.message


def test_a_value_only_in_untracked_or_ignored_files_stays_a_problem(tmp_path: Path) -> None:
    tree = _project(tmp_path, {".gitignore": ".env\n"}, f"The demo login is demo/{DEMO} here.")
    (tree.parent / ".env").write_text(f"DEMO_PASSWORD={DEMO}\n")
    (tree.parent / "scratch.md").write_text(f"demo/{DEMO}\n")
    assert [f.level for f in _audit(tree)] == ["problem"]
    subprocess.run(["git", "-C", str(tree.parent), "add", "scratch.md"], check=True)
    assert [f.level for f in _audit(tree)] == ["suggestion"]


def test_a_value_in_a_service_unit_is_deployed_not_published(tmp_path: Path) -> None:
    # a homelab's Podman quadlet runs the service with it (the thirty-third round's tuning half)
    unit = f"[Container]\nImage=docker.io/fern/reader\nEnvironment=ADMIN_PASSWORD={DEMO}\n"
    for n, name in enumerate(("quadlets/core/fern-reader.container", "units/fern-reader.service")):
        tree = _project(tmp_path / str(n), {name: unit}, f"- Reader: `ops` / `{DEMO}`")
        assert [f.level for f in _audit(tree)] == ["problem"], name


def test_an_ignore_list_or_a_config_backup_publishes_nothing(tmp_path: Path) -> None:
    # the thirty-third round's second held-out batch: a password that is also a folder's name
    # in .gitignore, a live token in the backup of the config that holds it, a shell's profile
    files = (
        (".gitignore", f"node_modules/\nsecrets/{DEMO}/\n"),
        ("openclaw.json.bak", f'{{"gateway": {{"password": "{DEMO}"}}}}\n'),
        ("config/openclaw.json.bak.1", f'{{"gateway": {{"password": "{DEMO}"}}}}\n'),
        (".profile", f"export GATEWAY_PASSWORD={DEMO}\n"),
    )
    for n, (name, body) in enumerate(files):
        tree = _project(tmp_path / str(n), {name: body}, f"- Gateway: `ops` / `{DEMO}`")
        assert [f.level for f in _audit(tree)] == ["problem"], name


def test_a_value_only_in_the_tree_stays_a_problem(tmp_path: Path) -> None:
    tree = _project(tmp_path, {"README.md": "# Shop\n"}, f"The demo login is demo/{DEMO} here.")
    assert [f.level for f in _audit(tree)] == ["problem"]
    (tree.parent / "README.md").write_text(f"# Shop\nDemo: demo/{DEMO}\n")
    assert [f.level for f in _audit(tree)] == ["suggestion"]


def test_a_longer_word_holding_the_value_is_not_the_value(tmp_path: Path) -> None:
    note = f"The demo login is demo/{DEMO} here."
    tree = _project(tmp_path, {"README.md": f"old: {DEMO}7\n"}, note)
    assert [f.level for f in _audit(tree)] == ["problem"]
    (tree.parent / "README.md").write_text(f"old: {DEMO}.\n")
    assert [f.level for f in _audit(tree)] == ["suggestion"]


def test_a_long_password_with_symbols_and_a_compose_default_are_published_too(
    tmp_path: Path,
) -> None:
    # A fixture password a provisioning script hard-codes (a person's, with symbols, though
    # long and mixing cases and digits) and a compose file's database URL default.
    fixture, default = "Harb0r#Quay2026!x", "Shopline2026"
    files = {
        "scripts/provision.py": f'PASSWORD = "{fixture}"  # local test account\n',
        "docker-compose.yml": f"DATABASE_URL: postgresql://shop:{default}@db:5432/shop\n",
    }
    note = f"- Email: qa@shopline.io | Password: {fixture}\nThe DB is postgresql://shop:{default}@db:5432/shop"
    found = _audit(_project(tmp_path, files, note))
    assert [f.level for f in found] == ["suggestion", "suggestion"]
    assert {f.message.rsplit(" ", 1)[-1] for f in found} == set(files)


def test_a_template_default_for_a_local_database_is_no_finding_published_or_not(
    tmp_path: Path,
) -> None:
    # A password that only names itself one, or repeats the user, on this machine or a
    # compose service's host: every clone's default, no one's secret. The same words on
    # another host are someone's, and stay.
    urls = [
        "postgresql://shop_user:shop_password@localhost:5432/shop",
        "postgresql://shop:shopdbpass@db:5432/shop",
        "postgresql://shopline:shopline@postgres:5432/shopline",
    ]
    files = {"docker-compose.yml": "".join(f"DATABASE_URL: {url}\n" for url in urls)}
    remote = "postgresql://shop_user:shopline_password@db.shopline.io:5432/shop"
    note = "\n".join([*urls, remote])
    [found] = _audit(_project(tmp_path, files, note))
    assert found.level == "problem"  # the remote one, which the repository does not publish


def test_a_login_an_automation_script_hard_codes_stays_a_problem(tmp_path: Path) -> None:
    # Code publishes a value on purpose only when its path or the value's line (or the one
    # above) says it is a default, a test's or a demo's: an automation script's real login
    # leaked there as it leaked into the note (held-out batch 122's Instagram password).
    note = f"- **Password:** {DEMO}"
    levels = {
        "scripts/post_reels.py": ("problem", f'INSTAGRAM_PASSWORD = "{DEMO}"\n'),
        "scripts/seed_shop.py": ("suggestion", f'INSTAGRAM_PASSWORD = "{DEMO}"\n'),
        "scripts/login.py": ("suggestion", f'# the demo account\nPASSWORD = "{DEMO}"\n'),
        "scripts/latest.py": ("problem", f'PASSWORD = "{DEMO}"  # latest\n'),
        # a function's default for a server on this machine: the machine's real password
        "tools/vnc_grab.py": ("problem", f"def grab(host='localhost', password='{DEMO}'):\n"),
        # words that name no default: an identifier's part, a line of code above, a path's
        # "spec" inside another word; a backup of a script and a script without a suffix
        "scripts/login_a.py": (
            "problem",
            f'client.login("ops", "{DEMO}", timeout=DEFAULT_TIMEOUT)\n',
        ),
        "scripts/login_b.py": ("problem", f'TIMEOUT = 30  # default\nPASSWORD = "{DEMO}"\n'),
        "scripts/special_post.py": ("problem", f'PASSWORD = "{DEMO}"\n'),
        "scripts/post.py.bak": ("problem", f'PASSWORD = "{DEMO}"\n'),
        "bin/post": ("problem", f"#!/bin/sh\ncurl -u ops:{DEMO} https://fern.io\n"),
        "scripts/login_c.py": ("suggestion", f'PASSWORD = "{DEMO}"  # the demo account\n'),
        # a URL's "//" and path are inside a string, no comment; build files and scripts
        # of other kinds are code too
        "scripts/db.py": (
            "problem",
            f'URI = "mongodb+srv://ops:{DEMO}@c0.fern.mongodb.net/test?retryWrites=true"\n',
        ),
        "Makefile": ("problem", f"deploy:\n\tsshpass -p {DEMO} ssh ops@fern.io\n"),
        "deploy.bat": ("problem", f"net use z: \\\\fern\\share /user:admin {DEMO}\n"),
        "docs/instagram.txt": ("suggestion", f"password {DEMO}\n"),
    }
    _assert_published_levels(tmp_path, note, levels)


def test_a_key_an_issuer_prefixes_stays_a_problem_though_a_test_script_holds_it(
    tmp_path: Path,
) -> None:
    # ``sk-sp-`` and 32 lower case hex digits: what an issuer drew, a key wherever it is, even
    # in a test script that calls the API with it (held-out batch 125's coding-plan key)
    key = "sk-sp-1f0c9e2a7b4d4c3e8a6f5d2b9c1e7a40"
    note = f"- apiKey: {key}"
    [found] = _audit(_project(tmp_path, {"test_bailian_api.py": f'KEY = "{key}"\n'}, note))
    assert found.level == "problem"


def test_an_agents_note_of_an_account_at_the_root_is_a_leak_a_readme_or_a_demo_note_publishes(
    tmp_path: Path,
) -> None:
    # A note beside the memory folder (an agent's `google-account.md`) holding the password
    # is another copy of it (held-out batch 126); a README, a guide, a file under docs/ or a
    # note that calls the value a demo's publishes it.
    note = f"- **Password:** {DEMO}"
    levels = {
        "google-account.md": ("problem", f"- **密码**: {DEMO}\n"),
        "README.md": ("suggestion", f"Log in with {DEMO}\n"),
        "SETUP.md": ("suggestion", f"Log in with {DEMO}\n"),
        "docs/accounts.md": ("suggestion", f"- {DEMO}\n"),
        "accounts.md": ("suggestion", f"## Demo account\n- {DEMO}\n"),
        "notes/latest.txt": ("problem", f"password {DEMO}\n"),
        # a name that opens with a guide's word is an agent's note all the same
        "setup-prod-server.md": ("problem", f"- root: {DEMO}\n"),
        "logs/run.log": ("problem", f"login ops {DEMO} ok\n"),
    }
    _assert_published_levels(tmp_path, note, levels)


def _assert_published_levels(where: Path, note: str, levels: dict[str, tuple[str, str]]) -> None:
    """Each file (path -> level, text), committed alone in a project of its own beside the
    note, leaves the note's one finding at that level."""
    for n, (path, (level, text)) in enumerate(levels.items()):
        [found] = _audit(_project(where / str(n), {path: text}, note))
        assert found.level == level, path


def test_a_uuid_key_stays_a_problem_though_a_guide_lists_it(tmp_path: Path) -> None:
    # a provider's key drawn as an upper-case UUID, in the owner's own list of keys under
    # docs/: a key wherever it is, never a person's chosen (publishable) password
    key = "R09KA7C2-B4D1-4E6F-9A8B-3C5D7E9F1A2B"
    note = f'      "apiKey": "{key}",'
    [found] = _audit(_project(tmp_path, {"docs/guides/API-INFO.md": f"- yunyi: {key}\n"}, note))
    assert found.level == "problem"


def test_a_value_in_a_committed_credentials_file_leaked_there_too(tmp_path: Path) -> None:
    # round 129's tuning half: a site's login kept in a `.credentials` file at the root, its
    # password in a QA note; a file named for the secrets it holds publishes no default
    for n, name in enumerate((".credentials", "ops/.secrets", "credentials", ".secrets/db")):
        stored = f"email=matt@fern.io\npassword={DEMO}\n"
        tree = _project(tmp_path / str(n), {name: stored}, f"**Password tried:** {DEMO}")
        assert [f.level for f in _audit(tree)] == ["problem"], name
    tree = _project(tmp_path / "seed", {"tools/seed.yml": SEED}, f"**Password tried:** {DEMO}")
    assert [f.level for f in _audit(tree)] == ["suggestion"]
