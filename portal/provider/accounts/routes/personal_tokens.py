"""Personal API tokens (issue 51): the caller makes, lists and revokes their own, logged in.

A personal token reads the customer routes of its scopes as its owner (``security``). Only a
user the table grants ``CREATE_API_TOKENS`` makes one, never while impersonated: a token made
then would outlive the impersonation. Everyone lists and revokes their own tokens, and only
those (another user's id answers 404, staff included). The raw token is in the creation's
answer only; a token expires within a year.
"""

import uuid
from typing import Annotated

from fastapi import Depends, Request, Response
from pydantic import AwareDatetime, Field
from sqlmodel import select

from portal.i18n import N_
from portal.permissions import CREATE_API_TOKENS
from portal.provider.accounts.queries import PERSONAL_TOKENS
from portal.provider.platform import api_token_routes
from portal.provider.platform.api_tokens import LONGEST_PERSONAL, READ_SCOPES, may_read
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import ISO_8601, Collection, PaginationDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import ApiToken, ApiTokenKind, utcnow
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import CurrentPrincipal

router = ProviderRouter(prefix="/api/personal_tokens", tags=["personal API tokens"])

NOT_WHILE_IMPERSONATING = N_("A token cannot be made while impersonating a user.")
UNKNOWN_READ_SCOPE = N_("{scope} is not something a token reads; it reads {scopes}.")
SCOPE_NOT_YOURS = N_("You may not read {scope} yourself, so neither may your token.")
SCOPE_TWICE = N_("{scope} is named twice.")
EXPIRY_TOO_FAR = N_("A token expires within a year.")


class PersonalTokenIn(api_token_routes.TokenInBase):
    name: api_token_routes.TokenName = Field(examples=["NOC dashboard"])
    scopes: list[str] = Field(
        min_length=1,
        max_length=len(READ_SCOPES),
        description="What the token reads; of it, only what its user may read at each request.",
        examples=[["services", "maintenances"]],
        json_schema_extra={"items": {"type": "string", "enum": list(READ_SCOPES)}},
    )
    expires_at: Annotated[AwareDatetime, ISO_8601] = Field(
        description="When the token stops working (ISO 8601 with a time zone): within a year.",
        examples=["2027-06-30T23:59:59Z"],
    )


class PersonalTokenOut(api_token_routes.TokenOutBase):
    collection = "personal_tokens"

    type: str = Field(default="PersonalApiToken", alias="@type")
    scopes: list[str] = Field(description="What the token reads.")


class NewPersonalTokenOut(PersonalTokenOut):
    token: api_token_routes.TokenValue


def _violations(body: PersonalTokenIn, principal: CurrentPrincipal) -> list[Violation]:
    violations: list[Violation] = []
    for index, scope in enumerate(body.scopes):
        path = f"scopes[{index}]"
        if scope not in READ_SCOPES:
            known = ", ".join(READ_SCOPES)
            violations.append(
                Violation(path, UNKNOWN_READ_SCOPE, {"scope": scope, "scopes": known})
            )
        elif scope in body.scopes[:index]:
            violations.append(Violation(path, SCOPE_TWICE, {"scope": scope}))
        elif not may_read(principal.rules, scope):
            violations.append(Violation(path, SCOPE_NOT_YOURS, {"scope": scope}))
    now = utcnow()
    if body.expires_at <= now:
        violations.append(Violation("expiresAt", api_token_routes.EXPIRY_IN_PAST))
    elif body.expires_at > now + LONGEST_PERSONAL:
        violations.append(Violation("expiresAt", EXPIRY_TOO_FAR))
    return violations


@router.post(
    "",
    status_code=201,
    response_model=NewPersonalTokenOut,
    summary="Create a personal API token",
    responses={403: {"description": "Not allowed to make tokens, or impersonating."}},
)
def create_token(
    body: PersonalTokenIn, request: Request, db: SessionDep, principal: CurrentPrincipal
) -> NewPersonalTokenOut:
    """A token reading the scopes as the caller; the answer is the only time it is shown."""
    if not principal.allows(CREATE_API_TOKENS):
        raise ApiError(403)
    if principal.impersonator is not None:
        raise ApiError(403, NOT_WHILE_IMPERSONATING)
    violations = _violations(body, principal)
    if violations:
        raise ApiError(422, violations=violations)
    token, value = api_token_routes.create(db, request, principal.user, body, ApiTokenKind.PERSONAL)
    return NewPersonalTokenOut.of(token, token=value)


@router.get(
    "", response_model=Collection[PersonalTokenOut], summary="List your personal API tokens"
)
def list_tokens(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    sort: Annotated[Sort, Depends(PERSONAL_TOKENS.sorting.read)],
) -> Collection[PersonalTokenOut]:
    """The caller's own tokens, newest first, without their values."""
    tokens, total = PERSONAL_TOKENS.page(db, principal, select(ApiToken), sort, page)
    return PERSONAL_TOKENS.answer(
        request, [PersonalTokenOut.of(token) for token in tokens], total, page
    )


@router.delete(
    "/{token_id}", summary="Revoke one of your personal API tokens", **api_token_routes.REVOCATION
)
def delete_token(
    token_id: uuid.UUID, request: Request, db: SessionDep, principal: CurrentPrincipal
) -> Response:
    """The token stops working at once; it stays in the list as ``revoked``."""
    return api_token_routes.revoke(
        db, request, principal.user, token_id, ApiTokenKind.PERSONAL, principal.user
    )
