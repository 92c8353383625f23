"""`status` and `doctor` on an empty machine and on the state a real daemon run wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.store.state import State
from tests.harness import index, memory, write_tree
from tests.install.test_service_command import cli
from tests.support.daemon_process import DaemonProcess, Home
from tests.support.session_bus import session_bus


def test_status_and_doctor_on_an_empty_machine(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    status = cli(home, "status")
    assert status.returncode == 0
    assert "Service: systemd unit not installed; daemon not running" in status.stdout
    assert "No state yet: the service has not run" in status.stdout
    assert "First audit: when the service starts (a baseline); then weekly, next " in status.stdout
    assert "Pending findings: no report yet" in status.stdout
    doctor = cli(home, "doctor")
    assert doctor.returncode == 1
    assert "✗ no memory trees found" in doctor.stdout
    assert "✗ D-Bus session bus" in doctor.stdout
    assert "! service not installed" in doctor.stdout
    assert "fix: memory-audit service install" in doctor.stdout
    assert not (home.root / ".local").exists()  # looking changes nothing


@pytest.mark.slow
def test_status_and_doctor_after_a_real_daemon_run(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(
        home.projects / "-work-app" / "memory",
        {"MEMORY.md": index("gone.md", "a.md"), "a.md": memory("a")},
    )
    write_tree(
        home.projects / "-work-site" / "memory", {"MEMORY.md": index("b.md"), "b.md": memory("b")}
    )
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        code, _, err = DaemonProcess(home, home.config()).start("--once").finish()
        assert code == 0, err
        status = cli(home, "status").stdout
        assert "(once: ok, first run: 1 findings in 2 trees)" in status
        assert "Pending findings: 1\n      1  -work-app" in status
        assert "Alerts sent: 0" in status
        app = home.projects / "-work-app" / "memory"
        (app / "ref").mkdir()  # one watch more; a linked folder is not followed, so none
        (app / "linked").symlink_to(tmp_path, target_is_directory=True)
        doctor = cli(home, "doctor", "--notify-test")
        assert "✓ 2 memory tree(s) found" in doctor.stdout
        assert f"✓ D-Bus session bus reachable ({bus.address})" in doctor.stdout
        assert "✓ notification server present (running)" in doctor.stdout
        assert "✓ test notification sent" in doctor.stdout
        assert "✓ state folder" in doctor.stdout
        assert "is private and writable" in doctor.stdout
        assert "inotify: the trees need 3 watches" in doctor.stdout
        assert [n["summary"] for n in bus.notifications()][-1] == "memory-audit doctor"


def test_doctor_flags_a_folder_others_can_read(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    home.state.mkdir(parents=True)
    home.state.chmod(0o755)
    doctor = cli(home, "doctor")
    assert f"✗ state folder {home.state} is readable by others (mode 755)" in doctor.stdout
    assert f"fix: chmod -R go-rwx {home.state}" in doctor.stdout


def test_doctor_without_a_notification_server(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    with session_bus(tmp_path / "bus", server=False) as bus:
        home.bus_address = bus.address
        doctor = cli(home, "doctor").stdout
    assert "! no notification server on the session bus" in doctor


def test_doctor_warns_for_a_unit_that_is_written_but_not_known_to_run(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    unit = home.root / ".config/systemd/user/memory-audit.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Service]\nExecStart=/bin/true\n")
    doctor = cli(home, "doctor").stdout  # no user manager reachable in this home
    assert "! service unit installed, but no service manager answers" in doctor
    assert "fix: run `memory-audit daemon` yourself" in doctor  # `service install` cannot start it
    assert "✓ service installed" not in doctor


def test_the_first_service_run_is_a_baseline_not_all_new(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(
        home.projects / "-work-app" / "memory",
        {"MEMORY.md": index("gone.md", "x.md", "kept.md"), "kept.md": memory("kept")},
    )
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        for _ in range(2):
            code, _, err = DaemonProcess(home, home.config()).start("--once").finish()
            assert code == 0, err
        first, second = [str(n["body"]) for n in bus.notifications()][-2:]
    assert first.startswith("2 findings in 1 of 1 projects, the first run.")
    assert "new" not in first
    assert second.startswith("2 findings in 1 of 1 projects, 0 new since the last run.")
    runs = sorted(p for p in home.reports.iterdir() if p.name[0].isdigit())
    summary = (runs[0] / "summary.md").read_text()
    assert "first run: the baseline later runs are compared with." in summary
    assert "| -work-app | 2 | – | – |" in summary
    [tree_report] = [p for p in runs[0].glob("*.md") if p.name != "summary.md"]
    assert "## First run: the baseline" in tree_report.read_text()
    assert "0 new and 0 resolved since the last run" in (runs[1] / "summary.md").read_text()


def test_the_weekly_notification_and_summary_count_problems_not_suggestions(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    rule = "Integration tests must hit a real Postgres database from compose, never mocks."
    files = {
        "a.md": memory("a", description="Integration tests and the database", body=rule),
        "b.md": memory("b", description="Tests against a real database", body=rule),
    }
    write_tree(
        home.projects / "-work-app" / "memory", {"MEMORY.md": index("gone.md", *files), **files}
    )
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        code, _, err = DaemonProcess(home, home.config()).start("--once").finish()
        assert code == 0, err
        body = str(bus.notifications()[-1]["body"])
    assert body.startswith("1 findings in 1 of 1 projects, the first run.")
    [run] = [p for p in home.reports.iterdir() if p.name[0].isdigit()]
    summary = (run / "summary.md").read_text()
    assert "**1 findings** in 1 of 1 memory trees (and 1 suggestions)" in summary
    assert "| -work-app | 1 | – | – |" in summary


def test_status_before_the_first_report_says_so_never_none_or_due_now(tmp_path: Path) -> None:
    """A state database (dismissals, an interrupted first run) but no report: findings are
    unknown, and with no daemon running nothing is about to catch up."""
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("gone.md")})
    State(home.state).close()
    status = cli(home, "status").stdout
    assert "Pending findings: no report yet (the service's first audit writes one; " in status
    assert "Pending findings: none" not in status
    assert "First audit: when the service starts (a baseline)" in status
    assert "due now" not in status


def _unit_written(home: Home) -> None:
    unit = home.root / ".config/systemd/user/memory-audit.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Service]\nExecStart=/bin/true\n")


@pytest.mark.slow
def test_status_and_doctor_recognise_a_daemon_running_in_the_foreground(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    _unit_written(home)  # installed, but no user manager here runs it
    daemon = DaemonProcess(home, home.config()).start()
    try:
        assert daemon.wait_message("READY=1"), daemon.messages
        assert daemon.process is not None
        pid = daemon.process.pid
        status = cli(home, "status").stdout
        doctor = cli(home, "doctor").stdout
    finally:
        code, _, err = daemon.stop()
    assert code == 0, err
    assert f"daemon running (pid {pid}) in the foreground (`memory-audit daemon`)" in status
    assert f"✓ daemon running in the foreground (pid {pid}), not under the installed" in doctor
    assert "no service manager answers" not in doctor
    assert "not known to be running" not in doctor


def test_doctor_notify_test_without_a_bus_says_the_test_was_not_sent(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    doctor = cli(home, "doctor", "--notify-test").stdout
    assert "✗ test notification not sent: no session bus to send it on (see above)" in doctor


def test_doctor_notify_test_without_a_server_says_the_test_was_not_sent(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    with session_bus(tmp_path / "bus", server=False) as bus:
        home.bus_address = bus.address
        doctor = cli(home, "doctor", "--notify-test").stdout
    assert "✗ test notification not sent: no notification server to accept it" in doctor


@pytest.mark.slow
def test_doctor_notify_test_says_when_the_server_does_not_accept_it(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    with session_bus(tmp_path / "bus", hang=True) as bus:
        home.bus_address = bus.address
        config = str(home.config(timeout=1))
        doctor = cli(home, "doctor", "--notify-test", "--config", config).stdout
    assert "✗ test notification not accepted: the server did not confirm it within 1 s" in doctor
