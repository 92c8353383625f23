"""A key in the text of a page an agent fetched, as its web fetch's record holds it, is the
site's: a suggestion naming the site, and no alert; a key in the request the agent made, or
written again in the user's own notes, stays a problem that alerts."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from tests.harness import findings, index, memory, write_tree
from tests.secrets.samples import CASES

KEY = CASES["google-api-key"][0][0][0]  # a look-alike browser key


def _record(url: str, page: str) -> str:
    """One line of an agent's tool log: a web fetch's record with the page it brought."""
    return (
        f'[2026-04-04T13:25] TOOL: {{"url": "{url}", "finalUrl": "{url}", "status": 200,'
        f' "extractor": "jina", "untrusted": true, "text": "{page}"}}'
    )


def _levels(tmp_path: Path, notes: dict[str, str]) -> list[tuple[str, str]]:
    files = {"MEMORY.md": index(*notes), **{n: memory(n[:-3], body=b) for n, b in notes.items()}}
    root = write_tree(tmp_path / "memory", files)
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    return [(str(f.level), f.message) for f in findings(root, "secrets", options=options)]


def _alerted(tmp_path: Path, body: str) -> list[str]:
    root = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": body})
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    scans = _scan_all({root / "a.md"}, root, scanner, 1 << 20)
    state = State(tmp_path / "state")
    return [a.path for s in scans for a in alerts_for(s, state, frozenset())]


PAGE = f"Condo for sale ... ![map](https://maps.googleapis.com/maps/api/staticmap?key={KEY})"
FETCHED = _record("https://www.fernhomes.example.co/property/42", PAGE)


def test_a_key_in_a_fetched_page_s_text_is_the_site_s_and_a_suggestion(tmp_path: Path) -> None:
    # round 147's first look (a tuning half): a scraper's tool log held a property site's
    # page, whose map tiles carry the site's browser key
    [(level, message)] = _levels(tmp_path, {"history.md": FETCHED})
    assert level == "suggestion"
    assert message.endswith(
        "; it is in the text of a page fetched from www.fernhomes.example.co (a web fetch's record)"
    )
    assert _alerted(tmp_path / "alert", memory("a", body=FETCHED)) == []


def test_a_key_in_the_fetch_s_request_or_in_the_user_s_notes_stays_a_problem(
    tmp_path: Path,
) -> None:
    # the agent put the key in the URL it fetched: its own key, not the page's
    asked = _record(f"https://maps.example.co/api?key={KEY}", "Map rendered.")
    assert [level for level, _ in _levels(tmp_path / "asked", {"history.md": asked})] == ["problem"]
    assert _alerted(tmp_path / "alert", memory("a", body=asked)) == ["a.md"]
    # the same key written again in a note of the user's: the note's copy is theirs
    notes = {"history.md": FETCHED, "maps.md": f"Our maps key: `{KEY}`"}
    assert [level for level, _ in _levels(tmp_path / "both", notes)] == ["problem"]
    # no fetch's record on the line (a JSON without the fetch's address and status)
    plain = f'{{"name": "maps", "text": "key={KEY}"}}'
    assert [level for level, _ in _levels(tmp_path / "plain", {"history.md": plain})] == ["problem"]


def _asked_record() -> str:
    return _record(f"https://maps.example.co/api?key={KEY}", "Map rendered.")


def test_only_a_value_inside_the_page_s_own_text_is_the_site_s(tmp_path: Path) -> None:
    # a second reader's (session 64): each of these held the user's key outside a fetched
    # page's text, or on a page of the user's own, and read as the site's
    two = _record("https://docs.example.co/", "hello") + " " + _asked_record()
    headers = (
        '{"url": "https://api.fernshop.example/v1", "finalUrl": "https://api.fernshop.example/v1",'
        f' "status": 200, "text": "ok", "requestHeaders": {{"X-Api-Key": "{KEY}"}}}}'
    )
    config = (
        f'{{"url": "https://hooks.fernshop.example/in", "status": "enabled", "content": "{KEY}"}}'
    )
    local = _record("http://localhost:8080/admin/settings", f"Maps key: {KEY}")
    private = _record("http://192.168.1.20/admin", f"Maps key: {KEY}")
    for n, line in enumerate((two, headers, config, local, private)):
        levels = [level for level, _ in _levels(tmp_path / str(n), {"history.md": line})]
        assert levels == ["problem"], line
        assert _alerted(tmp_path / f"alert{n}", memory("a", body=line)) == ["a.md"], line
    # an issuer's token on a fetched page opens an account, whosever the page is
    token = CASES["github-pat"][0][0][0]
    settings = _record("https://admin.fernshop.example/settings/tokens", f"Your token: {token}")
    assert [level for level, _ in _levels(tmp_path / "token", {"history.md": settings})] == [
        "problem"
    ]


def test_the_alert_asks_one_reason_at_every_place_of_the_value_as_the_audit_does(
    tmp_path: Path,
) -> None:
    # a second reader's (session 64): a seed's password at one place (a test password's
    # reason) and a fetched page's text at another (the site's) is neither in the audit, a
    # problem; the daemon read both as a test password's and raised nothing
    page = _record("https://docs.fernshop.example/setup", "Log in with password: Admin2024!")
    body = f"- Seed: `ops@shop.io` / `Admin2024!`\n\n{page}\n"
    [(level, _)] = _levels(tmp_path / "audit", {"a.md": body})
    assert level == "problem"
    assert _alerted(tmp_path / "alert", memory("a", body=body)) == ["a.md"]
