"""Steps shared by the browser tests."""

import asyncio
import os
import re
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from playwright.sync_api import Page, expect
from sqlalchemy import create_engine
from sqlmodel import Session, col, delete, select

from portal.client import ProviderClient
from portal.provider.platform.models import ProviderSession, User
from portal.session_store import COOKIE_NAME, PortalSession, SessionStore
from portal.settings import Settings

DEMO_PASSWORD = "Patchbay-demo-2026"
T = TypeVar("T")


@dataclass(frozen=True)
class PortalUnderTest:
    """Where the started portal answers, and the settings it runs with."""

    url: str
    settings: Settings


_serving: PortalUnderTest | None = None


def serve(portal: PortalUnderTest) -> None:
    """Called once the session's portal is up: ``log_in_as`` signs browsers into it."""
    global _serving
    _serving = portal


def log_in(page: Page, email: str, password: str = DEMO_PASSWORD, path: str = "/login") -> None:
    page.goto(path)
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Login").click()


def log_in_through_the_form(page: Page, email: str) -> None:
    """Logs in with the login form and waits for the signed-in home page."""
    log_in(page, email)
    expect(
        page.get_by_role("button", name=re.compile("User menu|Menu utilisateur"))
    ).to_be_visible()
    expect_home(page)


def log_in_as(page: Page, email: str, path: str = "/") -> None:
    """Opens ``path`` logged in as ``email``, whose password is the demo's and who has no
    second factor set up or due, without the login form: the provider's own login answers
    over HTTP, and the portal session it opens is stored as the login event stores it, its
    cookie handed to the browser. The form's page and the home page it leads to were two of a
    test's three page loads, a second of Chromium's time each (docs/decisions/ci-time.md);
    the form itself is tested through ``log_in_through_the_form``. On the home page, waits
    for its content."""
    portal = _serving
    if portal is None:
        raise RuntimeError("no portal is serving: the portal_under_test fixture starts it")
    token = _in_a_thread(_open_portal_session(portal, email))
    page.context.add_cookies(
        [{"name": COOKIE_NAME, "value": token, "url": portal.url, "httpOnly": True}]
    )
    page.goto(path)
    if path == "/":
        expect_home(page)


async def _open_portal_session(portal: PortalUnderTest, email: str) -> str:
    async with ProviderClient(f"{portal.url}/provider") as client:
        user_id = await client.auth.login(email, DEMO_PASSWORD)
        if user_id is None:
            raise AssertionError(f"{email} has a second factor: log in through the form")
        session = PortalSession(user_id=user_id, provider_cookies=client.cookies())
    store = SessionStore(portal.settings)
    try:
        return await store.create(session)
    finally:
        await store.aclose()


