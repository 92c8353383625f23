from __future__ import annotations

import os
from pathlib import Path

import pytest

from memory_audit.secrets.published import MAX_FILE_BYTES, chosen, published_in
from memory_audit.secrets.rules import bundled_rules
from tests.support.git_repo import Repo

RULES = {rule.name: rule for rule in bundled_rules().rules}
DEMO = "Bluefin42!x"


def test_passwords_people_choose_may_be_published_issuer_formats_never() -> None:
    assert chosen(RULES["login-pair"], DEMO)
    assert chosen(RULES["table-password"], DEMO)
    assert chosen(RULES["generic-assignment"], DEMO)  # no declared kind: the value decides
    assert not chosen(RULES["github-pat"], "ghp_" + "a1" * 18)
    assert not chosen(RULES["aws-secret-access-key"], "wJalrXUtnFEMI" + "K7MDENGbPxRfiCYz" * 2)
    assert chosen(RULES["database-url-password"], DEMO)  # a URL's password: chosen too
    assert chosen(RULES["password-phrase"], "Harb0r#Quay2026!x")  # symbols: a person's
    assert not chosen(RULES["table-key"], DEMO)  # the key kind
    assert not chosen(RULES["generic-assignment"], "Zq7RkP2mXv9LwT4nB6yd")  # a generated key
    assert not chosen(RULES["login-pair"], "0f" * 16)  # hex digits
    # hex of no key's usual length, a client secret cut by a digit: no person typed it
    assert not chosen(RULES["generic-assignment"], "8b227cf6705e" * 5 + "387")
    assert chosen(RULES["generic-assignment"], "cafe2026")  # short: a person's word
    # a key in base64 (an Ed25519 secret key), found by its label: generated, not chosen
    assert not chosen(RULES["generic-assignment"], "qN0atVx1pCaF+k3/Zr7wL2mXv9LwT4nB6yd8Gw==")
    assert chosen(RULES["generic-assignment"], "Harbor+Quay/2026")  # short, a person's
    # a service's prefix, then the hex it drew: a key, found in a test script or not
    assert not chosen(RULES["generic-assignment"], "mx_eu_" + "7c0e4a19d2b38f56" * 4)
    assert not chosen(RULES["generic-assignment"], "relayapi_" + "7e1c9f40d2a6" * 5)
    assert chosen(RULES["generic-assignment"], "fern_shop_2026")  # words and a year: a person's
    # a capitalised word is a name too, which a repository holds as the thing it names
    assert not chosen(RULES["password-phrase"], "Marisa")
    assert chosen(RULES["password-phrase"], "sunflower")


