from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from memory_audit.daemon import systemd_notify


def test_notify_sends_to_notify_socket_and_abstract_addresses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
        receiver.bind(str(tmp_path / "n.sock"))
        monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "n.sock"))
        assert systemd_notify.notify("READY=1")
        assert receiver.recv(64) == b"READY=1"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
        receiver.bind(f"\0memory-audit-test-{id(receiver)}")
        monkeypatch.setenv("NOTIFY_SOCKET", f"@memory-audit-test-{id(receiver)}")
        assert systemd_notify.notify("WATCHDOG=1")
        assert receiver.recv(64) == b"WATCHDOG=1"


def test_notify_never_blocks_when_the_receiver_stops_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
        receiver.bind(str(tmp_path / "n.sock"))
        monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "n.sock"))
        results: list[bool] = []
        pinger = threading.Thread(
            target=lambda: results.extend(systemd_notify.notify("WATCHDOG=1") for _ in range(100)),
            daemon=True,
        )
        pinger.start()
        pinger.join(timeout=10)
        assert not pinger.is_alive(), "notify() blocked on a full datagram queue"
        assert results[0] is True
        assert results[-1] is False  # the queue is full: the ping is dropped, not waited for


def test_without_notify_socket_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert systemd_notify.notify("READY=1") is False


def test_watchdog_interval_is_half_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert systemd_notify.watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert systemd_notify.watchdog_interval() is None
