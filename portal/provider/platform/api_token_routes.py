"""What the two routers of API tokens share: the administrators' integration tokens
(``/api/tokens``) and the users' personal ones (``/api/personal_tokens``) are rows of one table,
answered with the same fields, made and revoked with the same audit entries (``kind`` telling
them apart)."""

import uuid
from datetime import datetime
from typing import Annotated, Any, ClassVar, Self

from fastapi import Request, Response
from pydantic import Field
from sqlmodel import Session, col, select

from portal.i18n import N_
from portal.provider.platform import audit
from portal.provider.platform.api_tokens import issue_token, revoke_token, token_state
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ApiModel, iri
from portal.provider.platform.models import ApiToken, ApiTokenKind
from portal.provider.platform.people import Someone

EXPIRY_IN_PAST = N_("The expiry date must be in the future.")

# How both routers answer a revocation, in the OpenAPI document too.
REVOCATION: dict[str, Any] = {
    "status_code": 204,
    "response_class": Response,
    "responses": {204: {"description": "Revoked (or already revoked)."}, 404: {}},
}

# The token's name, as either creation reads it.
TokenName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="What the token is for, to recognise it in the list.",
    ),
]
# The raw token, in a creation's answer only.
TokenValue = Annotated[
    str,
    Field(
        description="The token, shown this once: send it as ``Authorization: Bearer <token>``.",
        examples=["pbt_3q2-7zF0c0cJw3mZC1mJxQ9bYkq0m5n8D6x1v5Jk0aA"],
    ),
]


class TokenInBase(ApiModel):
    """What either creation reads; each route describes and bounds the scopes and expiry."""

    name: TokenName
    scopes: list[str]
    expires_at: datetime | None


class TokenOutBase(ApiModel):
    """A token as its list shows it, never with its value; ``collection`` names its IRI's."""

    collection: ClassVar[str]

    iri: str = Field(alias="@id")
    type: str = Field(alias="@type")
    id: str
    name: str
    scopes: list[str]
    created_at: datetime
    last_used_at: datetime | None = Field(description="Noted at most once a minute.")
    expires_at: datetime | None
    revoked_at: datetime | None
    state: str = Field(description="``active``, ``expired`` or ``revoked``.")

    @classmethod
    def of(cls, row: ApiToken, **more: Any) -> Self:
        """The answer for ``row``, with ``more`` fields a subclass adds."""
        return cls(
            iri=iri(cls.collection, row.id),
            id=str(row.id),
            name=row.name,
            scopes=row.scopes,
            created_at=row.created_at,
            last_used_at=row.last_used_at,
            expires_at=row.expires_at,
            revoked_at=row.revoked_at,
            state=token_state(row),
            **more,
        )


def create(
    db: Session,
    request: Request,
    owner: Someone,
    body: TokenInBase,
    kind: ApiTokenKind,
) -> tuple[ApiToken, str]:
    """A new token of ``owner`` as ``body`` asks (checked by the caller), on record and
    committed: the row and the raw value, which the answer shows once."""
    token, value = issue_token(
        db, owner, body.name.strip(), body.scopes, body.expires_at, kind=kind
    )
    db.flush()
    audit.record(
        db,
        request,
        "token.create",
        actor=owner,
        token_id=str(token.id),
        name=token.name,
        scopes=token.scopes,
        kind=token.kind.value,
    )
    db.commit()
    db.refresh(token)
    return token, value


def revoke(
    db: Session,
    request: Request,
    actor: Someone,
    token_id: uuid.UUID,
    kind: ApiTokenKind,
    owner: Someone | None = None,
) -> Response:
    """Revoke on ``actor``'s word the token of ``token_id`` and ``kind`` (and of ``owner`` when
    given: anyone else's is a 404), on record; nothing when it already was."""
    query = select(ApiToken).where(col(ApiToken.id) == token_id, col(ApiToken.kind) == kind)
    if owner is not None:
        query = query.where(col(ApiToken.user_id) == owner.id)
    token = db.exec(query).first()
    if token is None:
        raise ApiError(404)
    if revoke_token(db, token):
        audit.record(
            db,
            request,
            "token.revoke",
            actor=actor,
            token_id=str(token.id),
            name=token.name,
            kind=token.kind.value,
        )
        db.commit()
    return Response(status_code=204)
