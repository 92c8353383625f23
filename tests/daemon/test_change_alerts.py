"""What one changed file can cost the daemon's loop: a bounded number of alert lookups."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from memory_audit.daemon.change_alerts import MAX_MATCHES_PER_FILE
from memory_audit.daemon.service import Daemon
from tests.harness import memory
from tests.secrets.samples import ALNUM, rnd
from tests.support.github_tokens import github_token
from tests.support.in_process_daemon import watched_tree
from tests.support.waiting import wait_until


@pytest.mark.slow
def test_a_file_full_of_secrets_alerts_a_bounded_number_at_a_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tree, settings = watched_tree(tmp_path, caplog)
    tokens = "".join(f"key {n}: {github_token('ghp_', rnd(ALNUM, 36))}\n" for n in range(300))

    async def scenario() -> int:
        daemon = Daemon(None, settings)
        serving = asyncio.create_task(daemon.serve())
        assert await wait_until(lambda: "daemon ready" in caplog.text)
        (tree / "keys.md").write_text(memory("keys", body=tokens))
        assert await wait_until(lambda: "keys.md: 300 possible secrets" in caplog.text)
        await wait_until(lambda: daemon.state.alert_count() >= MAX_MATCHES_PER_FILE)
        await asyncio.sleep(0.5)  # nothing more comes of this scan
        sent = daemon.state.alert_count()
        daemon.stop()
        await serving
        return sent

    assert asyncio.run(scenario()) == MAX_MATCHES_PER_FILE
