"""Browser tests: the built portal in production mode, driven by Playwright on Debian's Chromium.

The portal runs once per test session (it is slow to start) on a free port with its own database:
a fresh SQLite file, or, when ``DATABASE_URL`` names PostgreSQL, that database emptied first.
``REDIS_URL``, when set, puts the Reflex state and portal sessions in Redis as in production.

Every module starts from the demo as a fresh install has it, whatever the modules before it
changed: the seeded database is put back (``snapshot.py``), and the portal sessions and the
e-mails are thrown away.
So modules pass in any order (CI runs them with ``-p random_order``).
"""

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from portal.session_store import REDIS_KEY_PREFIX
from portal.settings import get_settings
from tests.e2e.helpers import PortalUnderTest, serve
from tests.e2e.mail import smtp_server
from tests.e2e.snapshot import DemoSnapshot
from tests.ports import free_port
from tests.webhook_receiver import Receiver, https_receiver

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEMO_PASSWORD = "Patchbay-demo-2026"
STARTUP_SECONDS = 300
# What a step may take: an action (the context's default) and an assertion alike. Playwright's
# 5 s for assertions was too short on a shared CI machine, where a full page load's guard can
# take longer: the "Forbidden access" warning of test_page_permissions came after it.
STEP_TIMEOUT_MS = 15_000
expect.set_options(timeout=STEP_TIMEOUT_MS)

pytestmark = pytest.mark.e2e


def _empty_postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(
        url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True
    ) as db:
        db.execute("DROP SCHEMA IF EXISTS public CASCADE")
        db.execute("CREATE SCHEMA public")


@pytest.fixture(scope="session")
def portal_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("portal-data")


@pytest.fixture(scope="session")
def mail_dir(portal_data: Path) -> Path:
    """Where each e-mail the SMTP server receives lands as an .eml file."""
    return portal_data / "mail"


@pytest.fixture(scope="session")
def smtp_url(mail_dir: Path) -> Iterator[str]:
    """The real SMTP server the portal sends through (issue 49: a ticket's e-mails reach one)."""
    with smtp_server(mail_dir, free_port()) as url:
        yield url


@pytest.fixture(scope="session")
def webhook_receiver(portal_data: Path) -> Iterator[Receiver]:
    """The HTTPS receiver the portal's webhooks reach (issue 51): on 127.0.0.1, let through
    WEBHOOK_ALLOWED_HOSTS, its certificate authority trusted through WEBHOOK_CA_FILE."""
    with https_receiver(portal_data, host="127.0.0.1") as receiver:
        yield receiver


@pytest.fixture(scope="session")
def portal_settings(
    portal_data: Path, mail_dir: Path, smtp_url: str, webhook_receiver: Receiver
) -> dict[str, str]:
    """The environment variables the portal runs with, on top of this process's own."""
    port = free_port()
    settings = {
        "PORT": str(port),
        # Development, with argon2id's smallest work factors: 130 logins a pass at 0.36 s each
        # were a tenth of its time (docs/decisions/ci-time.md).
        "ENVIRONMENT": "test",
        "PORTAL_SESSION_DB": str(portal_data / "sessions.db"),
        "PORTAL_PUBLIC_URL": f"http://localhost:{port}",
        "SMTP_URL": smtp_url,
        # Production's log format, so that a browser run shows it whole (test_operations_logs).
        "LOG_FORMAT": "json",
        "WEBHOOK_ALLOWED_HOSTS": json.dumps([webhook_receiver.host]),
        "WEBHOOK_CA_FILE": str(webhook_receiver.ca_file),
    }
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        settings["DATABASE_URL"] = f"sqlite:///{portal_data / 'provider.db'}"
    return settings


