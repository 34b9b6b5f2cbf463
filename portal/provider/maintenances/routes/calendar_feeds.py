"""The private calendar feed of maintenances (issue 14, beyond the spec).

``/api/calendar_feed`` is the signed-in customer's own feed: whether it exists, a new token
(shown once, the old one stops working) and its revocation, both in the audit log. Staff get
none: theirs would hold every customer's maintenances. ``/feeds/maintenances/{token}.ics`` is the
feed itself, public but for the token: calendar programs send no cookie. An unknown, replaced or
revoked token, or one whose user may no longer read, answers 404 and nothing else.
"""

import datetime as dt
import logging
from typing import Annotated, Literal

import redis
from fastapi import Header, Request, Response
from pydantic import Field

from portal.i18n import N_
from portal.provider.maintenances import feed_cache
from portal.provider.maintenances.calendar_feed import build_feed
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.feed_links import (
    feed_path,
    feed_reader,
    issue_feed,
    record_feed_event,
    revoke_feed,
    user_feed,
)
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import CurrentPrincipal, Principal

logger = logging.getLogger(__name__)
router = ProviderRouter(tags=["maintenances"])

FEED = "/api/calendar_feed"
NOT_WHILE_IMPERSONATING = N_("A calendar link can only be made by its own user.")
NOT_FOR_STAFF = N_(
    "Staff have no calendar link: it would hold every customer's maintenances. The maintenances "
    "page shows them."
)


class CalendarFeedOut(ApiModel):
    type: Literal["CalendarFeed"] = Field(default="CalendarFeed", alias="@type")
    active: bool
    created_at: dt.datetime | None = None
    last_used_at: dt.datetime | None = Field(
        default=None, description="When a calendar program last read the feed (to the hour)."
    )


class NewCalendarFeedOut(CalendarFeedOut):
    token: str = Field(description="Shown once: only its hash is kept.")
    path: str = Field(description="The feed's path on this API, token included.")


def _own(principal: Principal) -> None:
    """The token is a credential of its user: nobody mints one in another's name."""
    if principal.impersonator is not None:
        raise ApiError(403, NOT_WHILE_IMPERSONATING)


@router.get(FEED, response_model=CalendarFeedOut)
def read_feed(db: SessionDep, principal: CurrentPrincipal) -> CalendarFeedOut:
    feed = user_feed(db, principal.user)
    if feed is None:
        return CalendarFeedOut(active=False)
    return CalendarFeedOut(active=True, created_at=feed.created_at, last_used_at=feed.last_used_at)


@router.post(FEED, response_model=NewCalendarFeedOut, status_code=201)
def create_feed(
    request: Request, db: SessionDep, principal: CurrentPrincipal, language: LanguageDep
) -> NewCalendarFeedOut:
    """A new feed URL; the previous one, if any, stops working at once. Customers only."""
    _own(principal)
    if principal.is_staff:
        raise ApiError(403, NOT_FOR_STAFF)
    replaced = user_feed(db, principal.user) is not None
    feed, token = issue_feed(db, principal.user, language)
    record_feed_event(db, "calendar_feed.create", principal.user, request, replaced=replaced)
    db.commit()
    return NewCalendarFeedOut(
        active=True, created_at=feed.created_at, token=token, path=feed_path(token)
    )


@router.delete(FEED, status_code=204)
def delete_feed(request: Request, db: SessionDep, principal: CurrentPrincipal) -> Response:
    _own(principal)
    if revoke_feed(db, principal.user):
        record_feed_event(db, "calendar_feed.revoke", principal.user, request, reason="user")
    db.commit()
    return Response(status_code=204)


_FEED_HEADERS = {
    "Cache-Control": "private, no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex",
}


@router.get(
    "/feeds/maintenances/{token}.ics",
    response_class=Response,
    responses={
        200: {
            "content": {"text/calendar": {}},
            "headers": {
                "ETag": {"description": "Changes with the feed.", "schema": {"type": "string"}},
                "Last-Modified": {
                    "description": "The feed's last change.",
                    "schema": {"type": "string"},
                },
            },
        },
        304: {
            "description": "Unchanged since the copy named by If-None-Match or "
            "If-Modified-Since; no body."
        },
        404: {"description": "No such feed."},
    },
)
def maintenance_feed(
    token: str,
    db: SessionDep,
    if_none_match: Annotated[str | None, Header()] = None,
    if_modified_since: Annotated[str | None, Header()] = None,
) -> Response:
    """The feed, or 304 when the caller's copy is current: the validator is one small query,
    the feed itself is built only when it changed (docs/decisions/calendar-feed-cache.md)."""
    found = feed_reader(db, token)
    if found is None:
        raise ApiError(404)
    feed, principal = found
    try:
        current = feed_cache.validator(db, feed, principal)
    except redis.RedisError:
        logger.exception("calendar feed: Redis unreadable, the feed is built without its cache")
        return _feed_response(build_feed(db, principal, feed.language), {})
    headers = {"ETag": current.etag, "Last-Modified": feed_cache.http_date(current.last_modified)}
    if current.matches(if_none_match, if_modified_since):
        return Response(status_code=304, headers=headers | _FEED_HEADERS)
    body = feed_cache.cached(feed, current)
    if body is None:
        body = build_feed(db, principal, feed.language)
        feed_cache.keep(feed, current, body)
    return _feed_response(body, headers)


def _feed_response(body: bytes, headers: dict[str, str]) -> Response:
    return Response(
        body,
        media_type="text/calendar; charset=utf-8",
        headers={
            "Content-Disposition": 'inline; filename="maintenances.ics"',
            **_FEED_HEADERS,
            **headers,
        },
    )
