"""Issue 18 in a real browser against the running portal: another origin can neither open the
websocket, nor read the portal's answers, nor frame it; the Reflex token alone signs nobody in,
takes no live tab over and uploads nothing into it (issue 47, item 11); the pages load under
their Content-Security-Policy without a violation."""

import asyncio
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from urllib.parse import urlsplit

import httpx
import pytest
import websockets
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from portal import routes
from portal.pages.services.import_state import ImportState
from portal.session_store import COOKIE_NAME
from tests.e2e.conftest import STEP_TIMEOUT_MS
from tests.e2e.helpers import log_in_as
from tests.reflex_socket import ReflexSocket

EVIL = "http://evil.test"


def _websocket_url(portal_url: str) -> str:
    return "ws" + portal_url.removeprefix("http") + "/_event/?EIO=4&transport=websocket"


async def _handshake(url: str, origin: str | None) -> str:
    """What the Socket.IO endpoint answers a websocket handshake from ``origin``."""
    try:
        async with websockets.connect(
            url,
            origin=origin,
            open_timeout=10,
        ) as socket:
            return str(await asyncio.wait_for(socket.recv(), 10))
    except websockets.InvalidStatus as refused:
        return f"refused {refused.response.status_code}"


def _answer(url: str, origin: str | None) -> str:
    """Runs the handshake in a thread of its own: after a browser test, Playwright's sync API
    holds this thread's event loop and ``asyncio.run`` refuses to start another."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _handshake(url, origin)).result()


def test_only_the_portals_origin_opens_the_websocket(portal_url: str) -> None:
    url = _websocket_url(portal_url)
    assert _answer(url, portal_url).startswith("0{")  # Engine.IO's open
    assert _answer(url, EVIL).startswith("refused 4")
    port = urlsplit(portal_url).port
    assert _answer(url, f"http://localhost:{(port or 0) + 1}").startswith("refused")


def test_a_foreign_page_cannot_use_the_users_cookies(
    context: BrowserContext, page: Page, portal_url: str
) -> None:
    """A signed-in user visits another site: its script can open neither the websocket nor
    read a portal route, and it cannot frame the portal. The other site is served (by
    Playwright) from 127.0.0.1 on the portal's port: another origin on the loopback, so that
    Chromium's private network rules do not block its requests before the portal can."""
    log_in_as(page, "alice@acme-networks.test")
    port = urlsplit(portal_url).port
    other = f"http://127.0.0.1:{port}"
    evil = context.new_page()
    evil.route(
        f"{other}/**",
        lambda route: route.fulfill(
            content_type="text/html", body="<html><body><h1>Not the portal</h1></body></html>"
        ),
    )
    evil.goto(f"{other}/elsewhere")
    outcome = evil.evaluate(
        """async (portal) => {
            const socket = await new Promise((resolve) => {
                const ws = new WebSocket(portal.replace("http", "ws")
                    + "/_event/?EIO=4&transport=websocket&token=x");
                ws.onmessage = (m) => { resolve("message " + m.data.slice(0, 40)); ws.close(); };
                ws.onerror = () => resolve("error");
                ws.onclose = () => resolve("closed");
                setTimeout(() => resolve("timeout"), 8000);
            });
            let read;
            try {
                const answer = await fetch(portal + "/_portal/files/api/services/export",
                                           {credentials: "include"});
                read = "read " + answer.status;
            } catch (error) {
                read = "blocked";
            }
            return {socket, read};
        }""",
        portal_url,
    )
    assert outcome == {"socket": "error", "read": "blocked"}
    framed = evil.evaluate(
        """async (portal) => await new Promise((resolve) => {
            const frame = document.createElement("iframe");
            frame.src = portal + "/login";
            frame.onload = () => {
                try { resolve(frame.contentDocument ? "readable" : "opaque"); }
                catch (error) { resolve("opaque"); }
            };
            document.body.appendChild(frame);
            setTimeout(() => resolve("timeout"), 8000);
        })""",
        portal_url,
    )
    # Chromium refuses the frame (frame-ancestors 'none') and shows its error page instead.
    assert framed != "readable"
    assert not any("Not the portal" in f.content() for f in evil.frames[1:] if f.url != "")


