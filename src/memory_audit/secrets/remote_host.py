"""The server a note binds a published value to, when it is not the developer's own machine.

A value the project's repository publishes is a suggestion because a published password
is mostly a local default: a compose file's database password, a seed script's login, used
against ``localhost``. A note that writes the value beside the address of another machine
says otherwise: an SSH login under ``**Host:** `192.168.7.21```, a database password in the
block that names its hosted project (``https://<ref>.supabase.co``). That value opens a
system others can reach, and its publication is one more leak of it, not a default (the
held-out judges of the twenty-seventh and twenty-eighth rounds: a GPU server's login an
archived plan repeats, a hosted database's password a guide repeats).

What counts as the note binding the value: its paragraph (the lines around it up to a
blank line or a heading, a few each way) names such a host, and no local one: an address
given as a host's (after a label, ``@`` or ``://``), or a host of a service that hosts
databases. A public site's URL does not count: a paragraph of local settings names the
third-party APIs the app calls (``OPENAI_BASE_URL=https://api.openai.com/v1``) as often as
the site the value opens. A paragraph naming ``localhost``, a loopback address or a
container's service (``@db:5432``) speaks of the developer's machine, whatever else it
names, as does a value's line naming development; one setting its environment to a
vendor's test mode (``PAYFAST_ENV=sandbox``) or naming the vendor's sandbox host holds that
test mode's values, whatever machine the app runs on.
"""

from __future__ import annotations

import ipaddress
import re

from memory_audit.secrets.published import HEADING, note_lines

# Lines read each way from the value's line, within its paragraph.
REACH = 6
# An IPv4 address given as a host's: after a label naming one (in a variable's name too:
# ``DB_HOST=``, ``ansible_host=``; in Chinese, Japanese or Korean), ``@`` or ``://`` on its
# line (``Host: 192.168.7.21``, ``ssh ops@10.0.0.4``, ``http://100.88.12.7:9090``); a
# version (``AssemblyVersion 1.0.0.0``, ``server version 10.11.6.1``) or a section's number
# is none, nor is a network's (``/8``)
IPV4 = re.compile(
    r"(?i:(?:(?<![a-z0-9])(?:host|hostname|pghost|server|ip|address|addr|vps|node|box|machine"
    r"|ssh|endpoint)(?![a-z])|服务器|服務器|主机|主機|地址|公网|内网|サーバー?|ホスト|서버|호스트)"
    r"[^\n]{0,40}?|@|://)"
    r"(?<![\w.])(?<!version )(?<!kernel )(?<!build )"
    r"((?:\d{1,3}\.){3}\d{1,3})(?!\w|\.\d|/\d)"
)
# Development named on the value's line (``Local DB password ...``, ``dev login``): the
# developer's machine. A word of a path (``/home/dev/``, ``/usr/local/bin``), a compound
# (``dev-ops``), a local account (``Local Administrator``), staging or a sandbox (servers of
# their own on the internet) are none.
DEVELOPMENT_HERE = re.compile(
    r"(?i:(?<![\w./@-])(?:dev|development|local(?![ -]?admin)|localhost)(?![\w/-]))"
    r"|开发|開發|開発|本地|ローカル"
)
# Services that host a project's database on the internet, and cloud machines: a host under
# one of them is reachable by anyone holding the password (a pooler, a hosted Postgres, a
# cluster, an EC2 machine). An app's or a bucket's host (``*.herokuapp.com``,
# ``*.s3.amazonaws.com``) is a public site's.
HOSTED = re.compile(
    r"(?i:(?<![\w.-])((?:[a-z0-9-]+\.)+"
    r"(?:supabase\.co|supabase\.com|neon\.tech|(?:rds|cache|redshift|docdb)\.amazonaws\.com"
    r"|compute(?:-\d)?\.amazonaws\.com|database\.azure\.com|database\.windows\.net"
    r"|mongodb\.net|psdb\.cloud|render\.com|rlwy\.net|upstash\.io|aivencloud\.com"
    r"|cockroachlabs\.cloud|db\.ondigitalocean\.com|timescale\.com|redis-cloud\.com"
    r"|redislabs\.com|ts\.net))(?![\w-]))"
)
# Hosts of those services that run no system of the owner's: documentation, a code host
NO_SYSTEM_HOST = re.compile(r"(?i:^(?:docs?|developers?|learn|support|help|status|dev)\.)")
# A host whose name says it is a stand-in: ``test-project.supabase.co``, ``your-ref.neon.tech``,
# ``yourapp.supabase.co``
STAND_IN_HOST = re.compile(
    r"(?i:^(?:[\w-]*[-_])?(?:(?:test|example|sample|demo|xxx+|placeholder|project-?ref)"
    r"(?![a-z0-9])|your))"
)
# The developer's own machine, or a container beside it: ``localhost``, a loopback address,
# Docker's host, ``*.local``, a URL's unspecified host (``http://0.0.0.0:3000``) or a compose
# service's (``postgres://app:pw@db:5432``). An SSH tunnel's far end
# (``-L 5432:localhost:5432``) is the server's own, and a server binding ``0.0.0.0`` a server.
LOCAL = re.compile(
    r"(?i:(?<![\w.-])(?<!\d:)(?:localhost|host\.docker\.internal)(?![\w-])"
    r"|(?<![\w:])::1(?![\w:])|(?<![\w.])(?<!\d:)127\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\w.])"
    r"|://0\.0\.0\.0(?![\w.])|(?<![\w.-])[a-z0-9-]+\.(?:local|localhost|test)(?![\w.-])"
    r"|://[^\s/@]+@[a-z][a-z0-9_-]*:\d{2,5}\b)"
)
# A paragraph setting its environment to a vendor's test mode (``PAYFAST_ENV=sandbox``,
# ``mode: test``), or naming the vendor's sandbox host in a URL or as a subdomain
# (``https://sandbox.<vendor>.co.za``, ``api.sandbox.<vendor>.com``; a project's own
# ``<app>-sandbox-db`` is a server of its own): its values are that test mode's, whatever
# machine the app runs on
TEST_MODE = re.compile(
    r"(?i:(?<![\w-])[\w-]{0,40}(?:env|mode|environment)[ \t]*[=:][ \t]*[\"']?"
    r"(?:sandbox|test|testing)(?![\w-])"
    r"|(?:://|@|[a-z0-9]\.)sandbox\.[a-z0-9-]+\.[a-z]{2,})"
)
# Addresses of no server of the note's: the examples' stand-in, public DNS resolvers
NOT_SERVERS = frozenset({"1.2.3.4", "1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4", "9.9.9.9"})
# Docker's bridge networks take their addresses from 172.16.0.0/12: a container beside the
# developer's machine, as often as a LAN's server
CONTAINER_NETWORK = ipaddress.ip_network("172.16.0.0/12")
# The owner's own networks: a LAN's, and Tailscale's addresses (not global, but a machine)
OWN_NETWORKS = tuple(
    ipaddress.ip_network(network) for network in ("10.0.0.0/8", "192.168.0.0/16", "100.64.0.0/10")
)


