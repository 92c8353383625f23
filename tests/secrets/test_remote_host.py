"""The server a note binds a published value to: another machine than the developer's (a
LAN's, the internet's, a hosted database's) in the value's paragraph, and no local one."""

from __future__ import annotations

import pytest

from memory_audit.secrets.remote_host import remote_host

VALUE = "Bluefin42!x"  # a look-alike password


def _at_value(text: str) -> str | None:
    """The host bound to the one line of ``text`` holding :data:`VALUE`."""
    [line] = [n for n, row in enumerate(text.split("\n"), 1) if VALUE in row]
    return remote_host(text, line)


@pytest.mark.parametrize(
    ("text", "host"),
    [
        # a LAN server's login under its host's line (an SSH login a plan document repeats)
        (
            f"## Hardware\n\n- **Host:** `192.168.7.21` (gpu-box)\n- **User/Pass:** `ops` / `{VALUE}`\n",
            "192.168.7.21",
        ),
        # a hosted database's password in the block naming its project
        (
            "### Env\n```bash\n# Backend\nPROJECT_URL=https://qwrtzuiopasdfghj.supabase.co\n"
            f"DB_PASSWORD={VALUE}\n\nAPI_URL=http://localhost:8000\n```\n",
            "qwrtzuiopasdfghj.supabase.co",
        ),
        # a pooler URL carrying the password on its own line
        (
            f"postgresql://postgres.ref:{VALUE}@aws-0-eu-west-1.pooler.supabase.com:6543/db",
            "aws-0-eu-west-1.pooler.supabase.com",
        ),
        # an API's base URL at an address, a sentence ending after the address
        (
            f"### Gateway\n- Base: `http://5.189.160.21:9090`\n- Auth: `X-API-Key: {VALUE}`",
            "5.189.160.21",
        ),
        (f"VPS at 5.189.160.21. Root / {VALUE}", "5.189.160.21"),
        # a file named for a sandbox is no vendor's sandbox host
        (f"- Host: 10.0.0.4\n- sandbox.config.ts holds it\n- admin / {VALUE}", "10.0.0.4"),
        # a public IPv6 address ending in ::1 is no loopback
        (f"- Host: 10.0.0.4 (v6 2a01:4f8:c2c::1)\n- admin / {VALUE}", "10.0.0.4"),
        # a project's own sandbox environment on a hosted database is a server of its own
        (
            f"postgresql://app:{VALUE}@shop-sandbox-db.x4k2q.us-east-1.rds.amazonaws.com:5432/x",
            "shop-sandbox-db.x4k2q.us-east-1.rds.amazonaws.com",
        ),
        # a host in a variable's name or in another language, a label further back
        (f"```\nDB_HOST=45.76.12.8\nDB_PASSWORD={VALUE}\n```", "45.76.12.8"),
        (f"gpu1 ansible_host=45.76.12.8 ansible_password={VALUE}", "45.76.12.8"),
        (f"服务器：45.76.12.8\n密码：{VALUE}", "45.76.12.8"),
        (f"Server (Hetzner, Falkenstein, CX21): 45.76.12.8\nroot / {VALUE}", "45.76.12.8"),
        # a path's or a compound's word, a local account, staging: no development machine
        (f"sshpass -p '{VALUE}' ssh root@45.76.12.8 'uptime' 2>/dev/null", "45.76.12.8"),
        (f"Host 45.76.12.8\nPGPASSWORD={VALUE} /usr/local/bin/psql -h x", "45.76.12.8"),
        (f"Host 45.76.12.8\nroot / {VALUE} (Local Administrator)", "45.76.12.8"),
        (f"Staging server 45.76.12.8: root / {VALUE}", "45.76.12.8"),
        # a server binding 0.0.0.0, an SSH tunnel's far end, a mail address with a port
        (f"VPS: 45.76.12.8, app binds 0.0.0.0:3000\nroot / {VALUE}", "45.76.12.8"),
        (f"ssh -L 5432:localhost:5432 root@45.76.12.8\npassword {VALUE}", "45.76.12.8"),
        (f"MAIL_FROM=alerts@mailer:25\nHost 45.76.12.8 root / {VALUE}", "45.76.12.8"),
        # a Tailscale address and a public one
        (f"ssh ops@100.88.12.7 (password {VALUE})", "100.88.12.7"),
        (f"VPS 5.189.160.21, root / {VALUE}", "5.189.160.21"),
    ],
)
def test_another_machine_in_the_values_paragraph_binds_it(text: str, host: str) -> None:
    assert _at_value(text) == host


