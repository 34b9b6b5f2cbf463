"""API tokens (DESIGN section 5): administrators create, list and revoke them, logged in.

The raw token is in the creation's answer only. A token is made for some kinds of the
integration API (its scopes) and reaches nothing else, these routes included: a leaked token
cannot mint others that outlive its revocation.
"""

import uuid
from typing import Annotated

from fastapi import Depends, Request, Response
from pydantic import AwareDatetime, Field
from sqlmodel import select

from portal.i18n import N_
from portal.provider.integration.kinds import SCOPES
from portal.provider.integration.queries import TOKENS
from portal.provider.platform import api_token_routes
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import (
    ISO_8601,
    Collection,
    PaginationDep,
)
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import ApiToken, ApiTokenKind, User, utcnow
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import AdminPrincipal

router = ProviderRouter(prefix="/api/tokens", tags=["API tokens"])

UNKNOWN_SCOPE = N_("{scope} is not a kind of the integration API; the kinds are {kinds}.")


class TokenIn(api_token_routes.TokenInBase):
    name: api_token_routes.TokenName = Field(examples=["ERP nightly sync"])
    scopes: list[str] = Field(
        min_length=1,
        description="The kinds of the integration API the token may write; it reaches nothing "
        "else of the API. Users only when the token must make accounts.",
        examples=[["services", "invoices"]],
        json_schema_extra={"items": {"type": "string", "enum": list(SCOPES)}},
    )
    expires_at: Annotated[AwareDatetime, ISO_8601] | None = Field(
        default=None,
        description="When the token stops working (ISO 8601 with a time zone); never if absent.",
        examples=["2027-12-31T23:59:59Z"],
    )


class TokenOut(api_token_routes.TokenOutBase):
    collection = "tokens"

    type: str = Field(default="ApiToken", alias="@type")
    owner: str | None = Field(description="The e-mail of the administrator the token acts as.")
    scopes: list[str] = Field(description="The kinds of the integration API it may write.")


class NewTokenOut(TokenOut):
    token: api_token_routes.TokenValue


@router.post(
    "",
    status_code=201,
    response_model=NewTokenOut,
    summary="Create an API token",
    responses={403: {"description": "Not an administrator's session (a token is refused)."}},
)
def create_token(
    body: TokenIn, request: Request, db: SessionDep, principal: AdminPrincipal
) -> NewTokenOut:
    """A token acting as the calling administrator on the kinds of its scopes; the answer is
    the only time it is shown."""
    violations = [
        Violation(f"scopes[{index}]", UNKNOWN_SCOPE, {"scope": scope, "kinds": ", ".join(SCOPES)})
        for index, scope in enumerate(body.scopes)
        if scope not in SCOPES
    ]
    if body.expires_at is not None and body.expires_at <= utcnow():
        violations.append(Violation("expiresAt", api_token_routes.EXPIRY_IN_PAST))
    if violations:
        raise ApiError(422, violations=violations)
    token, value = api_token_routes.create(
        db, request, principal.user, body, ApiTokenKind.INTEGRATION
    )
    return NewTokenOut.of(token, owner=principal.user.email, token=value)


@router.get("", response_model=Collection[TokenOut], summary="List the API tokens")
def list_tokens(
    request: Request,
    db: SessionDep,
    principal: AdminPrincipal,
    page: PaginationDep,
    sort: Annotated[Sort, Depends(TOKENS.sorting.read)],
) -> Collection[TokenOut]:
    """Every administrator's tokens, newest first, without their values."""
    tokens, total = TOKENS.page(db, principal, select(ApiToken), sort, page)
    owners = {token.user_id: db.get(User, token.user_id) for token in tokens}
    members = []
    for token in tokens:
        owner = owners[token.user_id]
        members.append(TokenOut.of(token, owner=owner.email if owner else None))
    return TOKENS.answer(request, members, total, page)


@router.delete("/{token_id}", summary="Revoke an API token", **api_token_routes.REVOCATION)
def delete_token(
    token_id: uuid.UUID, request: Request, db: SessionDep, principal: AdminPrincipal
) -> Response:
    """The token stops working at once; it stays in the list as ``revoked``."""
    # A user's personal token is theirs to revoke (``/api/personal_tokens``): a 404 here.
    return api_token_routes.revoke(db, request, principal.user, token_id, ApiTokenKind.INTEGRATION)
