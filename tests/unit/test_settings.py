"""Settings read from the environment: the public URL of e-mail links follows the port; the demo's
anchor day is an ISO day or empty."""

from datetime import date

import pytest
from pydantic import ValidationError

from portal.settings import Settings


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PORT", "PORTAL_PUBLIC_URL", "DEMO_ANCHOR_DATE"):
        monkeypatch.delenv(name, raising=False)


def _settings() -> Settings:
    return Settings(_env_file=None)  # the environment only, never a developer's .env


def test_the_public_url_defaults_to_the_default_port() -> None:
    assert _settings().portal_public_url == "http://localhost:3000"


def test_the_public_url_follows_the_port_the_portal_serves_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PORT", "8080")  # as `PORT=8080 make run` exports it
    assert _settings().portal_public_url == "http://localhost:8080"


def test_a_configured_public_url_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8080")
    monkeypatch.setenv("PORTAL_PUBLIC_URL", "https://portal.example.test")
    assert _settings().portal_public_url == "https://portal.example.test"


def test_the_demo_anchor_date_is_empty_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _settings().demo_anchor_date is None
    monkeypatch.setenv("DEMO_ANCHOR_DATE", "")
    assert _settings().demo_anchor_date is None


def test_the_demo_anchor_date_is_an_iso_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEMO_ANCHOR_DATE", "2031-06-15")
    assert _settings().demo_anchor_date == date(2031, 6, 15)
    monkeypatch.setenv("DEMO_ANCHOR_DATE", "15/06/2031")
    with pytest.raises(ValidationError):
        _settings()