def test_no_cors_for_a_foreign_origin(portal_url: str) -> None:
    for path in ("/_portal/logout", "/provider/api/users", "/ping"):
        answer = httpx.get(portal_url + path, headers={"Origin": EVIL})
        assert "access-control-allow-origin" not in answer.headers, path
    preflight = httpx.options(
        portal_url + "/provider/login",
        headers={"Origin": EVIL, "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in preflight.headers
    own = httpx.get(portal_url + "/ping", headers={"Origin": portal_url})
    assert own.headers.get("access-control-allow-origin") == portal_url


def test_the_reflex_token_alone_signs_nobody_in(
    browser: Browser, context: BrowserContext, page: Page, portal_url: str
) -> None:
    """DESIGN 2: nothing script can read grants access. The token Reflex keeps in
    sessionStorage is copied into a fresh browser without the HttpOnly cookie, after the tab
    that held it is closed: the new tab is signed out and receives nothing of the user."""
    log_in_as(page, "alice@acme-networks.test", "/services")
    expect(page.get_by_role("heading", name="Services")).to_be_visible()
    # The prerendered heading paints before the websocket opens and Reflex keeps its token.
    token = page.wait_for_function("window.sessionStorage.getItem('token')").json_value()
    assert token
    page.close()

    thief = browser.new_context(base_url=portal_url, locale="en-GB")
    thief.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        thief.add_init_script(f"window.sessionStorage.setItem('token', {token!r});")
        stolen = thief.new_page()
        frames: list[str] = []
        stolen.on(
            "websocket",
            lambda socket: socket.on("framereceived", lambda frame: frames.append(str(frame))),
        )
        stolen.goto("/services")
        expect(stolen).to_have_url(re.compile(r"/login\?redirect=%2Fservices$"))
        assert stolen.evaluate("window.sessionStorage.getItem('token')") == token
        expect(stolen.get_by_role("button", name="Login")).to_be_visible()
        received = "".join(frames)
        assert frames
        assert "alice@acme-networks.test" not in received
        assert "Alice" not in received
    finally:
        thief.close()


def _tab_token(page: Page) -> str:
    """The Reflex token of a tab, once its websocket is open (Reflex keeps it then)."""
    token = page.wait_for_function("window.sessionStorage.getItem('token')").json_value()
    assert token
    return str(token)


@contextmanager
def _forged_reconnect(portal_url: str, token: str) -> Iterator[ReflexSocket]:
    """A client of the attacker's that holds ``token`` and no cookie, connected as a tab
    reconnecting to ``/services`` (portal.reconnect) and hydrated, while the test goes on; in a
    thread of its own beside Playwright's event loop. Its frames are all in once the block ends."""
    hydrated, stop = threading.Event(), threading.Event()
    connected: list[ReflexSocket] = []

    async def hold() -> None:
        async with ReflexSocket(portal_url, token, "/services", first=False) as socket:
            connected.append(socket)
            await socket.until(lambda update: True)
            hydrated.set()
            await asyncio.to_thread(stop.wait)

    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(asyncio.run, hold())
        try:
            while not hydrated.wait(0.1):
                if held.done():
                    held.result()
            yield connected[0]
        finally:
            stop.set()
            held.result()


def test_the_token_of_a_live_tab_takes_nothing_over(page: Page, portal_url: str) -> None:
    """Issue 47, item 11 (with REDIS_URL, where a reconnect may take a token back): a client
    that has a signed-in tab's token and no cookie connects as that tab reconnecting. It gets a
    token of its own and none of the user's data, and the tab keeps receiving its updates."""
    log_in_as(page, "alice@acme-networks.test", "/services")
    expect(page.get_by_test_id("service-card").first).to_be_visible()
    token = _tab_token(page)

    with _forged_reconnect(portal_url, token) as attacker:
        page.locator("a[href='/invoices']").first.click()
        rows = page.get_by_role("table", name="Invoices").get_by_role("row")
        expect(rows.nth(1)).to_be_visible()
        invoice = rows.nth(1).locator("th, td").first.inner_text().strip()
        assert page.evaluate("window.sessionStorage.getItem('token')") == token

    received = "".join(attacker.frames)
    assert attacker.new_token not in ("", token)
    assert invoice
    assert invoice not in received
    assert "alice@acme-networks.test" not in received
    assert "Alice" not in received


def test_an_upload_with_the_token_alone_reaches_no_dialog(
    browser: Browser, page: Page, portal_url: str
) -> None:
    """Issue 47, item 11: Reflex runs an upload's handler on the state of the token it names,
    and the import's (Validate) sends the file on to the provider as the user. Without the tab's
    cookie the upload is refused before that, with no cookie (401) or another user's (403):
    nothing is imported, and the user's own Validate imports the file they chose."""
    log_in_as(page, "alice@acme-networks.test", "/services")
    reference = page.get_by_test_id("service-card").first.get_by_role("link").inner_text()
    page.get_by_role("button", name="Import reference").click()
    dialog = page.get_by_role("dialog", name="Import client references")
    mine = f"reference;clientReferences\r\n{reference};E2E-MINE\r\n".encode()
    dialog.locator("input[type=file]").set_input_files(
        files=[{"name": "mine.csv", "mimeType": "text/csv", "buffer": mine}]
    )
    expect(dialog.get_by_test_id("chosen-file")).to_have_text("mine.csv")
    token = _tab_token(page)

    other = browser.new_context(base_url=portal_url, locale="en-GB")
    try:
        log_in_as(other.new_page(), "claire@globex.test")
        (claire,) = [c["value"] for c in other.cookies() if c["name"] == COOKIE_NAME]
    finally:
        other.close()
    upload = {
        "reflex-client-token": token,
        "reflex-event-handler": f"{ImportState.get_full_name()}.validate",
    }
    # Of the size of the chosen file, as the import checks.
    evil = f"reference;clientReferences\r\n{reference};E2E-EVIL\r\n".encode()
    assert len(evil) == len(mine)
    for cookies, refusal in (({}, 401), ({COOKIE_NAME: claire}, 403)):
        answer = httpx.post(
            f"{portal_url}/_upload",
            headers=upload,
            files={"files": ("mine.csv", evil, "text/csv")},
            cookies=cookies,
        )
        assert answer.status_code == refusal
        assert "updated" not in answer.text

    dialog.get_by_role("button", name="Validate").click()
    expect(page.get_by_text("1 service updated.")).to_be_visible()
    search = page.get_by_label("Search services")
    search.fill("E2E-MINE")
    expect(page.get_by_test_id("service-card")).to_have_count(1)
    expect(page.get_by_test_id("service-card")).to_contain_text(reference)
    search.fill("E2E-EVIL")
    expect(page.get_by_test_id("services-count")).to_have_text("0 services found")


def _violations(page: Page) -> list[str]:
    found: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            found.append(message.text)

    page.on("console", on_console)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    return found


def test_login_and_signed_in_pages_pass_their_csp(page: Page, portal_url: str) -> None:
    violations = _violations(page)
    answer = page.goto("/login")
    assert answer is not None
    headers = answer.headers
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["cache-control"] == "no-store"
    expect(page.get_by_role("button", name="Login")).to_be_visible()
    log_in_as(page, "alice@acme-networks.test")
    for path, heading in (("/services", "Services"), ("/invoices", "Invoicing")):
        page.goto(path)
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Invoicing")).to_be_visible()
    assert violations == []


@pytest.mark.parametrize(
    "path", ["/_portal/files/api/services/export", routes.USER_DOCUMENTATION_EN]
)
def test_documents_keep_no_store_and_nosniff(
    context: BrowserContext, page: Page, portal_url: str, path: str
) -> None:
    log_in_as(page, "alice@acme-networks.test")
    answer = context.request.get(path)
    assert answer.status == 200
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_provider_path_with_a_line_break_reaches_the_provider(portal_url: str) -> None:
    """Issue 18, item 9 (found by schemathesis): behind the portal too, the provider answers a
    path holding a line break with its own 404, not the portal's (ProviderMount)."""
    answer = httpx.get(f"{portal_url}/provider/api/users/%0A")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/ld+json")
    assert answer.json()["@type"] == "hydra:Error"
