"""A password whose own words make it a test or demo account's (``demo1234``, ``Test1234!``)
is a suggestion; a chosen password, or a test word's on a note that places its system in
production, stays a problem."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from tests.harness import findings, index, memory, write_tree


def _levels(tmp_path: Path, body: str) -> list[tuple[str, str]]:
    tree = write_tree(
        tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)}
    )
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    found = findings(tree, "secrets", options=options)
    return sorted((str(f.level), f.message.split("; ", 1)[-1]) for f in found)


def test_a_local_fixture_s_test_password_is_a_suggestion(tmp_path: Path) -> None:
    body = "Seeded users on localhost (all password: `Test1234!`):\n- admin@fernhill.test\n"
    [(level, said)] = _levels(tmp_path, body)
    assert level == "suggestion"
    assert said == "a test or demo account's password by its own words"


def test_a_demo_word_password_of_a_dev_login_is_a_suggestion(tmp_path: Path) -> None:
    body = "DB local has admin `showcase@dev.local` / `demo1234` for the fixtures.\n"
    assert [level for level, _ in _levels(tmp_path, body)] == ["suggestion"]


def test_a_chosen_password_stays_a_problem(tmp_path: Path) -> None:
    body = "Seeded users on localhost (all password: `Test-Kq7x!mZ2`):\n- admin@fernhill.test\n"
    assert [level for level, _ in _levels(tmp_path, body)] == ["problem"]


def test_a_test_word_password_in_production_stays_a_problem(tmp_path: Path) -> None:
    body = "Production admin login (all password: `Test1234!`) on the prod server.\n"
    assert [level for level, _ in _levels(tmp_path, body)] == ["problem"]


def test_a_test_word_password_ending_in_a_keyboard_run_is_a_suggestion(tmp_path: Path) -> None:
    # a skill's end-to-end example (the thirty-third round's tuning half)
    body = 'createTestUser({ email: "qa@fernhill.test", password: "Test123!@#" })\n'
    assert [level for level, _ in _levels(tmp_path, body)] == ["suggestion"]


def test_a_demo_key_a_guide_hands_out_under_a_projects_name_is_a_suggestion(
    tmp_path: Path,
) -> None:
    # an integrator's API guide in demo mode (batch 149's judge); a chosen key stays one
    body = "Other endpoints need the header `x-api-key: kiln-demo-2026` (demo mode).\n"
    assert [level for level, _ in _levels(tmp_path, body)] == ["suggestion"]
    chosen = "Other endpoints need the header `x-api-key: kiln-Qz7wK2xR-2026` (demo mode).\n"
    assert [level for level, _ in _levels(tmp_path, chosen)] == ["problem"]


def test_a_digit_run_the_note_gives_its_test_accounts_is_a_suggestion(tmp_path: Path) -> None:
    # "## 测试账号" over the list (batch 149's judge); the same run for the admin is one
    tested = "## 测试账号\n- 用户名: `tester1`-`tester5`, 密码: `123456`\n"
    assert [level for level, _ in _levels(tmp_path, tested)] == ["suggestion"]
    english = "### Test users\n\n- 用户名: `qa1`, 密码: `123456`\n"
    assert [level for level, _ in _levels(tmp_path, english)] == ["suggestion"]
    admin = "## 管理员\n- 用户名: `admin`, 密码: `123456`\n"
    assert [level for level, _ in _levels(tmp_path, admin)] == ["problem"]


def test_a_seeded_login_at_a_reserved_domain_is_a_suggestion(tmp_path: Path) -> None:
    # a local app's seeded admin (batch 155's judge): no one can own a .test address
    body = "- Seeded admin: `admin@fernshop.test` / `Harbor-Kq7w!2` (role: `admin`)\n"
    # the reason is the login's domain, not the password's words (it has none)
    reason = "a test account's login at a reserved or test-only domain"
    assert _levels(tmp_path, body) == [("suggestion", reason)]
    real = "- Seeded admin: `admin@fernshop.io` / `Harbor-Kq7w!2` (role: `admin`)\n"
    assert [level for level, _ in _levels(tmp_path, real)] == ["problem"]
    # a sample's fake account at example.com or test.com (batch 173's judge)
    sample = """  -d '{"email":"admin@test.com","password":"Harbor1234!"}' | jq -r '.token')\n"""
    assert [level for level, _ in _levels(tmp_path, sample)] == ["suggestion"]
    owned = """  -d '{"email":"admin@fernshop.com","password":"Harbor1234!"}' | jq -r '.token')\n"""
    assert [level for level, _ in _levels(tmp_path, owned)] == ["problem"]


def test_a_login_at_a_local_test_domain_is_a_suggestion(tmp_path: Path) -> None:
    # an end-to-end suite's seeded users (round 109's judges): a ".local" name that says
    # it is a test's; a device's login on the LAN (".local" alone) stays a problem
    body = "- Admin: `admin@e2etest.local` / `Harbor-Kq7w!2`, role `admin`\n"
    reason = "a test account's login at a reserved or test-only domain"
    assert _levels(tmp_path, body) == [("suggestion", reason)]
    for name in ("nas", "pentest", "latest", "contest", "testo"):  # no test's own name
        device = f"- Admin: `admin@{name}.local` / `Harbor-Kq7w!2`, role `admin`\n"
        assert [level for level, _ in _levels(tmp_path / name, device)] == ["problem"], name
    qa = "- Admin: `admin@qa-test.local` / `Harbor-Kq7w!2`, role `admin`\n"
    assert [level for level, _ in _levels(tmp_path / "qa", qa)] == ["suggestion"]


def test_a_random_string_before_a_test_word_is_no_projects_name(tmp_path: Path) -> None:
    # the second reader's case: drawn characters, then "-dev2024!", stay a problem
    body = "- Jenkins admin password: `Xk9mQ2vL7p-dev2024!`\n"
    assert [level for level, _ in _levels(tmp_path, body)] == ["problem"]


def test_a_login_sent_to_a_local_address_stays_a_test_one_in_a_note_on_production(
    tmp_path: Path,
) -> None:
    # a skill's check of the local stack in a guide that speaks of production elsewhere
    # (batch 173's judge): the request's address places the login, not the guide's words
    curl = (
        "curl -s -X POST http://localhost:3000/api/auth/login \\\n"
        """  -d '{"email":"admin@test.com","password":"Harbor1234!"}'\n"""
    )
    body = f"# Deploy to production\n\nAfter the production deploy, check the stack:\n\n{curl}"
    assert [level for level, _ in _levels(tmp_path, body)] == ["suggestion"]
    remote = curl.replace("http://localhost:3000", "https://fernshop.io")
    assert [level for level, _ in _levels(tmp_path, body.replace(curl, remote))] == ["problem"]


def test_a_sample_login_repeated_in_a_guides_code_stays_a_test_one(tmp_path: Path) -> None:
    # a skill's guide (batch 173's judge): "production-grade" says how well made, not where
    # it runs; the sample login sent to the local stack, then as an object's fields and a
    # browser test's steps, the reserved address on the line before the password
    guide = (
        "Production-grade integration with real endpoint testing.\n\n## Check\n\n"
        "curl -s -X POST http://localhost:3000/api/auth/login \\\n"
        """  -d '{"email":"admin@test.com","password":"Harbor1234!"}'\n\n"""
        + "## Integration test\n\n"
        + "\n".join(f"// step {n}: the suite's setup, line by line" for n in range(12))
        + "\nbody: JSON.stringify({\n  email: 'admin@test.com',\n  password: 'Harbor1234!',\n})\n"
        "await page.fill('[name=\"email\"]', 'admin@test.com');\n"
        "await page.fill('[name=\"password\"]', 'Harbor1234!');\n"
    )
    assert [level for level, _ in _levels(tmp_path, guide)] == ["suggestion"]
    placed = guide.replace("Production-grade integration", "The production integration")
    assert [level for level, _ in _levels(tmp_path, placed)] == ["problem"]


def test_an_address_or_a_local_host_elsewhere_does_not_make_a_password_a_test_one(
    tmp_path: Path,
) -> None:
    # a second reader's cases: a contact address on the line before, a local dev server
    # named before a production admin's password
    contact = "- Contact form sends to support@example.com\n- Admin password: `Harbor-Kq7w!2x`\n"
    assert [level for level, _ in _levels(tmp_path, contact)] == ["problem"]
    named = (
        "# Production server\n\nLocal dev runs on http://localhost:3000.\n"
        "Production admin password: `Test1234!`\n"
    )
    assert [level for level, _ in _levels(tmp_path, named)] == ["problem"]
    nearest = "- `ops@fernshop.io` / `Harbor-Kq7w!2x` (see user@example.com for the form)\n"
    assert [level for level, _ in _levels(tmp_path, nearest)] == ["problem"]


def test_a_seed_line_s_role_word_password_and_a_default_digit_run_are_suggestions(
    tmp_path: Path,
) -> None:
    # round 127's false problems (a tuning half): a local app's seed login with its role's
    # word for a password, and `123456` under a heading naming defaults; a chosen password
    # on a seed line, and the same run under an administrator's heading, stay problems
    seeded = "- Seed: admin@fernventory.com / admin123\n"
    assert _levels(tmp_path, seeded) == [
        ("suggestion", "the app's seeded account, its role's word for a password")
    ]
    chosen = "- Seed: admin@fernventory.com / Harbor-Kq7w!2\n"
    assert [level for level, _ in _levels(tmp_path, chosen)] == ["problem"]
    defaults = "## 默认信息\n- 密码：`123456`\n"
    assert _levels(tmp_path, defaults) == [
        ("suggestion", "a run of digits the note gives as a default")
    ]
    admin = "## 管理员信息\n- 密码：`123456`\n"
    assert [level for level, _ in _levels(tmp_path, admin)] == ["problem"]


def test_the_code_s_fallback_of_a_role_s_word_is_a_suggestion(tmp_path: Path) -> None:
    # round 147's first look (a tuning half): a note quoting the code's fallback for an unset
    # variable, a role's word for a password; a chosen password as the fallback, or a role's
    # word given as the variable's value itself, stay problems
    reason = "the code's fallback when its variable is unset, its role's word for a password"
    fallbacks = (
        "- `ADMIN_PASS=os.environ.get('ADMIN_PASSWORD','admin123')` (default is admin123)\n",
        "- `DB_PASS=os.getenv('DB_PASSWORD','admin123')` in settings.py\n",
    )
    for n, body in enumerate(fallbacks):
        assert _levels(tmp_path / str(n), body) == [("suggestion", reason)], body
    chosen = "- `ADMIN_PASS=os.environ.get('ADMIN_PASSWORD','Harbor-Kq7w!2')`\n"
    assert [level for level, _ in _levels(tmp_path / "chosen", chosen)] == ["problem"]
    given = "- `ADMIN_PASSWORD=admin123` on the shop's server\n"
    assert [level for level, _ in _levels(tmp_path / "given", given)] == ["problem"]


def test_a_thing_s_default_password_between_its_words_is_a_default(tmp_path: Path) -> None:
    # round 145 (first look): "默认侧边栏密码" (the sidebar's default password), a word
    # between "default" and "password"; a default named past the clause keeps it a problem
    between = "### 注意事项\n- 默认侧边栏密码：`1234`（建议改强密码）\n"
    assert _levels(tmp_path, between) == [
        ("suggestion", "a run of digits the note gives as a default")
    ]
    # a second reader's (session 64): a user's or a device's default password, whose words
    # hold 用 and 设 without 启用 or 设置
    for n, body in enumerate(("- 默认用户密码：`123456`\n", "- 默认设备密码：`123456`\n")):
        assert _levels(tmp_path / f"thing{n}", body) == [
            ("suggestion", "a run of digits the note gives as a default")
        ], body
    backend = "- 默认后台密码：`123456`\n"
    assert _levels(tmp_path, backend) == [
        ("suggestion", "a run of digits the note gives as a default")
    ]
    # the second reader's: "default" said of something else on the line (a login's redirect,
    # a setting turned on), negated, or starting another item, names no default password
    others = (
        "## 管理员\n- 管理员密码：`123456`（默认开启双重登录）\n",
        "## 管理员\n- 管理员密码：`123456`，默认跳转登录页\n",
        "## 服务器\n- 默认禁止root登录；root密码：`123456`\n",
        "## 服务器\n- 默认端口和数据库密码：`123456`\n",
        "## 服务器\n- 默认不是这个密码，现在的密码：`123456`\n",
        # a second reader's (session 64): no password, a requirement, a setting turned on,
        # or a default already changed
        "## 服务器\n- 默认没有密码，root密码：`123456`\n",
        "## 服务器\n- 默认无须密码，root密码：`123456`\n",
        "## 服务器\n- 默认要求修改密码；root密码：`123456`\n",
        "## 服务器\n- 默认启用密码登录，root密码：`123456`\n",
        "## 服务器\n- 已修改默认管理员密码，新密码：`123456`\n",
        "## 服务器\n- root密码：`123456`（默认设置的密码已改）\n",
        "## 服务器\n- root密码：`123456`（默认密码已修改）\n",
    )
    for n, note in enumerate(others):
        assert [level for level, _ in _levels(tmp_path / str(n), note)] == ["problem"], note


def test_a_default_named_only_in_passing_keeps_a_digit_run_a_problem(tmp_path: Path) -> None:
    # the second reader's: "default" said of something else, or negated, names no default
    negated = "## 管理员\n- 密码：`123456` (not the default)\n"
    assert [level for level, _ in _levels(tmp_path, negated)] == ["problem"]
    region = "## Server (default region eu-west)\n- password: `123456`\n"
    assert [level for level, _ in _levels(tmp_path, region)] == ["problem"]
    labelled = "- default password: `123456`\n"
    drawer = "- Default asset drawer password: `1234` (you can change this later)\n"
    assert [level for level, _ in _levels(tmp_path, drawer)] == ["suggestion"]
    assert [level for level, _ in _levels(tmp_path, labelled)] == ["suggestion"]


def test_a_login_to_a_local_test_instance_at_a_loopback_address_is_a_suggestion(
    tmp_path: Path,
) -> None:
    # round 143 (first look): a Docker test instance's admin login under its heading, the
    # section's address localhost; a local API server's key under "(Local)" (look-alikes)
    docker = (
        "## Docker test instance\n\nSpun up with `docker compose up -d`.\n"
        "- URL: http://localhost:5001\n- Admin credentials: username=`admin`, password=`fernpass7`\n"
    )
    [(level, said)] = _levels(tmp_path / "docker", docker)
    assert (level, said) == (
        "suggestion",
        "a login to a local test instance, at a loopback address only",
    )
    local = (
        "### Development Environment (Local)\n- **Server**: http://127.0.0.1:8001\n"
        "- **Local API Key**: `Rq5IVGj44mXk2Lp9Tn8Wc3Vb7Hd1SIbA`\n"
    )
    assert [level for level, _ in _levels(tmp_path / "local", local)] == ["suggestion"]


def test_a_service_s_key_or_a_remote_address_in_a_local_section_stays_a_problem(
    tmp_path: Path,
) -> None:
    # the same sections holding what opens more than the local server
    remote = (
        "## Docker test instance\n- URL: http://localhost:5001\n- Backups: https://fern.io/b\n"
        "- Admin credentials: username=`admin`, password=`fernpass7`\n"
    )
    vendor = (
        "## Local dev environment\n- URL: http://localhost:3000\n"
        "- Local OpenAI key: `sk-proj-Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yq5Tn8Wc3Vb7Hd1Rq5I`\n"
    )
    service = (
        "## Local dev environment\n- URL: http://localhost:3000\n"
        "- MAILGUN_API_KEY: `3f2a9c7e1b4d8f6a0c5e2b9d7f1a3c8e`\n"
    )
    production = (
        "## Production server\n- URL: http://localhost:5001\n"
        "- Admin credentials: username=`admin`, password=`fernpass7`\n"
    )
    # the second reader's: a remote database's URL on the value's line, another service's
    # login, a remote site named after the value
    database = (
        "## Local dev environment\n- App: http://localhost:3000\n"
        "- DB login: `postgresql://fern:Qx7mLp2Rv9Tz@fern-db.cluster-c9x.us-east-1.rds"
        ".amazonaws.com:5432/fern`\n"
    )
    relay = (
        "## Local setup\n- App: http://localhost:3000\n"
        "- Gmail app password for the SMTP relay: `qxzmlprvtzkwsabc`\n"
    )
    after = (
        "## Docker test instance\n- URL: http://localhost:5001\n"
        "- Admin credentials: username=`admin`, password=`fernpass7`\n"
        "- Mirrors the live site at https://fern.io\n"
    )
    cases = [("remote", remote), ("vendor", vendor), ("service", service)]
    cases += [("database", database), ("relay", relay), ("after", after)]
    for name, body in cases:
        assert [level for level, _ in _levels(tmp_path / name, body)] == ["problem"], name
    assert [level for level, _ in _levels(tmp_path / "production", production)] == ["problem"]


# Round 143's after-look: a local dev server's key, labelled under one heading and sent to
# 127.0.0.1 in commands under others; a seeded customer's link tokens on localhost
# (round 142). Look-alikes.
LOCAL_KEY = "Qm7RvT2xK9pLw4Zc8Hn3Fb6Yd1Sj5Ge0"
LOCAL_SERVER = (
    "## Environments\n\n### Development (Local)\n- **Server**: http://127.0.0.1:8001\n"
    f"- **Local API Key**: `{LOCAL_KEY}`\n\n### Local example requests\n\n```bash\n"
    f'curl -X GET "http://127.0.0.1:8001/health" \\\n  -H "X-API-Key: {LOCAL_KEY}"\n```\n'
)


def test_a_key_sent_only_to_a_server_on_this_machine_is_a_suggestion(tmp_path: Path) -> None:
    [(level, said)] = _levels(tmp_path, LOCAL_SERVER)
    assert (level, said) == (
        "suggestion",
        "used only with a server on this machine, at a loopback address",
    )
    links = (
        "#### One token per customer\n```\nTOKEN: 9c41d0e7a2b85f36c1d4e9a07b3f28c6\n\n"
        "Orders:\nhttp://localhost:3000/orders?token=9c41d0e7a2b85f36c1d4e9a07b3f28c6\n```\n"
    )
    assert [level for level, _ in _levels(tmp_path / "links", links)] == ["suggestion"]
    # round 144 (first look): a skill's rules restate the local task API's key under a
    # heading that names no address
    restated = LOCAL_SERVER + f"\n## Important rules\n- Always send `X-API-Key: {LOCAL_KEY}`\n"
    assert [level for level, _ in _levels(tmp_path / "restated", restated)] == ["suggestion"]
    # round 144: a dashboard's token cut at the line's end (a run of hex digits is no
    # password a person chose)
    cut = "### Dashboard\n- Open http://127.0.0.1:18789/ #token =9c41d0e7a2b85f3\n"
    assert [level for level, _ in _levels(tmp_path / "cut", cut)] == ["suggestion"]


def test_a_local_key_that_a_remote_server_or_an_issuer_takes_stays_a_problem(
    tmp_path: Path,
) -> None:
    # the same key sent to a deployed server too; a key in a local section never sent
    # there (another service's, for all the note says); an issuer's token sent to a local
    # proxy opens its issuer's service
    deployed = LOCAL_SERVER + (
        f'\n### Staging\n\n```bash\ncurl https://fern-api.fly.dev/health -H "X-API-Key: {LOCAL_KEY}"\n```\n'
    )
    labelled = (
        "### Development (Local)\n- **Server**: http://127.0.0.1:8001\n"
        f"- **API Key**: `{LOCAL_KEY}`\n"
    )
    issuer = (
        "### Local proxy\n```bash\ncurl http://localhost:4000/v1/models \\\n"
        '  -H "Authorization: Bearer sk-proj-Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yq5Tn8Wc3Vb7Hd1Rq5I"\n```\n'
    )
    # a password a person chose, beside a local app's address (round 142's judges: right;
    # people use one on more systems than the app)
    chosen = "## Apps running\n- Fern Ground: localhost:3000 (password: Harborfern2025)\n"
    # "localhost" said of where users are is no address the value is sent to
    word = f"## Seeded users\nAll on localhost, password: `{LOCAL_KEY}`\n"
    cases = [("deployed", deployed), ("labelled", labelled), ("issuer", issuer), ("word", word)]
    cases.append(("chosen", chosen))
    # the second reader's: an issuer's key no prefix list names (Groq's), sent to a local
    # proxy; a remote server after a heading-less log longer than a section's reach; a
    # production note, a tunnel, a service's redirect to a local callback, a staging host
    # named localhost.<domain>; digits a person chose
    groq = "gsk_" + "Kq7Xm2Lp9Rt4Vn8Bc3Hd6Wz1Yq5Tn8Wc3Vb7Hd1Rq5I8mZp2sLe"
    proxy = (
        "### LiteLLM proxy\n```bash\ncurl http://localhost:4000/v1/models \\\n"
        f'  -H "Authorization: Bearer {groq}"\n```\n'
    )
    sent = f'curl http://127.0.0.1:8001/health -H "X-API-Key: {LOCAL_KEY}"\n'
    far = "- 10:02 build green\n" * 150 + sent + sent.replace("127.0.0.1:8001", "fern-api.fly.dev")
    production = "## Production\n" + sent
    tunnel = "### Admin API\n`kubectl -n ops port-forward svc/admin-api 8080:80`\n" + sent.replace(
        "127.0.0.1:8001", "localhost:8080"
    )
    callback = (
        "### Sign-in\nRedirected to "
        f"http://localhost:8888/callback?access_token={LOCAL_KEY} after consent\n"
    )
    staging = sent.replace("http://127.0.0.1:8001", "https://localhost.fern-staging.com")
    digits = "## Apps running\n- Fern Ground: http://localhost:3000 (password: 482913571204)\n"
    cases += [("proxy", proxy), ("far", far), ("production", production), ("tunnel", tunnel)]
    cases += [("callback", callback), ("staging", staging), ("digits", digits)]
    for name, body in cases:
        assert [level for level, _ in _levels(tmp_path / name, body)] == ["problem"], name