@pytest.fixture(scope="session")
def portal_url(portal_data: Path, portal_settings: dict[str, str]) -> Iterator[str]:
    if not Path(CHROMIUM).exists():
        pytest.exit("Debian's Chromium is missing: run scripts/ensure-chromium.sh", returncode=1)
    data = portal_data
    port = int(portal_settings["PORT"])
    env = {**os.environ, **portal_settings}
    if env["DATABASE_URL"].startswith("postgres"):
        _empty_postgres(env["DATABASE_URL"])
    # Migrate and seed once before the workers start, as `make run` does: with Redis, several
    # workers start at once and must find the schema ready.
    subprocess.run(
        [sys.executable, "-m", "portal.provider", "seed-demo"], cwd=ROOT, env=env, check=True
    )
    log_path = data / "portal.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "reflex",
                "run",
                "--env",
                "prod",
                "--frontend-port",
                str(port),
                "--backend-port",
                str(port),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://localhost:{port}"
    try:
        _wait_until_ready(url, process, log_path)
        yield url
    finally:
        _stop(process)


@pytest.fixture(scope="session", autouse=True)
def portal_under_test(portal_url: str, portal_settings: dict[str, str]) -> None:
    """The started portal, which ``log_in_as`` signs browsers into."""
    with _portal_environment(portal_settings):
        serve(PortalUnderTest(portal_url, get_settings()))


@pytest.fixture(scope="session")
def demo_snapshot(portal_url: str, portal_settings: dict[str, str]) -> DemoSnapshot:
    """The demo as the started portal has it, before any module ran."""
    with _portal_environment(portal_settings):
        return DemoSnapshot.take(get_settings().sqlalchemy_url)


@pytest.fixture(scope="module", autouse=True)
def fresh_demo(
    demo_snapshot: DemoSnapshot, portal_settings: dict[str, str], mail_dir: Path
) -> None:
    """Before each module: the demo as seeded, no portal session, no e-mail."""
    started = time.perf_counter()
    demo_snapshot.restore()
    with _portal_environment(portal_settings):
        settings = get_settings()
        _empty_session_store(settings.redis_url, settings.portal_session_db)
    for message in mail_dir.glob("*"):
        message.unlink()
    print(f"Portal reset to the demo in {time.perf_counter() - started:.1f} s.")


@contextmanager
def _portal_environment(portal_settings: dict[str, str]) -> Iterator[None]:
    """This process reads the portal's settings for a while, as the portal itself does."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in portal_settings.items():
            patch.setenv(name, value)
        get_settings.cache_clear()
        try:
            yield
        finally:
            patch.undo()
            get_settings.cache_clear()


def _empty_session_store(redis_url: str, sqlite_path: Path) -> None:
    if redis_url:
        client = redis.Redis.from_url(redis_url)
        try:
            keys = list(client.scan_iter(match=f"{REDIS_KEY_PREFIX}*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
    elif sqlite_path.exists():
        with closing(sqlite3.connect(sqlite_path, timeout=5)) as db, db:
            db.execute("DELETE FROM portal_session")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, 15)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)


def _wait_until_ready(url: str, process: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.exit(f"The portal stopped at start:\n{log_path.read_text()[-4000:]}", 1)
        try:
            if (
                httpx.get(f"{url}/login", timeout=2, follow_redirects=True).status_code == 200
                and httpx.get(f"{url}/provider/docs", timeout=2).status_code == 200
            ):
                return
        except httpx.HTTPError:
            pass
        time.sleep(1)
    pytest.exit(f"The portal did not start:\n{log_path.read_text()[-4000:]}", 1)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def context_options() -> dict[str, Any]:
    """How a test's browser is set up besides the portal's address; a test parametrizes it to
    be a user elsewhere, e.g. in another time zone."""
    return {"locale": "en-GB"}


@pytest.fixture
def context(
    browser: Browser, portal_url: str, context_options: dict[str, Any]
) -> Iterator[BrowserContext]:
    context = browser.new_context(base_url=portal_url, **context_options)
    context.set_default_timeout(STEP_TIMEOUT_MS)
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
