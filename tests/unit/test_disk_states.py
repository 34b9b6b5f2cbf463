"""The portal's disk state manager (no Redis): expired states removed, the directory listed at
most once a minute (docs/decisions/disk-states-purge.md)."""

import os
import time
from pathlib import Path

import pytest
from reflex.istate.manager import _default_token_expiration
from reflex.utils import prerequisites

from portal.state import disk_states
from portal.state.disk_states import PURGE_INTERVAL_SECONDS, DiskStates


def _state_file(directory: Path, name: str, age_seconds: float) -> Path:
    path = directory / f"{name}.pkl"
    path.write_bytes(b"state")
    then = time.time() - age_seconds
    os.utime(path, (then, then))
    return path


def test_expired_states_go_at_start_then_at_most_once_a_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1_000.0]
    monkeypatch.setattr(disk_states.time, "monotonic", lambda: clock[0])
    directory = prerequisites.get_states_dir().absolute()
    directory.mkdir(parents=True, exist_ok=True)
    hour = _default_token_expiration()
    expired_before = _state_file(directory, "expired-before", hour + 5)
    manager = DiskStates()
    assert manager.states_directory == directory
    assert not expired_before.exists()

    expired = _state_file(directory, "expired", hour + 5)
    fresh = _state_file(directory, "fresh", 60)
    clock[0] += PURGE_INTERVAL_SECONDS - 1
    manager._purge_expired_states()
    assert expired.exists(), "listed again within the minute"

    clock[0] += 1
    manager._purge_expired_states()
    assert not expired.exists()
    assert fresh.exists()


def test_the_portal_keeps_states_on_disk_through_it_without_redis() -> None:
    from portal.portal import app

    if os.environ.get("REDIS_URL"):
        pytest.skip("with Redis the states are in Redis")
    assert type(app.state_manager) is DiskStates
