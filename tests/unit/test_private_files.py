"""Reflex state files and everything else the backend writes are 0600 (issue 18, item 8)."""

import os
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

from portal.private_files import make_private


@pytest.fixture
def restored_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_states_written_before_and_after_start_up_are_private(
    tmp_path: Path, restored_umask: None
) -> None:
    states = tmp_path / ".states"
    states.mkdir()
    before = states / "old.pkl"
    before.write_bytes(pickle.dumps({"_token": "secret"}))
    assert before.stat().st_mode & 0o777 == 0o644  # what Reflex left behind

    make_private(states)

    after = states / "new.pkl"
    after.write_bytes(pickle.dumps({"_token": "secret"}))  # as Reflex writes them
    upload = tmp_path / "uploads" / "contract.pdf"
    upload.parent.mkdir()
    upload.write_bytes(b"%PDF")
    assert states.stat().st_mode & 0o777 == 0o700
    assert {p.name: p.stat().st_mode & 0o777 for p in states.iterdir()} == {
        "old.pkl": 0o600,
        "new.pkl": 0o600,
    }
    assert upload.stat().st_mode & 0o777 == 0o600
    assert upload.parent.stat().st_mode & 0o777 == 0o700
