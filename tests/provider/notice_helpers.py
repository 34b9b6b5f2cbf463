"""What the maintenance notices' tests share: a real SMTP server every mail of the test goes
to, and the portal's routes of the notices' links speaking to the provider of the tests."""

from collections.abc import Iterator

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI

from portal import unsubscribe as links_route
from portal.client import ProviderClient
from portal.provider.platform.mail import wait_for_deliveries
from portal.provider.platform.models import MaintenanceNotice, OutboxMail
from portal.settings import get_settings
from tests.ports import free_port
from tests.provider.conftest import BASE_URL
from tests.provider.mailbox import Sink, smtp_server


@pytest.fixture
def notice_sink(monkeypatch: pytest.MonkeyPatch, engine: sa.Engine) -> Iterator[Sink]:
    """A real SMTP server (aiosmtpd) that every mail of the test goes to; the outbox and the
    waiting notices emptied after."""
    port = free_port()
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{port}")
    get_settings.cache_clear()
    with smtp_server(port=port) as (sink, _):
        yield sink
        wait_for_deliveries()
    with engine.begin() as connection:
        connection.execute(sa.delete(OutboxMail))
        connection.execute(sa.delete(MaintenanceNotice))
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture
def links_portal(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> FastAPI:
    """The portal's unsubscribe and confirmation routes, speaking to the tests' provider."""
    monkeypatch.setattr(
        links_route,
        "anonymous_client",
        lambda language: ProviderClient(
            BASE_URL, language=language, transport=httpx.ASGITransport(app)
        ),
    )
    portal = FastAPI()
    portal.include_router(links_route.router)
    return portal
