"""The portal's own HTTP routes beside the pages (DESIGN 2): the hand-over of the session
cookie after login, its removal at logout, and the user documentation PDFs."""

import asyncio
import logging
import re
from functools import cache
from urllib.parse import quote, unquote

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response, StreamingResponse
from starlette.background import BackgroundTask

from portal import routes
from portal.client import ProviderError
from portal.connections import forget_client, frontend_url, session_client, session_store
from portal.docs_pdf import stored_user_documentation
from portal.i18n import match_language, negotiate_language
from portal.origins import is_foreign
from portal.session_store import COOKIE_NAME, DEVICE_COOKIE_NAME, REMEMBERED_DEVICE_SECONDS
from portal.settings import get_settings

logger = logging.getLogger(__name__)


def own_origin_only(request: Request) -> None:
    """Every /_portal route answers only the portal's own pages (issue 18): a page elsewhere
    must not hand the user's session cookie a claim ticket, log them out or fetch a document."""
    if is_foreign(request.headers, get_settings().portal_allowed_origins):
        raise HTTPException(status_code=403)


router = APIRouter(include_in_schema=False, dependencies=[Depends(own_origin_only)])


@router.get(routes.SESSION_CLAIM_PATH)
async def claim_session(
    ticket: str = "", next_: str = Query("/", alias="next")
) -> RedirectResponse:
    """Exchanges a one-time login ticket for the HttpOnly session cookie (and device cookie)."""
    settings = get_settings()
    target = routes.safe_redirect(next_)
    claim = await session_store().redeem_claim_ticket(ticket) if ticket else None
    response = RedirectResponse(frontend_url(target if claim else routes.LOGIN.path), 303)
    if claim is None:
        return response
    cookies = [(COOKIE_NAME, claim.token, settings.session_absolute_hours * 3600)]
    if claim.device:
        cookies.append((DEVICE_COOKIE_NAME, claim.device, REMEMBERED_DEVICE_SECONDS))
    for name, value, max_age in cookies:
        response.set_cookie(
            name,
            value,
            max_age=max_age,
            httponly=True,
            secure=not settings.is_development,
            samesite="lax",
            path="/",
        )
    return response


@router.post(routes.SESSION_END_PATH)
async def end_session(request: Request, next_: str = Query("/", alias="next")) -> RedirectResponse:
    """Logout (issue 18, item 8): a POST of the portal's own page ends the provider session and
    the portal session, then expires the cookie. A GET (a link, an image) ends nothing."""
    token = request.cookies.get(COOKIE_NAME, "")
    session = await session_store().load(token) if token else None
    if session is not None:
        language = negotiate_language(request.headers.get("accept-language"))
        address = request.client.host if request.client else ""
        try:
            await session_client(token, session, language, address).auth.logout()
        except ProviderError as error:
            # The provider session may already be gone; the portal one ends anyway.
            logger.info("Provider logout failed: %s %s", error.code, error.message)
        await forget_client(token)
    if token:
        await session_store().destroy(token)
    response = RedirectResponse(frontend_url(routes.safe_redirect(next_)), 303)
    response.delete_cookie(COOKIE_NAME, path="/")
    return response


@cache
def _documentation(language: str) -> bytes:
    return stored_user_documentation(language, get_settings().data_dir / "user-guide")


@router.get(routes.USER_DOCUMENTATION_FR)
@router.get(routes.USER_DOCUMENTATION_EN)
async def user_documentation(request: Request) -> Response:
    language = "fr" if request.url.path == routes.USER_DOCUMENTATION_FR else "en"
    if await session_store().load(request.cookies.get(COOKIE_NAME, "")) is None:
        raise HTTPException(status_code=401)
    filename = f"{routes.user_documentation_path(language).rsplit('/', 1)[-1]}.pdf"
    return Response(
        await asyncio.to_thread(_documentation, language),
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{filename}"'},
    )


# What a segment of a file path may not hold once decoded: a delimiter the provider would read
# again (``?`` a query, ``#`` a fragment, ``/`` another segment, ``%`` a second encoding, ``\``
# a separator to some servers), nor a control character (a 500 once, on the way to the provider).
_NOT_IN_SEGMENT = re.compile(r"[/?#%\\\x00-\x1f\x7f]")


def document_path(raw_path: bytes) -> str | None:
    """The provider path (``api/…``) a raw ``/_portal/files/…`` path names when it is one of the
    document downloads, else None: each segment decoded once, as the router does, and refused
    when it still says more than one plain segment (docs/decisions/provider-files-route.md)."""
    prefix = routes.FILES_PATH + "/"
    raw = raw_path.decode("latin-1").split("?", 1)[0]
    if not raw.startswith(prefix):
        return None
    segments = [unquote(segment) for segment in raw.removeprefix(prefix).split("/")]
    if any(s in ("", ".", "..") or _NOT_IN_SEGMENT.search(s) for s in segments):
        return None
    path = "/".join(segments)
    return path if routes.is_document_download(path) else None


# What a provider file answer may pass on to the browser; cookies and the rest stay server-side.
_FILE_HEADERS = ("Content-Type", "Content-Disposition", "Content-Length", "Last-Modified")


@router.get(routes.FILES_PATH + "/{path:path}")
async def provider_file(request: Request, path: str) -> StreamingResponse:
    """A provider document, export or template (DESIGN 2), fetched with the user's provider
    session and streamed as it arrives: the browser never holds provider credentials."""
    token = request.cookies.get(COOKIE_NAME, "")
    session = await session_store().load(token)
    if session is None:
        raise HTTPException(status_code=401)
    # The path as the browser sent it; ASGI lets a server leave it out (then the decoded one,
    # encoded again, so that a decoded delimiter is still seen as one).
    raw_path = request.scope.get("raw_path") or quote(request.scope["path"]).encode()
    provider_path = document_path(raw_path)
    if provider_path is None:
        raise HTTPException(status_code=404)
    query = [(k, v) for k, v in request.query_params.multi_items() if k != routes.FILES_LANGUAGE]
    language = match_language(
        request.query_params.get(routes.FILES_LANGUAGE)
        or negotiate_language(request.headers.get("accept-language"))
    )
    address = request.client.host if request.client else ""
    client = session_client(token, session, language, address)
    try:
        answer = await client.open_stream(f"/{provider_path}", params=query)
    except ProviderError as error:
        raise HTTPException(status_code=error.code or 502, detail=error.message) from error
    if not answer.is_success:
        # A redirect (or any answer but a file) is not passed on, nor followed: it would reach
        # the browser as an empty 200, or lead wherever the provider points.
        await answer.aclose()
        raise HTTPException(status_code=502)
    headers = {name: answer.headers[name] for name in _FILE_HEADERS if name in answer.headers}
    if answer.headers.get("Content-Encoding"):
        headers.pop("Content-Length", None)  # the body is passed on decoded
    return StreamingResponse(
        answer.aiter_bytes(), headers=headers, background=BackgroundTask(answer.aclose)
    )
