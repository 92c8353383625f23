"""The server a note binds a published value to, when it is not the developer's own machine.

A value the project's repository publishes is a suggestion because a published password
is mostly a local default: a compose file's database password, a seed script's login, used
against ``localhost``. A note that writes the value beside the address of another machine
says otherwise: an SSH login under ``**Host:** `192.168.3.10```, a database password in the
block that names its hosted project (``https://<ref>.supabase.co``). That value opens a
system others can reach, and its publication is one more leak of it, not a default (the
held-out judges of the twenty-seventh and twenty-eighth rounds: a GPU server's login an
archived plan repeats, a hosted database's password a guide repeats).

What counts as the note binding the value: its paragraph (the lines around it up to a
blank line or a heading, a few each way) names such a host, and no local one. A paragraph
naming ``localhost`` speaks of the developer's machine, whatever else it names; one setting
its environment to a vendor's test mode (``PAYFAST_ENV=sandbox``) holds that test mode's
values, whatever machine the app runs on.
"""

from __future__ import annotations

import ipaddress
import re

from memory_audit.secrets.published import HEADING

# Lines read each way from the value's line, within its paragraph.
REACH = 6
IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]|\.\d)")
# Services that host a project's database or backend on the internet: a host under one of
# them is reachable by anyone holding the password (a pooler, a hosted Postgres, a cluster).
HOSTED = re.compile(
    r"(?i:(?<![\w.-])((?:[a-z0-9-]+\.)+"
    r"(?:supabase\.co|supabase\.com|neon\.tech|amazonaws\.com|azure\.com|windows\.net"
    r"|mongodb\.net|psdb\.cloud|render\.com|railway\.app|rlwy\.net|herokuapp\.com"
    r"|upstash\.io|aivencloud\.com|cockroachlabs\.cloud|ondigitalocean\.com|timescale\.com"
    r"|redis-cloud\.com|redislabs\.com|ts\.net))(?![\w-]))"
)
# A URL's host on the internet (``https://edge-api.<domain>.uk``: the base of the API the
# value opens), a name ending in a top-level domain of letters
SITE = re.compile(r"(?i:\b(?:https?|wss?)://((?:[a-z0-9-]+\.)+[a-z]{2,24})(?![\w-]))")
# Sites that run no system of the owner's: an example's domain, code and package hosts,
# documentation (``docs.<vendor>.com``), answers
NO_SYSTEM_SITE = re.compile(
    r"(?i:(?:^|\.)(?:example\.(?:com|org|net)|[a-z0-9-]+\.(?:example|invalid)"
    r"|github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|npmjs\.com|pypi\.org"
    r"|stackoverflow\.com|wikipedia\.org|google\.com|youtube\.com|medium\.com)$"
    r"|^(?:docs?|developers?|dev-docs|learn|support|help|www\.w3)\.)"
)
# A host whose name says it is a stand-in: ``test-project.supabase.co``, ``your-ref.neon.tech``
STAND_IN_HOST = re.compile(
    r"(?i:^(?:[\w-]*[-_])?(?:test|example|sample|demo|your|xxx+|placeholder|project-?ref)\b)"
)
# The developer's own machine, or a container beside it
LOCAL = re.compile(
    r"(?i:(?<![\w.-])(?:localhost|host\.docker\.internal)(?![\w-])|\[?::1\]?(?!\w)"
    r"|(?<![\w.-])[a-z0-9-]+\.(?:local|localhost|test)(?![\w.-]))"
)
# A paragraph setting its environment to a vendor's test mode (``PAYFAST_ENV=sandbox``,
# ``mode: test``), or naming the vendor's sandbox host (``sandbox.<vendor>.co.za``,
# ``api.sandbox.<vendor>.com``; a project's own ``<app>-sandbox-db`` is a server of its own):
# its values are that test mode's, whatever machine the app runs on
TEST_MODE = re.compile(
    r"(?i:[\w-]*(?:env|mode|environment)[ \t]*[=:][ \t]*[\"']?(?:sandbox|test|testing)(?![\w-])"
    r"|(?<![\w-])sandbox\.[a-z0-9-]+\.)"
)
# Addresses of no server of the note's: documentation's own (RFC 5737) and the stand-in
# every example uses
EXAMPLE_ADDRESSES = frozenset({"1.2.3.4"})
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
    there. None otherwise."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    paragraph = "\n".join(lines[slice(*_paragraph(lines, line - 1))])
    if LOCAL.search(paragraph) is not None or TEST_MODE.search(paragraph) is not None:
        return None
    for found in IPV4.finditer(paragraph):
        if _a_server(found.group()):
            return found.group()
    for found in HOSTED.finditer(paragraph):
        if STAND_IN_HOST.match(found.group(1)) is None:
            return found.group(1)
    for found in SITE.finditer(paragraph):
        host = found.group(1)
        if STAND_IN_HOST.match(host) is None and NO_SYSTEM_SITE.search(host) is None:
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
    or the internet's; not loopback, unspecified, link-local, multicast, a netmask,
    documentation's
    (192.0.2/24 ...), the examples' stand-in or a container network's."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:  # 999.1.1.1: a version or a count, no address
        return False
    if address in EXAMPLE_ADDRESSES or ip in CONTAINER_NETWORK or ip.is_multicast:
        return False
    return ip.is_global or any(ip in network for network in OWN_NETWORKS)
