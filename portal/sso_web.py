"""Single sign-on's two HTTP routes of the portal (issue 52): the start, which the login page
sends the browser to, and the callback, where the company's identity provider sends it back.

The start asks the provider for the authorisation URL (the provider holds the ``nonce``, the
PKCE verifier and the client secret) and binds the login to this browser with a short-lived
HttpOnly cookie holding its ``state``; the callback takes only a ``state`` that this browser
started, hands the ``code`` to the provider, and opens the portal session as a password login
does. A failure goes back to the login page with its kind (``?sso=…``), which the page says in
the user's language (docs/decisions/sso-oidc.md).
"""

import secrets
from urllib.parse import quote, unquote

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import RedirectResponse

from portal import routes
from portal.client import ProviderClient, ProviderError
from portal.connections import anonymous_client, frontend_url, session_store
from portal.i18n import negotiate_language
from portal.permissions import SECOND_FACTOR_ROLES
from portal.session_store import COOKIE_NAME, PortalSession
from portal.settings import get_settings
from portal.web import own_origin_only

router = APIRouter(include_in_schema=False)

SSO_COOKIE = "PATCHBAY_SSO"
SSO_COOKIE_PATH = routes.SSO_START_PATH.rsplit("/", 1)[0] + "/"
# As long as the provider keeps the login's nonce and verifier.
SSO_COOKIE_SECONDS = 600
# A failure the provider did not name: the identity provider or the provider unreachable.
UNREACHABLE = "sso_unreachable"
FAILED = "sso_failed"


def callback_url() -> str:
    return get_settings().portal_public_url.rstrip("/") + routes.SSO_CALLBACK_PATH


def _failure(error: ProviderError) -> str:
    if error.error_code and error.error_code.startswith("sso_"):
        return error.error_code
    return UNREACHABLE if error.code == 0 or error.code >= 500 else FAILED


def _to_login(failure: str) -> RedirectResponse:
    query = f"?{routes.SSO_FAILURE}={quote(failure)}"
    response = RedirectResponse(frontend_url(routes.LOGIN.path + query), 303)
    response.delete_cookie(SSO_COOKIE, path=SSO_COOKIE_PATH)
    return response


def _client(request: Request) -> ProviderClient:
    language = negotiate_language(request.headers.get("accept-language"))
    return anonymous_client(language, request.client.host if request.client else "")


@router.get(routes.SSO_START_PATH, dependencies=[Depends(own_origin_only)])
async def start_sso(
    request: Request, email: str = "", next_: str = Query("/", alias="next")
) -> RedirectResponse:
    """Sends the browser to the company's identity provider."""
    try:
        async with _client(request) as client:
            started = await client.auth.sso_start(email.strip(), callback_url())
    except ProviderError as error:
        return _to_login(_failure(error))
    settings = get_settings()
    response = RedirectResponse(started.authorization_url, 303)
    response.set_cookie(
        SSO_COOKIE,
        f"{started.state}|{quote(routes.safe_redirect(next_), safe='')}",
        max_age=SSO_COOKIE_SECONDS,
        httponly=True,
        secure=not settings.is_development,
        # Lax: the cookie comes back with the identity provider's top-level redirect.
        samesite="lax",
        path=SSO_COOKIE_PATH,
    )
    return response


@router.get(routes.SSO_CALLBACK_PATH)
async def sso_callback(
    request: Request, state: str = "", code: str = "", error: str = ""
) -> RedirectResponse:
    """The identity provider's answer: a login this browser started, or the login page."""
    held, _, target = request.cookies.get(SSO_COOKIE, "").partition("|")
    if not state or not held or not secrets.compare_digest(held, state):
        return _to_login("sso_state")
    try:
        async with _client(request) as client:
            user_id = await client.auth.sso_finish(state, code, error)
            token, next_page = await _open_session(client, user_id, unquote(target))
    except ProviderError as failure:
        return _to_login(_failure(failure))
    settings = get_settings()
    response = RedirectResponse(frontend_url(next_page), 303)
    response.delete_cookie(SSO_COOKIE, path=SSO_COOKIE_PATH)
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


async def _open_session(client: ProviderClient, user_id: str, target: str) -> tuple[str, str]:
    """The portal session of the provider session just opened, and where the user goes: the
    terms, the second factor's set-up where it is due, or the page they asked for."""
    user = await client.users.get(user_id)
    session = PortalSession(user_id=user.id, provider_cookies=client.cookies())
    if user.has_accepted_terms and set(user.roles) & SECOND_FACTOR_ROLES:
        status = await client.second_factor.status()
        session.second_factor_due = status.required and not status.enrolled
    token = await session_store().create(session)
    if not user.has_accepted_terms:
        return token, routes.TERMS_OF_USE.path
    if session.second_factor_due:
        return token, routes.SECOND_FACTOR.path
    return token, routes.safe_redirect(target)
