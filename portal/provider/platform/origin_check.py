"""The provider refuses a write that a page of another origin sends (issue 18, besides
SameSite): a state-changing request whose ``Origin`` (or, without it, ``Referer``) is not one of
the portal's origins is a 403. Servers (the portal's backend, integrations) send neither header
and are not concerned."""

from fastapi import Request

from portal.origins import SAFE_METHODS, is_foreign
from portal.provider.platform.errors import ApiError
from portal.settings import get_settings


async def refuse_foreign_writes(request: Request) -> None:
    if request.method in SAFE_METHODS:
        return
    if is_foreign(request.headers, get_settings().portal_allowed_origins):
        raise ApiError(403)