def remote_host(text: str, line: int) -> str | None:
    """The host the value on ``line`` (1-based) of a note is bound to, when it is another
    machine than the developer's: named in the value's paragraph, with no local host named
    there and no development named on the value's line. None otherwise."""
    lines = note_lines(text)
    if not 0 < line <= len(lines) or DEVELOPMENT_HERE.search(lines[line - 1]) is not None:
        return None
    paragraph = "\n".join(lines[slice(*_paragraph(lines, line - 1))])
    if LOCAL.search(paragraph) is not None or TEST_MODE.search(paragraph) is not None:
        return None
    for found in IPV4.finditer(paragraph):
        if _a_server(found.group(1)):
            return found.group(1)
    for found in HOSTED.finditer(paragraph):
        host = found.group(1)
        if STAND_IN_HOST.match(host) is None and NO_SYSTEM_HOST.match(host) is None:
            return host
    return None


def _paragraph(lines: list[str], at: int) -> tuple[int, int]:
    """The slice of lines around ``at`` up to a blank line or a heading, at most
    :data:`REACH` lines each way (a heading above is the paragraph's edge, not in it)."""
    start = at
    while start > max(0, at - REACH) and _joined(lines[start - 1]):
        start -= 1
    end = at + 1
    while end < min(len(lines), at + REACH + 1) and _joined(lines[end]):
        end += 1
    return start, end


def _joined(line: str) -> bool:
    return bool(line.strip()) and HEADING.match(line) is None


def _a_server(address: str) -> bool:
    """An IPv4 address a server may have: a LAN's (10/8, 192.168/16), Tailscale's (100.64/10)
    or the internet's; not loopback, unspecified, link-local, multicast, a netmask, a
    network's or broadcast's (``.0``, ``.255``), documentation's (192.0.2/24 ...), the
    examples' stand-in, a public resolver or a container network's."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:  # 999.1.1.1: a version or a count, no address
        return False
    if address in NOT_SERVERS or ip in CONTAINER_NETWORK or ip.is_multicast:
        return False
    if address.endswith((".0", ".255")):
        return False
    return ip.is_global or any(ip in network for network in OWN_NETWORKS)
