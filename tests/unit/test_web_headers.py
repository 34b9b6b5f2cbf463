"""Issue 18, item 4: the headers of what the portal serves itself, in production (HSTS) and in
development (none), on a page with an inline script, on a document and on a static asset."""

import base64
import hashlib

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from fastapi.testclient import TestClient

from portal import routes
from portal.web_headers import PortalSecurityHeaders

INLINE = b"window.__lang = 'en';"
PAGE = b"<html><head><script>" + INLINE + b"</script><script src='/a.js'></script></head></html>"
DOCUMENT = routes.SESSION_CLAIM_PATH.rsplit("/", 1)[0] + "/files/invoice.pdf"


def _portal(*, hsts: bool) -> TestClient:
    app = FastAPI()

    @app.get("/services")
    def page() -> HTMLResponse:
        return HTMLResponse(PAGE)

    @app.get(DOCUMENT)
    def document() -> Response:
        return Response(b"%PDF-1.7", media_type="application/pdf")

    @app.get("/assets/app.js")
    def asset() -> PlainTextResponse:
        return PlainTextResponse("export {}", media_type="text/javascript")

    app.add_middleware(PortalSecurityHeaders, public_url="https://portal.example", hsts=hsts)
    return TestClient(app)


@pytest.mark.parametrize("path", ["/services", DOCUMENT, "/assets/app.js"])
def test_production_sends_hsts_nosniff_and_a_referrer_policy_everywhere(path: str) -> None:
    headers = _portal(hsts=True).get(path).headers
    assert headers["Strict-Transport-Security"] == "max-age=63072000; includeSubDomains"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_development_sends_no_hsts() -> None:
    assert "Strict-Transport-Security" not in _portal(hsts=False).get("/services").headers


def test_a_page_allows_its_own_inline_script_its_websocket_and_no_framing() -> None:
    answer = _portal(hsts=True).get("/services")
    assert answer.content == PAGE
    policy = dict(
        part.strip().split(" ", 1) for part in answer.headers["Content-Security-Policy"].split(";")
    )
    digest = base64.b64encode(hashlib.sha256(INLINE).digest()).decode()
    assert f"'sha256-{digest}'" in policy["script-src"].split()
    assert "'unsafe-inline'" not in policy["script-src"]
    assert policy["connect-src"] == "'self' wss://portal.example"
    assert policy["frame-ancestors"] == "'none'"
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert answer.headers["Cache-Control"] == "no-store"


def test_a_document_is_not_stored_and_may_be_framed_by_the_portal_only() -> None:
    headers = _portal(hsts=True).get(DOCUMENT).headers
    assert headers["Cache-Control"] == "no-store"
    assert headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'self'"
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
