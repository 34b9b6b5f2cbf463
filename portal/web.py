"""The portal's own HTTP routes beside the pages (DESIGN 2): the hand-over of the session
cookie after login, its removal at logout, and the user documentation PDFs."""

import asyncio
from functools import cache

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response

from portal import routes
from portal.connections import frontend_url, session_store
from portal.docs_pdf import build_user_documentation
from portal.session_store import COOKIE_NAME
from portal.settings import get_settings

router = APIRouter(include_in_schema=False)


@router.get(routes.SESSION_CLAIM_PATH)
async def claim_session(
    ticket: str = "", next_: str = Query("/", alias="next")
) -> RedirectResponse:
    """Exchanges a one-time login ticket for the HttpOnly session cookie."""
    settings = get_settings()
    target = routes.safe_redirect(next_)
    token = await session_store().redeem_claim_ticket(ticket) if ticket else None
    response = RedirectResponse(frontend_url(target if token else routes.LOGIN.path), 303)
    if token:
        response.set_cookie(
            COOKIE_NAME,
            token,
            max_age=settings.session_absolute_hours * 3600,
            httponly=True,
            secure=not settings.is_development,
            samesite="lax",
            path="/",
        )
    return response


@router.get(routes.SESSION_END_PATH)
async def end_session(request: Request, next_: str = Query("/", alias="next")) -> RedirectResponse:
    token = request.cookies.get(COOKIE_NAME)
    if token:
        await session_store().destroy(token)
    response = RedirectResponse(frontend_url(routes.safe_redirect(next_)), 303)
    response.delete_cookie(COOKIE_NAME, path="/")
    return response


@cache
def _documentation(language: str) -> bytes:
    return build_user_documentation(language)


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
