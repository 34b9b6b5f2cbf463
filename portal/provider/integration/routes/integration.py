"""The integration API's batches (DESIGN section 5): ``PUT /api/integration/{kind}`` with a JSON
array, for administrators (an administrator's session, or an API token whose scopes hold the
kind).

One route per kind, so each is documented with its own object schema, limit and example. The
whole batch is validated before anything is written, then written in one transaction.
"""

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Body, Depends, Request
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from portal.i18n import N_
from portal.provider.integration.batch import BatchResult, Kind, upsert
from portal.provider.integration.kinds import KINDS
from portal.provider.platform import audit
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import Principal, integration_writer

router = ProviderRouter(prefix="/api/integration", tags=["integration"])

CONFLICT = N_("Another change to the same objects was written meanwhile: send the batch again.")

_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {
        "description": "The caller is not an administrator, or is an API token without this "
        "kind in its scopes."
    },
    409: {"description": "A concurrent write touched the same objects; nothing was written."},
    413: {"description": "More objects than the kind's limit; nothing was written."},
    422: {
        "description": "Invalid batch; nothing was written. Each violation names the object's "
        "index in the array and its field.",
        "content": {
            "application/ld+json": {
                "example": {
                    "@type": "hydra:Error",
                    "status": 422,
                    "detail": "The batch is not valid: nothing was written.",
                    "violations": [
                        {"propertyPath": "[3].company", "message": "Nothing has the reference C-9."}
                    ],
                }
            }
        },
    },
}


def _inline(schema: Any, definitions: dict[str, Any]) -> Any:
    """``schema`` with its ``$ref``s replaced by their definitions: a self-contained request
    schema in the OpenAPI document (the object models are not otherwise in its components)."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            return _inline(definitions[schema["$ref"].rsplit("/", 1)[-1]], definitions)
        return {key: _inline(value, definitions) for key, value in schema.items() if key != "$defs"}
    if isinstance(schema, list):
        return [_inline(value, definitions) for value in schema]
    return schema


def _request_body(kind: Kind[Any]) -> dict[str, Any]:
    item = kind.model.model_json_schema(by_alias=True)
    items = _inline(item, item.get("$defs", {}))
    schema = {"type": "array", "items": items, "maxItems": kind.limit}
    content = {"schema": schema, "example": kind.example}
    return {"requestBody": {"required": True, "content": {"application/json": content}}}


def record_batch(request: Request, db: Session, principal: Principal, result: BatchResult) -> None:
    """The audit entry of a batch written: who (and through which token), what and how many."""
    detail: dict[str, Any] = result.model_dump(exclude={"kind"})
    if principal.token is not None:
        detail |= {"token_id": str(principal.token.id), "token_name": principal.token.name}
    audit.record(db, request, f"integration.{result.kind}", actor=principal.user, **detail)


def _route(kind: Kind[Any]) -> Callable[..., BatchResult]:
    def put_batch(
        request: Request,
        db: SessionDep,
        principal: Annotated[Principal, Depends(integration_writer(kind.path))],
        body: Annotated[Any, Body()],
    ) -> BatchResult:
        try:
            result = upsert(db, kind, body)
            record_batch(request, db, principal, result)
            db.commit()
        except IntegrityError as error:
            db.rollback()
            raise ApiError(409, CONFLICT) from error
        return result

    put_batch.__name__ = f"put_{kind.path}"
    limit = f"{kind.limit:,}".replace(",", " ")
    put_batch.__doc__ = (
        f"{kind.description}\n\nAt most {limit} objects per batch. Optional fields left "
        "out keep their stored value; lists sent replace the stored ones. The whole batch is "
        "validated first (fields, then every reference at once) and written in one transaction: "
        "a 422 lists every problem as `[index].field` and writes nothing."
    )
    return put_batch


for _kind in KINDS:
    router.add_api_route(
        f"/{_kind.path}",
        _route(_kind),
        methods=["PUT"],
        response_model=BatchResult,
        summary=_kind.summary,
        responses=_ERRORS,
        openapi_extra=_request_body(_kind),
    )
