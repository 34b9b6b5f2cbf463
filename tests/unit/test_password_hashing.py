"""Password hashing runs on threads of its own, nicer than the requests' (passwords.py)."""

import os
import subprocess
import sys
import threading
import time

import pytest
from argon2 import PasswordHasher

from portal.provider.accounts import passwords

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice")


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@linux_only
def test_hashing_yields_the_cores_to_requests() -> None:
    mine = _niceness()
    hashing = passwords._on_hashing_thread(_niceness)
    assert hashing == min(mine + passwords.HASHING_NICENESS, 19)
    assert _niceness() == mine, "the caller's thread keeps its priority"


def test_verification_answers_as_before() -> None:
    digest = passwords.hash_password("correct horse")
    assert passwords.verify_password(digest, "correct horse")
    assert not passwords.verify_password(digest, "wrong horse")
    assert not passwords.verify_password(None, "correct horse")
    assert not passwords.verify_password("not a hash", "correct horse")


@linux_only
def test_a_forked_worker_hashes_on_threads_of_its_own() -> None:
    """Granian forks its workers: a pool whose threads stayed in the parent would never answer."""
    digest = passwords.hash_password("correct horse")  # the parent's pool has a thread now
    child = os.fork()
    if child == 0:
        os._exit(0 if passwords.verify_password(digest, "correct horse") else 1)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(child, 9)
    os.waitpid(child, 0)
    pytest.fail("the forked child never got its password verified")


@pytest.mark.parametrize("environment", ["production", "development", "test"])
def test_only_test_runs_hash_with_the_smallest_work_factors(environment: str) -> None:
    read = "from portal.provider.accounts import passwords; print(passwords._hasher.memory_cost)"
    memory_cost = subprocess.run(
        [sys.executable, "-c", read],
        env={**os.environ, "ENVIRONMENT": environment},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    expected = passwords.TEST_HASHER if environment == "test" else PasswordHasher()
    assert int(memory_cost) == expected.memory_cost
