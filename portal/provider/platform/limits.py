"""Size limits on every request (issue 18): a JSON body of 20 MB was read whole before this.

A body longer than ``body_max_bytes`` (``integration_body_max_bytes`` on the integration API,
whose batches are large by design; the largest file an upload route takes and its envelope for a
multipart upload)
is a 413, refused from its declared ``Content-Length`` before anything is read, or as soon as a
body without one passes the limit; the upload routes then check the file itself. A query string
over ``query_max_bytes`` is a 414 and request headers over ``headers_max_bytes`` a 431. Errors
have the provider's shape, in the request's language.
"""

import json

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal.i18n import N_, gettext, negotiate_language
from portal.provider.platform.errors import error_body
from portal.provider.platform.uploads import ENVELOPE_BYTES
from portal.settings import get_settings

INTEGRATION_PREFIX = "/api/integration/"
BODY_TOO_LARGE = N_("The request body is larger than the limit of {max} kB.")
URI_TOO_LONG = N_("The address of the request is too long.")
HEADERS_TOO_LARGE = N_("The headers of the request are too large.")


class RequestLimits:
    """The limits, on the portal's backend and on the provider (which the portal serves before
    its backend, ``portal.provider_first``): a request crosses one of them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        settings = get_settings()
        headers = Headers(scope=scope)
        if len(scope.get("query_string", b"")) > settings.query_max_bytes:
            await _refuse(send, headers, 414, URI_TOO_LONG)
            return
        if sum(len(name) + len(value) for name, value in scope["headers"]) > (
            settings.headers_max_bytes
        ):
            await _refuse(send, headers, 431, HEADERS_TOO_LARGE)
            return
        limit = _body_limit(scope.get("path", ""), headers.get("content-type", ""))
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            await _refuse(send, headers, 413, BODY_TOO_LARGE, max=limit // 1024)
            return
        if declared.isdigit() or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, _bounded(receive, limit), send)
            return
        # No declared length: the body is read here, up to the limit, before any route sees it
        # (a route reading it would turn the refusal into its own 400).
        messages: list[Message] = []
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            received += len(message.get("body", b""))
            if received > limit:
                await _refuse(send, headers, 413, BODY_TOO_LARGE, max=limit // 1024)
                return
            if not message.get("more_body"):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def _body_limit(path: str, content_type: str) -> int:
    """The integration API's batches and files are large by design; an upload may be as large
    as a CSV import or a ticket attachment allows, with its multipart envelope; any other body
    is small."""
    settings = get_settings()
    if INTEGRATION_PREFIX in path:
        return settings.integration_body_max_bytes
    if content_type.lower().startswith("multipart/form-data"):
        largest_file = max(settings.import_max_bytes, settings.ticket_attachment_max_bytes)
        return max(settings.body_max_bytes, largest_file + ENVELOPE_BYTES)
    return settings.body_max_bytes


def _bounded(receive: Receive, limit: int) -> Receive:
    """A receive that stops a body longer than it said it would be."""
    received = 0

    async def bounded() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                return {"type": "http.disconnect"}
        return message

    return bounded


async def _refuse(
    send: Send, headers: Headers, status: int, message: str, **params: object
) -> None:
    # The language is negotiated only here: most requests pass.
    language = negotiate_language(headers.get("accept-language"))
    body = json.dumps(error_body(language, status, gettext(language, message, **params))).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/ld+json; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