def _in_a_thread(work: Coroutine[None, None, T]) -> T:
    """Runs a coroutine to its end beside Playwright's event loop, which holds this thread."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, work).result()


def expect_home(page: Page) -> None:
    """Waits for the home page's own content, which shows once the page is hydrated and its
    session checked. Its address and heading are not enough: after a redirect inside the app
    the address changes while the page before stays on screen, and after a full load the
    prerendered heading paints before React listens to any click. A menu opened in either
    moment closes with the page or never opens (CI, seed 442635079: the user menu, then the
    phone drawer)."""
    expect(page).to_have_url(re.compile(r":\d+/$"))
    expect(page.get_by_test_id("signed-in-since")).to_be_visible()


def open_user_menu(page: Page) -> None:
    """Opens the user menu. A click while the signed-in page is still rendering its first data
    can land on a trigger about to be replaced, and the menu never shows (seen once in CI,
    seed 634309370): the click is repeated until the menu is there. A menu just chosen from
    is first let go: while it fades out it still counts as shown, and a click then closes the
    new one (seen in CI, seed 706026540)."""
    trigger = page.get_by_role("button", name=re.compile("User menu|Menu utilisateur"))
    menu = page.get_by_role("menu")
    expect(menu).to_have_count(0)
    for _ in range(3):
        trigger.click()
        try:
            expect(menu).to_be_visible(timeout=3_000)
            return
        except AssertionError:
            page.keyboard.press("Escape")
    expect(menu).to_be_visible()


def expect_clipboard(page: Page, text: str) -> None:
    """The clipboard comes to hold ``text``. The state marks a copy done before the browser has
    run its clipboard write, so a read at once can still find it empty (seen in CI, seed
    865117581)."""
    page.wait_for_function(
        "async (text) => (await navigator.clipboard.readText()) === text", arg=text
    )


def choose_language(page: Page, language: str, label: str = "Language") -> None:
    """The navbar's language select (a native one), by the language's own name."""
    page.get_by_role("combobox", name=label).select_option(label=language)


@contextmanager
def provider_database(portal_settings: dict[str, str]) -> Iterator[Session]:
    """A session on the database of the provider the portal under test runs with."""
    engine = create_engine(portal_settings.get("DATABASE_URL") or os.environ["DATABASE_URL"])
    try:
        with Session(engine) as db:
            yield db
    finally:
        engine.dispose()


def end_provider_sessions(portal_settings: dict[str, str], email: str) -> None:
    """Ends every provider session of ``email``, as an expiry would: the portal's next call
    for them is answered 401."""
    with provider_database(portal_settings) as db:
        user = select(User.id).where(User.email == email).scalar_subquery()
        db.exec(delete(ProviderSession).where(col(ProviderSession.user_id) == user))
        db.commit()


@contextmanager
def unreadable_table(portal_settings: dict[str, str], table: str) -> Iterator[None]:
    """The provider's ``table`` renamed away for a while: each call that reads it fails as on a
    database that lost it (SQLite's 503, PostgreSQL's 500), and the provider answers the rest
    as before. Playwright cannot intercept the portal backend's calls to its provider: this is
    a real failure of the real one, undone whatever the test's outcome."""

    def rename(name: str, new_name: str) -> None:
        with provider_database(portal_settings) as db:
            db.connection().exec_driver_sql(f'ALTER TABLE "{name}" RENAME TO "{new_name}"')
            db.commit()

    rename(table, f"{table}_away")
    try:
        yield
    finally:
        rename(f"{table}_away", table)


# Stands in for a table on PostgreSQL: a view whose every use fails at once, with the error a
# database gives while it starts up ("One-Time Filter": a STABLE function without a column is
# run before any row is read, so a lookup that matches nothing fails too).
_UNAVAILABLE_FUNCTION = """
CREATE OR REPLACE FUNCTION patchbay_test_unavailable() RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RAISE EXCEPTION 'the database system is starting up' USING ERRCODE = '57P03';
END $$
"""


@contextmanager
def unavailable_table(portal_settings: dict[str, str], table: str) -> Iterator[None]:
    """The provider's ``table`` out of reach as in a database outage: each call that uses it
    fails with the database's operational error, which the provider answers 503, on SQLite (the
    table renamed away: "no such table") and on PostgreSQL alike (a view in its place that fails
    as a database starting up does, 57P03). Undone whatever the test's outcome."""

    def run(*statements: str) -> bool:
        with provider_database(portal_settings) as db:
            if db.get_bind().dialect.name != "postgresql":
                return False
            for statement in statements:
                db.connection().exec_driver_sql(statement)
            db.commit()
            return True

    with unreadable_table(portal_settings, table):
        postgres = run(
            _UNAVAILABLE_FUNCTION,
            f'CREATE VIEW "{table}" AS SELECT * FROM "{table}_away"'
            " WHERE patchbay_test_unavailable() WITH CHECK OPTION",
        )
        try:
            yield
        finally:
            if postgres:
                run(f'DROP VIEW "{table}"', "DROP FUNCTION patchbay_test_unavailable()")