@pytest.mark.parametrize(
    "text",
    [
        # the developer's own machine named in the paragraph, whatever else it names
        f"DB at 192.168.1.20 or localhost:5432\npassword: {VALUE}",
        f"- API: http://api.shop.test\n- Host: 10.0.0.4 (staging.local)\n- pass {VALUE}",
        # a host in another paragraph, or beyond a heading
        f"Server: 192.168.7.21\n\nLocal seed login: admin / {VALUE}",
        f"Server: 192.168.7.21\n## Seeds\nadmin / {VALUE}",
        # no server's address: loopback, documentation's, the examples' stand-in, a
        # container network's, a netmask, multicast, a version
        f"bind 127.0.0.1; admin / {VALUE}",
        f"e.g. 192.0.2.10 or 203.0.113.5: admin / {VALUE}",
        f"e.g. 1.2.3.4: admin / {VALUE}",
        f"db container 172.18.0.3: admin / {VALUE}",
        f"netmask 255.255.255.0, 0.0.0.0/0: admin / {VALUE}",
        f"mDNS 224.0.0.251: admin / {VALUE}",
        f"release v1.2.3.4 (build 4.1.2.1000): admin / {VALUE}",
        # a vendor's test mode set in the paragraph: its values are the test mode's
        f"```\nPAY_PASSPHRASE={VALUE}\nPAY_ENV=sandbox\nAPP_URL=http://192.168.0.168:3001\n```",
        f"mode: test\nwebhook secret {VALUE} (app on 10.0.0.8)",
        f"Passphrase: {VALUE}\nSandbox URL: https://sandbox.fernpay.co.za/eng/process",
        f"Passphrase: {VALUE}\nhttps://api.sandbox.fernpay.com/v2",
        # a hosted service's stand-in host
        f'SUPABASE_URL="https://test-project.supabase.co"\nSECRET_KEY="{VALUE}"',
        f"DATABASE_URL=postgres://u:{VALUE}@your-project-ref.neon.tech/db",
        # a public site's URL: a third-party API the app calls as often as the site the value
        # opens; a hosted service's documentation or code host
        f"```\nPOSTGRES_PASSWORD={VALUE}\nOPENAI_BASE_URL=https://api.openai.com/v1\n```",
        f"- Frontend: https://shop-fern.vercel.app\n- DB password {VALUE}",
        f"See https://docs.render.com/deploys\nadmin / {VALUE}",
        f"Repo: https://dev.azure.com/fern/shop\nadmin / {VALUE}",
        f"Base https://yourapp.supabase.co\nadmin / {VALUE}",
        # an address that is no host's: a version, a section, a network, a resolver
        f"AssemblyVersion 1.0.0.0 and Chrome 120.0.0.1: admin / {VALUE}",
        f"see section 3.2.1.4; admin / {VALUE}",
        f"the firewall allows 10.0.0.0/8 and host 10.0.0.0/8; admin / {VALUE}",
        f"upstream DNS server 1.1.1.1 and 8.8.8.8; admin / {VALUE}",
        # versions after a label, an app's or a bucket's host
        f"server version 10.11.6.1\nroot / {VALUE}",
        f"box: kernel 6.5.0.1\nroot / {VALUE}",
        f"App: https://fern-shop.herokuapp.com\nadmin / {VALUE}",
        f"Bucket fern.s3.amazonaws.com\nadmin / {VALUE}",
        # the developer's machine: a loopback address or a compose service beside a server,
        # development on the value's line
        f"App at http://127.0.0.1:8000, VPS 5.189.160.21\nadmin / {VALUE}",
        f"DATABASE_URL=postgres://app:{VALUE}@db:5432/app\nVPS 5.189.160.21",
        f"Host: 5.189.160.21\n- Local DB password {VALUE}",
        # a hosted service's name without a host
        f"Supabase DB password: {VALUE}",
    ],
)
def test_no_other_machine_or_a_local_one_binds_nothing(text: str) -> None:
    assert _at_value(text) is None


def test_a_line_outside_the_note_binds_nothing() -> None:
    assert remote_host("Host: 192.168.7.21", 0) is None
    assert remote_host("Host: 192.168.7.21", 2) is None
