"""TOTP secrets sealed at rest (issue 47, item 18): AES-256-GCM under SECOND_FACTOR_KEY, bound
to their user, the previous key still opening during a rotation; the key required in
production and generated once into the data directory elsewhere."""

import os
import secrets
import stat
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from portal.provider.accounts.sealing import seal, unseal
from portal.provider.platform import keys
from portal.provider.platform.keys import KeyProblem, second_factor_keys
from portal.settings import get_settings

SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[pytest.MonkeyPatch]:
    """The environment of one test: its own data directory, no key unless the test sets one."""
    for name in ("SECOND_FACTOR_KEY", "SECOND_FACTOR_PREVIOUS_KEY", "ENVIRONMENT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    get_settings.cache_clear()


def _use(settings: pytest.MonkeyPatch, **values: str) -> None:
    for name, value in values.items():
        settings.setenv(name, value)
    get_settings.cache_clear()


def test_a_sealed_secret_opens_for_its_user_only(settings: pytest.MonkeyPatch) -> None:
    _use(settings, SECOND_FACTOR_KEY=secrets.token_urlsafe(32))
    owner, other = uuid.uuid4(), uuid.uuid4()
    sealed = seal(SECRET, owner)
    assert sealed.startswith("v1.")
    assert SECRET not in sealed
    assert seal(SECRET, owner) != sealed  # a new nonce each time
    assert unseal(sealed, owner) == (SECRET, True)
    assert unseal(sealed, other) is None  # copied onto another account, it does not open
    assert unseal(sealed[:-4] + "AAAA", owner) is None  # tampered
    assert unseal(SECRET, owner) is None  # a clear secret is not taken as sealed


def test_the_previous_key_opens_what_it_sealed(settings: pytest.MonkeyPatch) -> None:
    old, new = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    owner = uuid.uuid4()
    _use(settings, SECOND_FACTOR_KEY=old)
    sealed = seal(SECRET, owner)
    _use(settings, SECOND_FACTOR_KEY=new, SECOND_FACTOR_PREVIOUS_KEY=old)
    assert unseal(sealed, owner) == (SECRET, False)  # due to be sealed again
    assert unseal(seal(SECRET, owner), owner) == (SECRET, True)
    _use(settings, SECOND_FACTOR_PREVIOUS_KEY="")
    assert unseal(sealed, owner) is None


def test_production_refuses_to_start_without_a_key(settings: pytest.MonkeyPatch) -> None:
    _use(settings, ENVIRONMENT="production")
    with pytest.raises(KeyProblem, match="SECOND_FACTOR_KEY must be set in production"):
        second_factor_keys()
    assert not (get_settings().data_dir / keys.DEVELOPMENT_KEY_FILE).exists()
    _use(settings, SECOND_FACTOR_KEY=secrets.token_urlsafe(32))
    assert len(second_factor_keys()) == 1


# Too short, 16 bytes instead of 32, not base64.
@pytest.mark.parametrize("key", ["changeme", "cGF0Y2hiYXktMTYtYnl0ZQ", "é" * 43])
def test_a_key_of_another_form_is_refused_without_being_shown(
    settings: pytest.MonkeyPatch, key: str
) -> None:
    _use(settings, SECOND_FACTOR_KEY=key)
    with pytest.raises(KeyProblem) as refused:
        second_factor_keys()
    assert "32 random bytes" in str(refused.value)
    assert key not in str(refused.value)


def test_development_generates_one_private_key_for_every_process(
    settings: pytest.MonkeyPatch,
) -> None:
    data_dir = get_settings().data_dir
    old_umask = os.umask(0o022)
    try:
        # Workers starting together: each would generate a key, one only is kept by all.
        with ThreadPoolExecutor(max_workers=8) as workers:
            found = set(workers.map(keys._development_key, [data_dir] * 8))
    finally:
        os.umask(old_umask)
    key_file = data_dir / keys.DEVELOPMENT_KEY_FILE
    assert found == {key_file.read_text().strip()}
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert sorted(path.name for path in data_dir.iterdir()) == [keys.DEVELOPMENT_KEY_FILE]
    owner = uuid.uuid4()
    assert unseal(seal(SECRET, owner), owner) == (SECRET, True)
