"""The public address of a user's maintenance calendar feed (issue 14): calendar programs fetch
``/calendar/{token}.ics`` from the portal, which asks the provider's
``/feeds/maintenances/{token}.ics`` without any session and passes on the iCalendar text. The
URL a user copies is the portal's (``PORTAL_PUBLIC_URL``) whatever provider runs behind it
(docs/decisions/maintenance-calendar-feed.md)."""

import re
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException
from fastapi.responses import Response

from portal import routes
from portal.client import NotFound, ProviderError
from portal.connections import anonymous_client

router = APIRouter(include_in_schema=False)

# What a token can be: the provider's ``pbc_`` and URL-safe characters; anything else is not
# sent on.
_TOKEN = re.compile(r"pbc_[A-Za-z0-9_-]{20,100}")
_PASSED_ON = ("Content-Type", "Content-Disposition", "Cache-Control", "Last-Modified", "ETag")


@router.get(routes.CALENDAR_FEED_PATH + "/{token}.ics")
async def calendar_feed(
    token: str,
    if_none_match: Annotated[str | None, Header()] = None,
    if_modified_since: Annotated[str | None, Header()] = None,
) -> Response:
    """The provider's feed, or its 304 for the copy the calendar program names
    (docs/decisions/calendar-feed-cache.md)."""
    if not _TOKEN.fullmatch(token):
        raise HTTPException(status_code=404)
    conditions = {"If-None-Match": if_none_match, "If-Modified-Since": if_modified_since}
    sent = {name: value for name, value in conditions.items() if value is not None}
    client = anonymous_client("en")
    try:
        answer = await client.request("GET", f"/feeds/maintenances/{token}.ics", headers=sent)
    except ProviderError as error:
        raise HTTPException(status_code=404 if isinstance(error, NotFound) else 502) from error
    finally:
        await client.close()
    headers = {name: answer.headers[name] for name in _PASSED_ON if name in answer.headers}
    headers |= {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
    if answer.status_code == 304:
        return Response(status_code=304, headers=headers)
    return Response(answer.content, headers=headers)