def test_the_first_tracked_file_outside_the_tree_holding_each_value(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    repo.commit(
        "seed",
        {
            "a/seed.py": f'USERS = [("demo", "{DEMO}")]\n',
            "b/README.md": f"demo/{DEMO} and ops/Harbor!x9\n",
            "memory/a.md": "ops/Lantern#2207\n",
        },
    )
    values = {"one": DEMO, "two": "Harbor!x9", "three": "Lantern#2207", "short": "ab1!"}
    found = published_in(repo.path, repo.path / "memory", values)
    assert found == {"one": "a/seed.py", "two": "b/README.md"}


def test_a_configuration_file_or_claude_codes_settings_publish_nothing(tmp_path: Path) -> None:
    # A deployment's configuration (a remote machine's SSH password in remote.yaml, a
    # signing password in key.properties, an .env) and Claude Code's settings (a permission
    # rule repeating the command a session ran) hold live values: found only there, a
    # value leaked there too. An example, a compose file or a fixture publishes on purpose.
    repo = Repo(tmp_path / "shop")
    repo.commit(
        "configs",
        {
            "ops/remote.yaml": "host: 10.1.2.3\nuser: ops\npassword: Quay7Fen!x\n",
            "android/key.properties": "storePassword=Moor4Lark\n",
            ".env": "ADMIN_PASS=Tarn9Ridge\n",
            ".claude/settings.local.json": '{"allow": ["Bash(sshpass -p Heron2Vale ssh ops)"]}\n',
            ".env.example": "DB_PASSWORD=Delta5Brook\n",
            "deploy/docker-compose.yml": "POSTGRES_PASSWORD: Ember3Crest\n",
            "tests/fixtures/users.json": '{"password": "Flint8Glade"}\n',
            # words inside other words name no example: the newest release's settings, a
            # contest's, a device's
            "releases/latest.json": '{"password": "Cobalt4Reed"}\n',
            "contest.yaml": "admin_password: Willow6Shoal\n",
            "conf/device.conf": "pass=Garnet2Moss\n",
            "config/appsettings.Development.json": '{"Password": "Slate7Finch"}\n',
            # a build's output is deployed, not an example; a .dist copy and unit tests are
            "dist/app.json": '{"password": "Onyx5Tern"}\n',
            "config.php.dist": "password=Quartz3Wren\n",
            "unittests/users.yaml": "password: Ivory8Skiff\n",
            "memory/a.md": "notes\n",
        },
    )
    values = {
        "remote": "Quay7Fen!x",
        "signing": "Moor4Lark",
        "env": "Tarn9Ridge",
        "settings": "Heron2Vale",
        "example": "Delta5Brook",
        "compose": "Ember3Crest",
        "fixture": "Flint8Glade",
        "latest": "Cobalt4Reed",
        "contest": "Willow6Shoal",
        "device": "Garnet2Moss",
        "development": "Slate7Finch",
        "build": "Onyx5Tern",
        "dist": "Quartz3Wren",
        "unittests": "Ivory8Skiff",
    }
    found = published_in(repo.path, repo.path / "memory", values)
    assert found == {
        "example": ".env.example",
        "compose": "deploy/docker-compose.yml",
        "fixture": "tests/fixtures/users.json",
        "development": "config/appsettings.Development.json",
        "dist": "config.php.dist",
        "unittests": "unittests/users.yaml",
    }


def test_links_binaries_and_large_files_are_not_read(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    outside = tmp_path / "elsewhere.txt"
    outside.write_text(f"{DEMO}\n")
    os.symlink(outside, repo.path / "link.txt")
    (repo.path / "blob.bin").write_bytes(b"\0" + f" {DEMO} ".encode())
    (repo.path / "big.txt").write_text(f"{DEMO}\n" + "x" * MAX_FILE_BYTES)
    repo.commit("odd files")
    assert published_in(repo.path, repo.path / "memory", {"one": DEMO}) == {}


def test_no_repository_or_the_memory_folders_own_gives_no_answer(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "README.md").write_text(f"{DEMO}\n")
    assert published_in(plain, plain / "memory", {"one": DEMO}) == {}
    own = Repo(tmp_path / "memory")
    own.commit("notes", {"notes.md": f"{DEMO}\n"})
    assert published_in(own.path, own.path, {"one": DEMO}) == {}


def test_a_tree_at_the_repositorys_root_is_published_by_its_other_files(tmp_path: Path) -> None:
    # a project keeping its MEMORY.md at its root: a local stack's compose file sets the
    # admin login its notes repeat; its Markdown, another copy's files, publish nothing
    repo = Repo(tmp_path / "stack")
    repo.commit(
        "stack",
        {
            "MEMORY.md": "- [auth](auth.md)\n",
            "auth.md": f"admin / {DEMO}\n",
            "docs/setup.md": "ops/Harbor!x9\n",
            "notes/MEMORY.md": "- [a](a.md)\n",
            "notes/seed.sh": "ops/Lantern#2207\n",
            "infra/docker-compose.yml": f"ADMIN_PASSWORD: {DEMO}\n",
            # a dreaming pass's corpus of the sessions under the workspace's memory folder
            # (round 79's tree): the agent's own record, no publication
            "memory/.dreams/session-corpus/2026-08-04.txt": (
                "[sessions/5f1c.jsonl#L4] User: run the tests again\n"
                "[sessions/5f1c.jsonl#L5] User: password (Quay#5150, sent by chat)\n"
            ),
        },
    )
    values = {"one": DEMO, "two": "Harbor!x9", "three": "Lantern#2207", "four": "Quay#5150"}
    assert published_in(repo.path, repo.path, values) == {"one": "infra/docker-compose.yml"}


def test_other_memory_copies_publish_nothing_and_readmes_come_first(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    repo.commit(
        "seed",
        {
            ".vscode/settings.json": f'{{"demo": "{DEMO}"}}\n',
            "docs/seed.md": f"demo/{DEMO} and ops/Harbor!x9\n",
            "README.md": f"demo/{DEMO}\n",
            "notes/MEMORY.md": "- [a](a.md)\n",
            "notes/a.md": "ops/Lantern#2207\n",
        },
    )
    values = {"one": DEMO, "two": "Harbor!x9", "three": "Lantern#2207"}
    found = published_in(repo.path, repo.path / "memory", values)
    assert found == {"one": "README.md", "two": "docs/seed.md"}


def test_a_repository_at_the_home_folder_is_dotfiles_not_the_project(
    isolated_home: Path,
) -> None:
    home = Repo(isolated_home)
    home.commit("dotfiles", {"notes.txt": f"{DEMO}\n"})
    tree = isolated_home / ".claude/projects/-app/memory"
    assert published_in(home.path, tree, {"one": DEMO}) == {}
    assert published_in(home.path, isolated_home / "elsewhere", {"one": DEMO}) == {}


def test_a_file_name_that_is_not_utf8_is_named_by_its_escaped_bytes(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    (repo.path / os.fsdecode(b"n\xffo.txt")).write_text(f"demo login: {DEMO}\n")
    repo.commit("odd name")
    found = published_in(repo.path, repo.path / "memory", {"one": DEMO})
    assert found == {"one": "n\\xffo.txt"}
    found["one"].encode("utf-8")  # printable anywhere


def test_claude_codes_own_folder_publishes_nothing(tmp_path: Path) -> None:
    # A repository keeping a copy of ~/.claude: the prompt history and a session's
    # transcript repeat a login the user pasted, which leaked there too; a README beside
    # the copy still publishes its demo login.
    memory = "claude/projects/-home-ann-shop/memory"
    repo = Repo(tmp_path / "dotfiles")
    repo.commit(
        "sync",
        {
            "claude/history.jsonl": '{"display": "login ops / Quay7Fen!x"}\n',
            "claude/projects/-home-ann-shop/a1b2.jsonl": '{"text": "ops/Heron2Vale"}\n',
            f"{memory}/MEMORY.md": "- [ops](ops.md)\n",
            f"{memory}/ops.md": "ops / Quay7Fen!x\n",
            "README.md": f"demo/{DEMO}\n",
        },
    )
    values = {"one": "Quay7Fen!x", "two": "Heron2Vale", "three": DEMO}
    assert published_in(repo.path, repo.path / memory, values) == {"three": "README.md"}
    # the copy at the repository's root: nothing in it publishes anything
    root = Repo(tmp_path / "claude-backup")
    root.commit(
        "sync",
        {
            "history.jsonl": '{"display": "login ops / Quay7Fen!x"}\n',
            "README.md": f"demo/{DEMO}\n",
            "projects/C--Users-ann-shop/memory/ops.md": "ops / Quay7Fen!x\n",
        },
    )
    tree = root.path / "projects/C--Users-ann-shop/memory"
    assert published_in(root.path, tree, values) == {}
    # a repository of Claude Code's projects folder alone: its transcripts publish nothing
    projects = Repo(tmp_path / "projects")
    projects.commit(
        "sync",
        {
            "-home-ann-shop/a1b2.jsonl": '{"text": "ops / Quay7Fen!x"}\n',
            "-home-ann-shop/memory/ops.md": "ops / Quay7Fen!x\n",
        },
    )
    tree = projects.path / "-home-ann-shop/memory"
    assert published_in(projects.path, tree, values) == {}
    # a project's own folder named "projects" is no copy of Claude Code's: its files publish
    project = Repo(tmp_path / "agency")
    project.commit(
        "clients",
        {"projects/shop/seed.py": f'USERS = [("demo", "{DEMO}")]\n'},
    )
    found = published_in(project.path, project.path / "projects/shop/memory", values)
    assert found == {"three": "projects/shop/seed.py"}


def test_a_folder_of_the_same_name_in_a_path_publishes_nothing(tmp_path: Path) -> None:
    # An access point's password that is also its owner's user name: a header file naming a
    # path through the owner's home folder holds it as a folder, not as the password; the
    # sketch that sets it publishes it.
    repo = Repo(tmp_path / "gauge")
    repo.commit(
        "firmware",
        {
            "a/Model.h": '#include "/Users/harbor2207/sdk/board.h"\n',
            "b/ota.ino": 'const char* OTA_PASS = "harbor2207";\n',
            "memory/a.md": "softap password harbor2207\n",
        },
    )
    found = published_in(repo.path, repo.path / "memory", {"one": "harbor2207"})
    assert found == {"one": "b/ota.ino"}


def test_an_agent_s_transcripts_and_memory_notes_publish_nothing(tmp_path: Path) -> None:
    # the thirty-fourth session's held-out judges: a session's transcript and another
    # workspace's daily note repeat a leaked value; they publish no default
    repo = Repo(tmp_path / "claw")
    repo.commit(
        "sessions",
        {
            "agents/main/sessions/5f1c.jsonl": f'{{"text": "the password is {DEMO}"}}\n',
            "main/sessions/0dd2.jsonl.reset.2026-02-26T11-54-44.560Z": '{"k": "Harbor!x9"}\n',
            "workspaces/alfred/memory/2026-03-26.md": "ops/Lantern#2207\n",
            "src/memory/seed.py": 'USERS = [("ops", "Tarn9Ridge")]\n',
        },
    )
    values = {"one": DEMO, "two": "Harbor!x9", "three": "Lantern#2207", "four": "Tarn9Ridge"}
    found = published_in(repo.path, repo.path / "workspace", values)
    assert found == {"four": "src/memory/seed.py"}


def test_a_test_script_that_calls_a_live_service_publishes_nothing(tmp_path: Path) -> None:
    # round 80's and 93's trees: a person's script checking a live account (a SOC server's
    # API, a gateway's sign-in) is named for a test; a suite's test in its folder, or a
    # script calling only the local machine, publishes its fixture
    repo = Repo(tmp_path / "ops")
    repo.commit(
        "scripts",
        {
            "src/wazuh_test.py": (
                'URL = "https://soc.fernhill.com.au:55000"\nPASSWORD = "Quay7Fen!x"\n'
            ),
            "test-proxies-v2.js": (
                "await fetch('https://relay.fernhill.io/login', {pass: 'Moor4Lark!'})\n"
            ),
            "tests/test_login.py": 'BASE = "https://staging.fernhill.io"\nPW = "Tarn9Ridge"\n',
            "test_local.py": 'BASE = "http://localhost:8000"\nPW = "Heron2Vale"\n',
            "memory/a.md": "notes\n",
        },
    )
    values = {"soc": "Quay7Fen!x", "relay": "Moor4Lark!", "suite": "Tarn9Ridge"}
    values["local"] = "Heron2Vale"
    found = published_in(repo.path, repo.path / "memory", values)
    assert found == {"suite": "tests/test_login.py", "local": "test_local.py"}


def test_a_short_password_is_published_in_a_urls_user_information(tmp_path: Path) -> None:
    # Five characters as a word of their own match too much (MIN_LENGTH); the same five
    # between a URL's ":" and "@" are that URL's password: a local test database's default
    # an example environment file hands out
    repo = Repo(tmp_path / "desk")
    repo.commit(
        "seed",
        {
            "server/.env.example": 'DATABASE_URL="postgresql://postgres:Kq7x1@localhost:5432/desk"\n',
            "docs/notes.md": "the Wq9z2 release and the Lp4m8 tag\n",
            "memory/a.md": "postgresql://postgres:Kq7x1@localhost:5432/desk_test\n",
        },
    )
    values = {"db": "Kq7x1", "bare": "Wq9z2", "none": "Zz8y7"}
    found = published_in(repo.path, repo.path / "memory", values)
    assert found == {"db": "server/.env.example"}


def test_an_end_to_end_suites_helpers_publish_their_logins(tmp_path: Path) -> None:
    # round 109's repository: the suite's users as constants in e2e/helpers/auth.ts; the
    # same constants in a service's own module publish nothing, nor does a spec that logs
    # into the live site, an encryption's "e2e" folder or Cypress's own secrets file
    repo = Repo(tmp_path / "desk")
    live = 'await page.goto("https://app.fernhill.io/login");\nawait page.fill("#pw", "Lantern#2207");\n'
    repo.commit(
        "seed",
        {
            "e2e/helpers/auth.ts": f'export const ADMIN = {{ password: "{DEMO}" }};\n',
            "src/lib/auth.ts": 'export const ADMIN = { password: "Harbor!x9" };\n',
            "e2e/login.spec.ts": live,
            "src/crypto/e2e/keys.ts": 'export const PASSPHRASE = "Tarn9Ridge";\n',
            "cypress.env.json": '{"password": "Quay7Harbor"}\n',
            "memory/a.md": f"admin / {DEMO}, ops / Harbor!x9\n",
        },
    )
    values = {"one": DEMO, "two": "Harbor!x9", "live": "Lantern#2207", "key": "Tarn9Ridge"}
    values["env"] = "Quay7Harbor"
    found = published_in(repo.path, repo.path / "memory", values)
    assert found == {"one": "e2e/helpers/auth.ts"}


def test_an_apps_own_suite_deeper_in_a_monorepo_publishes_its_logins(tmp_path: Path) -> None:
    # round 132's tuning half: a web app's suite under its own folder, beside its runner's
    # configuration, publishes its users' constants as a root suite does; an "e2e" folder
    # with no runner beside it (an encryption's keys and their unit test) publishes nothing
    repo = Repo(tmp_path / "desk")
    repo.commit(
        "seed",
        {
            "src/Fern.Web/e2e/users.ts": "export const E2E_PASSWORD = 'Fern!Passw0rd';\n",
            "src/Fern.Web/e2e/auth.spec.ts": "import { E2E_PASSWORD } from './users';\n",
            "src/Fern.Web/playwright.config.ts": "export default { testDir: './e2e' };\n",
            "src/crypto/e2e/keys.ts": 'export const PASSPHRASE = "Tarn9Ridge";\n',
            "src/crypto/e2e/keys.test.ts": "import { PASSPHRASE } from './keys';\n",
            "memory/a.md": "seeded users, fixed pw `Fern!Passw0rd`; passphrase Tarn9Ridge\n",
        },
    )
    values = {"suite": "Fern!Passw0rd", "key": "Tarn9Ridge"}
    found = published_in(repo.path, repo.path / "memory", values)
    assert found == {"suite": "src/Fern.Web/e2e/users.ts"}


def test_a_migration_publishes_no_credential_it_holds(tmp_path: Path) -> None:
    # the second reader's case against round 134's first tuning: a migration, a migration's
    # script or plan may hold the real database's credentials, so none of them publishes a
    # value as a seed file does
    repo = Repo(tmp_path / "desk")
    repo.commit(
        "seed",
        {
            "db/migrations/2024_05_grant.sql": "CREATE USER reporting WITH PASSWORD 'Quay7Harbor!x';\n",
            "scripts/migration/copy_users.py": 'PROD_DB_PASSWORD = "Lantern#2207"\n',
            "memory/a.md": "reporting / `Quay7Harbor!x`; prod db `Lantern#2207`\n",
        },
    )
    values = {"grant": "Quay7Harbor!x", "script": "Lantern#2207"}
    assert published_in(repo.path, repo.path / "memory", values) == {}


def test_a_short_value_after_another_scheme_is_no_urls_password(tmp_path: Path) -> None:
    # the second reader's case: "mailto:<value>@" in a README holds an address, no password
    repo = Repo(tmp_path / "desk")
    repo.commit(
        "seed",
        {"README.md": "Contact mailto:Kq7x1@fernhill.io\n", "memory/a.md": "router `Kq7x1`\n"},
    )
    assert published_in(repo.path, repo.path / "memory", {"one": "Kq7x1"}) == {}


def test_a_report_of_hard_coded_defaults_removed_publishes_nothing(tmp_path: Path) -> None:
    # round 138's tuning half: a QA report's table of fixes records that the code's defaults
    # were a real database login ("Hardcoded DB credentials ... Removed ... defaults"): the
    # value leaked there, no default was published; a note calling it a demo's default does
    repo = Repo(tmp_path / "desk")
    repo.commit(
        "fixes",
        {
            "qa_reports/FIXES_APPLIED.md": (
                "| # | Issue | File | Fix |\n|---|---|---|---|\n"
                '| 9 | Hardcoded DB credentials | `config.py` | Removed `"ops"` and'
                ' `"Quay7Harbor!x"` defaults. `DB_PASSWORD` defaults to `""`. |\n'
            ),
            "notes/kiosk.md": "The kiosk's default login: kiosk / Lantern#2207 (a demo).\n",
            "memory/a.md": "db: ops / `Quay7Harbor!x`; kiosk `Lantern#2207`\n",
        },
    )
    values = {"db": "Quay7Harbor!x", "kiosk": "Lantern#2207"}
    assert published_in(repo.path, repo.path / "memory", values) == {"kiosk": "notes/kiosk.md"}


LEAK_RECORDS = {
    "a test's word after the value": "| 9 | Hardcoded DB credentials | `config.py` | Removed"
    ' `"Quay7Harbor!x"` default; added a test for the unset variable |\n',
    "leak as a noun": 'Credential leak in config.py: removed the `"Quay7Harbor!x"` default.\n',
    "committed": 'The DB password was committed to config.py: removed the `"Quay7Harbor!x"` default.\n',
    "a login": 'Hardcoded DB login in config.py: removed the `"Quay7Harbor!x"` default.\n',
    "under its heading": '## Hardcoded DB credentials\n\nIn config.py:\n- removed the `"Quay7Harbor!x"` default\n',
}


@pytest.mark.parametrize("case", sorted(LEAK_RECORDS))
def test_a_leak_record_however_worded_publishes_nothing(tmp_path: Path, case: str) -> None:
    # the second reader's cases: each records the code's default as a real login that leaked
    repo = Repo(tmp_path / "desk")
    repo.commit("fixes", {"qa/FIXES.md": LEAK_RECORDS[case], "memory/a.md": "db `Quay7Harbor!x`\n"})
    assert published_in(repo.path, repo.path / "memory", {"db": "Quay7Harbor!x"}) == {}


@pytest.mark.parametrize(
    "note",
    [
        "The kiosk's default login is `Quay7Harbor!x`; no real secrets are exposed by it.\n",
        "Hardcoded credentials: the demo default `Quay7Harbor!x` for the kiosk.\n",
    ],
)
def test_a_denied_leak_or_a_demos_default_is_still_published(tmp_path: Path, note: str) -> None:
    repo = Repo(tmp_path / "desk")
    repo.commit("kiosk", {"qa/KIOSK.md": note, "memory/a.md": "kiosk `Quay7Harbor!x`\n"})
    found = published_in(repo.path, repo.path / "memory", {"kiosk": "Quay7Harbor!x"})
    assert found == {"kiosk": "qa/KIOSK.md"}
