"""Security headers on everything the portal serves itself (issue 18, DESIGN 4): its pages, its
/_portal routes and documents. The embedded provider, served before them
(``portal.provider_first``), sets its own.

Pages get a Content-Security-Policy the compiled app passes with: scripts from the portal only
(the inline scripts of the built HTML by their hashes, ``'unsafe-eval'`` because Reflex runs
``rx.call_script`` through ``eval``), styles inline as Radix and Emotion write them, connections
to the portal and its websocket only, and no framing at all. Documents keep ``no-store`` and
``nosniff``, may be shown inside the portal only (the user guide's viewer), and anything but a
PDF opens sandboxed, so an uploaded HTML file cannot run as the portal.
"""

import base64
import hashlib
import re
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal import routes

_HSTS = "max-age=63072000; includeSubDomains"
_INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL)
# The portal's own routes (portal.web): the session hand-over, files and the user guide.
_PORTAL_PREFIXES = (
    routes.SESSION_CLAIM_PATH.rsplit("/", 1)[0] + "/",
    routes.USER_DOCUMENTATION_FR,
)


def websocket_origin(public_url: str) -> str:
    """``ws://host[:port]`` (``wss`` behind HTTPS) of the portal's public URL."""
    parts = urlsplit(public_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}"


def page_policy(websocket: str, script_hashes: list[str]) -> str:
    scripts = " ".join(f"'{digest}'" for digest in script_hashes)
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' 'unsafe-eval' {scripts}".strip(),
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            f"connect-src 'self' {websocket}",
            "object-src 'self'",
            "frame-src 'self'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def inline_script_hashes(html: bytes) -> list[str]:
    return [
        "sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode()
        for body in _INLINE_SCRIPT.findall(html)
    ]


class PortalSecurityHeaders:
    """Adds the headers as a response starts; HTML pages are read whole (they are small and
    static) to hash their inline scripts into the policy."""

    def __init__(self, app: ASGIApp, *, public_url: str, hsts: bool) -> None:
        self.app = app
        self.hsts = hsts
        self.websocket = websocket_origin(public_url)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        portal_route = path.startswith(_PORTAL_PREFIXES)
        if not path.startswith("/assets/"):
            # A page must come as body messages to be hashed, not as a file the server sends
            # itself (Granian's pathsend): Starlette falls back to the body without it. Pages
            # are small; the assets (scripts, styles) keep both.
            extensions = {
                name: value
                for name, value in (scope.get("extensions") or {}).items()
                if name not in ("http.response.pathsend", "http.response.zerocopy")
            }
            # Nor compressed: the static files come pre-compressed to a browser that asks.
            request_headers = [
                (name, value) for name, value in scope["headers"] if name != b"accept-encoding"
            ]
            scope = {**scope, "extensions": extensions, "headers": request_headers}
        held: list[Message] = []

        def common(headers: MutableHeaders) -> None:
            headers.setdefault("X-Content-Type-Options", "nosniff")
            headers.setdefault("Referrer-Policy", "same-origin")
            if self.hsts:
                headers.setdefault("Strict-Transport-Security", _HSTS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                common(headers)
                if portal_route:
                    pdf = headers.get("content-type", "").startswith("application/pdf")
                    policy = "default-src 'none'; frame-ancestors 'self'"
                    headers["Content-Security-Policy"] = policy if pdf else policy + "; sandbox"
                    headers["Cache-Control"] = "no-store"
                    headers.setdefault("X-Frame-Options", "SAMEORIGIN")
                elif headers.get("content-type", "").startswith("text/html"):
                    held.append(message)  # sent with the body, once its scripts are hashed
                    return
            elif held:
                held.append(message)
                if message.get("more_body"):
                    return
                await _send_page(held, send)
                return
            await send(message)

        async def _send_page(messages: list[Message], send: Send) -> None:
            start, bodies = messages[0], messages[1:]
            html = b"".join(part.get("body", b"") for part in bodies)
            headers = MutableHeaders(scope=start)
            headers["Content-Security-Policy"] = page_policy(
                self.websocket, inline_script_hashes(html)
            )
            headers["X-Frame-Options"] = "DENY"
            # The page shell holds no personal data, but a signed-in screen must not linger in a
            # shared cache or the back-forward history of a shared computer.
            headers["Cache-Control"] = "no-store"
            if "content-length" in headers:
                headers["Content-Length"] = str(len(html))
            await send(start)
            await send({"type": "http.response.body", "body": html, "more_body": False})

        await self.app(scope, receive, send_with_headers)
