"""The links of the maintenance notices and ticket e-mails, on the portal's address, reached
without a session (issue 50): the one-click unsubscribe ``/unsubscribe/{token}`` (RFC 8058),
which a ticket token (``tickets.…``) aims at the ticket e-mails and which mail programs
POST to (``List-Unsubscribe-Post``), and the confirmation of an extra address
``/confirm-notices/{token}``. A person following either gets a page whose button POSTs, since a
GET must change nothing (link checkers open every link of a mail). The portal passes the POST
on to the provider (``/notices/unsubscribe/{token}``, ``/notices/confirm/{token}``), which
checks the signature (docs/decisions/maintenance-notices.md)."""

import re
from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from portal import routes
from portal.client import NotFound, ProviderError
from portal.connections import anonymous_client
from portal.i18n import N_, gettext, negotiate_language

router = APIRouter(include_in_schema=False)

# What a token can be (portal.provider.platform.notice_links); anything else is not sent on.
_TOKEN = re.compile(r"(user|address|tickets)\.[0-9a-f]{32}\.[A-Za-z0-9_-]{10,40}")
CONFIRM_QUESTION = N_("Receive the maintenance notices of your company at this address?")
CONFIRM = N_("Confirm this address")
CONFIRMED = N_("This address is confirmed: the maintenance notices will be sent here.")
TITLE = N_("Maintenance notices")
QUESTION = N_("Stop sending maintenance notices to this address?")
STOP = N_("Stop the notices")
DONE = N_("Done: no more maintenance notices will be sent to this address.")
TICKETS_TITLE = N_("Ticket e-mails")
TICKETS_QUESTION = N_("Stop sending the e-mails about tickets to this address?")
TICKETS_STOP = N_("Stop the ticket e-mails")
TICKETS_DONE = N_("Done: no more e-mails about tickets will be sent to this address.")
INVALID = N_("This link is not valid, or was already used for an address that was removed.")
UNAVAILABLE = N_("The portal cannot reach its service just now. Please try again later.")


def _page(
    language: str, text: str, button: str = "", status: int = 200, heading: str = TITLE
) -> HTMLResponse:
    form = (
        '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">'
        f'<button type="submit">{escape(button)}</button></form>'
        if button
        else ""
    )
    title = escape(gettext(language, heading))
    body = (
        f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title></head><body><h1>{title}</h1><p>{escape(text)}</p>{form}"
        "</body></html>"
    )
    return HTMLResponse(
        body,
        status_code=status,
        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
    )


async def _pass_on(
    request: Request, token: str, provider_path: str, done: str, heading: str = TITLE
) -> HTMLResponse:
    language = negotiate_language(request.headers.get("accept-language"))
    if not _TOKEN.fullmatch(token):
        return _page(language, gettext(language, INVALID), status=404, heading=heading)
    client = anonymous_client(language)
    try:
        await client.request("POST", f"{provider_path}/{token}")
    except NotFound:
        return _page(language, gettext(language, INVALID), status=404, heading=heading)
    except ProviderError:
        return _page(language, gettext(language, UNAVAILABLE), status=502, heading=heading)
    finally:
        await client.close()
    return _page(language, gettext(language, done), heading=heading)


def _ask(
    request: Request, token: str, question: str, button: str, heading: str = TITLE
) -> HTMLResponse:
    language = negotiate_language(request.headers.get("accept-language"))
    if not _TOKEN.fullmatch(token):
        return _page(language, gettext(language, INVALID), status=404, heading=heading)
    return _page(language, gettext(language, question), gettext(language, button), heading=heading)


@router.get(routes.UNSUBSCRIBE_PATH + "/{token}")
async def unsubscribe_page(token: str, request: Request) -> HTMLResponse:
    if token.startswith("tickets."):
        return _ask(request, token, TICKETS_QUESTION, TICKETS_STOP, TICKETS_TITLE)
    return _ask(request, token, QUESTION, STOP)


@router.post(routes.UNSUBSCRIBE_PATH + "/{token}")
async def unsubscribe(token: str, request: Request) -> HTMLResponse:
    if token.startswith("tickets."):
        return await _pass_on(request, token, "/notices/unsubscribe", TICKETS_DONE, TICKETS_TITLE)
    return await _pass_on(request, token, "/notices/unsubscribe", DONE)


@router.get(routes.CONFIRM_NOTICES_PATH + "/{token}")
async def confirmation_page(token: str, request: Request) -> HTMLResponse:
    return _ask(request, token, CONFIRM_QUESTION, CONFIRM)


@router.post(routes.CONFIRM_NOTICES_PATH + "/{token}")
async def confirm(token: str, request: Request) -> HTMLResponse:
    return await _pass_on(request, token, "/notices/confirm", CONFIRMED)
