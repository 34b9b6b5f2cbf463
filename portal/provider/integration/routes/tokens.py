"""API tokens (DESIGN section 5): administrators create, list and revoke them, signed in.

The raw token is in the creation's answer only. A token is made for some kinds of the
integration API (its scopes) and reaches nothing else, these routes included: a leaked token
cannot mint others that outlive its revocation.
"""

import uuid
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Request, Response
from pydantic import AwareDatetime, Field
from sqlmodel import select

from portal.i18n import N_
from portal.provider.integration.kinds import SCOPES
from portal.provider.integration.queries import TOKENS
from portal.provider.platform import audit
from portal.provider.platform.api_tokens import issue_token, revoke_token, token_state
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import (
    ISO_8601,
    ApiModel,
    Collection,
    PaginationDep,
    iri,
)
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import ApiToken, ApiTokenKind, User, utcnow
from portal.provider.platform.people import Someone
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import AdminPrincipal

router = ProviderRouter(prefix="/api/tokens", tags=["API tokens"])

EXPIRY_IN_PAST = N_("The expiry date must be in the future.")
UNKNOWN_SCOPE = N_("{scope} is not a kind of the integration API; the kinds are {kinds}.")


class TokenIn(ApiModel):
    name: str = Field(
        min_length=1,
        max_length=100,
        description="What the token is for, to recognise it in the list.",
        examples=["ERP nightly sync"],
    )
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


class TokenOut(ApiModel):
    iri: str = Field(alias="@id")
    type: str = Field(default="ApiToken", alias="@type")
    id: str
    name: str
    owner: str | None = Field(description="The e-mail of the administrator the token acts as.")
    scopes: list[str] = Field(description="The kinds of the integration API it may write.")
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None
    state: str = Field(description="``active``, ``expired`` or ``revoked``.")


class NewTokenOut(TokenOut):
    token: str = Field(
        description="The token, shown this once: send it as ``Authorization: Bearer <token>``.",
        examples=["pbt_3q2-7zF0c0cJw3mZC1mJxQ9bYkq0m5n8D6x1v5Jk0aA"],
    )


def token_out(token: ApiToken, owner: Someone | None) -> TokenOut:
    return TokenOut(
        iri=iri("tokens", token.id),
        id=str(token.id),
        name=token.name,
        owner=owner.email if owner else None,
        scopes=token.scopes,
        created_at=token.created_at,
        last_used_at=token.last_used_at,
        expires_at=token.expires_at,
        revoked_at=token.revoked_at,
        state=token_state(token),
    )


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
        violations.append(Violation("expiresAt", EXPIRY_IN_PAST))
    if violations:
        raise ApiError(422, violations=violations)
    token, value = issue_token(db, principal.user, body.name.strip(), body.scopes, body.expires_at)
    db.flush()
    audit.record(
        db,
        request,
        "token.create",
        actor=principal.user,
        token_id=str(token.id),
        name=token.name,
        scopes=token.scopes,
    )
    db.commit()
    db.refresh(token)
    out = token_out(token, principal.user)
    return NewTokenOut(**out.model_dump(), token=value)


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
    members = [token_out(token, owners[token.user_id]) for token in tokens]
    return TOKENS.answer(request, members, total, page)


@router.delete(
    "/{token_id}",
    status_code=204,
    response_class=Response,
    summary="Revoke an API token",
    responses={204: {"description": "Revoked (or already revoked)."}, 404: {}},
)
def delete_token(
    token_id: uuid.UUID, request: Request, db: SessionDep, principal: AdminPrincipal
) -> Response:
    """The token stops working at once; it stays in the list as ``revoked``."""
    token = db.get(ApiToken, token_id)
    # A user's personal token is theirs to revoke (``/api/personal_tokens``).
    if token is None or token.kind != ApiTokenKind.INTEGRATION:
        raise ApiError(404)
    if revoke_token(db, token):
        audit.record(
            db,
            request,
            "token.revoke",
            actor=principal.user,
            token_id=str(token.id),
            name=token.name,
        )
        db.commit()
    return Response(status_code=204)
