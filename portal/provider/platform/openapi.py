"""The OpenAPI document tells the truth (issue 18, item 9): every status an operation can answer,
with the body and the media type the provider really sends.

FastAPI documents what a route declares, a 422 of its own shape wherever a route takes a
parameter, and ``application/json`` for the answers that ``ProviderRequestMiddleware`` names
JSON-LD. The provider answers otherwise (``portal.provider.platform.errors``): a bad query
parameter is a 400, a bad path segment a 404, and every error is ``application/ld+json``. So,
once the routes are in, the document is amended here, operation by operation, from what each
one's dependencies imply:

- every operation: 400, the app-wide check of the query string (``input_check``);
- a principal (``security.SIGNED_IN``): 401 and 403, and the
  session cookie as its security scheme; the integration API's (``integration_principal``):
  401, 403 and either credential (the session cookie, an API token); a read a personal token
  opens (``api_tokens.READ_ROUTES``): the personal token too, and its rate limit's 429;
- a state-changing method: 403 for a page of another origin (``origin_check``);
- a path parameter: 404 (a malformed id is not found either);
- a request body: 413 (``limits``, ``uploads``) and 422 (one violation per field);
- ``pagination``: the bounds of ``page`` and ``itemsPerPage`` (a 400 outside them).

Routes declare what only their own code decides: a 409 conflict, a 429 rate limit, a 404 of a
reference named in the body, the headers of their successes. Every error status, declared either
way, gets the one error schema under ``application/ld+json``, and a 429 its ``Retry-After``.
Answers that any request may get whatever its operation (405 with ``Allow``, 414, 431, 503) are
described once, in the document's description (``main.py``).
"""

import copy
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.datastructures import DefaultPlaceholder
from fastapi.dependencies.models import Dependant
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute, RouteContext, iter_route_contexts
from starlette.routing import BaseRoute

from portal.origins import SAFE_METHODS
from portal.provider.platform.api_tokens import read_scope
from portal.provider.platform.hydra import MAX_PAGE, PAGINATIONS
from portal.provider.platform.input_check import refuse_control_characters
from portal.provider.platform.origin_check import refuse_foreign_writes
from portal.provider.platform.responses import JsonLdResponse
from portal.provider.platform.security import SIGNED_IN, integration_principal
from portal.provider.platform.sessions import COOKIE_NAME
from portal.settings import get_settings

ERROR_MEDIA_TYPE = JsonLdResponse.media_type
_ERROR = "Error"
_INVALID = "InvalidData"
_REF = "#/components/schemas/"
# The credentials a principal comes from (``security.optional_principal``); an integration token
# is taken on the integration API only, a personal token on the reads of its scopes.
SECURITY_SCHEMES: dict[str, dict[str, Any]] = {
    "session": {
        "type": "apiKey",
        "in": "cookie",
        "name": COOKIE_NAME,
        "description": "The session cookie that `POST /login` sets.",
    },
    "token": {
        "type": "http",
        "scheme": "bearer",
        "description": "An API token of an administrator (`pbt_…`), see `/api/tokens`: the "
        "integration API only, for the kinds of its scopes.",
    },
    "personalToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "A user's personal API token (`pbt_…`), see `/api/personal_tokens`: "
        "the reads of its scopes, answering what its user may read.",
    },
}

_ERROR_SCHEMA: dict[str, Any] = {
    "title": _ERROR,
    "type": "object",
    "description": "Every error of the provider, in the request's language.",
    "required": [
        "@context",
        "@type",
        "title",
        "hydra:title",
        "detail",
        "hydra:description",
        "status",
    ],
    "properties": {
        "@context": {"type": "string", "const": "/api/contexts/Error"},
        "@type": {"type": "string", "const": "hydra:Error"},
        "title": {"type": "string"},
        "hydra:title": {"type": "string"},
        "detail": {"type": "string"},
        "hydra:description": {"type": "string"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "code": {
            "type": "string",
            "description": "What the client must do: `required_terms` (accept the terms), "
            "`required_second_factor` (set up the second factor).",
        },
    },
}
_INVALID_SCHEMA: dict[str, Any] = {
    "title": _INVALID,
    "description": "A 422: the error and one violation per field (camelCase path).",
    "allOf": [{"$ref": _REF + _ERROR}],
    "required": ["violations"],
    "properties": {
        "violations": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["propertyPath", "message"],
                "properties": {
                    "propertyPath": {"type": "string"},
                    "message": {"type": "string"},
                },
            },
        }
    },
}
_RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    }
}
_DESCRIPTIONS = {
    400: "A query parameter is not valid (control characters, a value out of its range).",
    401: "No session or API token, or one that has ended.",
    403: "Not allowed: the role does not allow it, the terms are not accepted "
    "(`code: required_terms`) or the second factor is due (`code: required_second_factor`).",
    404: "No such resource among those the caller may see (a malformed id is not found either).",
    409: "Conflict with the stored state.",
    413: "The body is larger than the limit.",
    422: "The body is not valid: one violation per field.",
    429: "Too many attempts for this account or from this address.",
}
_FOREIGN_ORIGIN = "Sent by a page of another origin than the portal's."
_PERSONAL_READS_LIMITED = (
    "Too many requests with this personal API token (`API_PERSONAL_READS_LIMITED`)."
)


class DocumentedApi(FastAPI):
    """FastAPI whose ``openapi()`` returns its document amended as this module says, built once
    on first request, not at start-up."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            document = super().openapi()
            amend(document, self.routes, get_settings().items_per_page_max)
            self.openapi_schema = document
        return self.openapi_schema


def amend(document: dict[str, Any], routes: list[BaseRoute], items_per_page_max: int) -> None:
    for route in _api_routes(routes):
        calls = _dependency_calls(route.dependant)
        for method in sorted(route.methods or ()):
            operation = document["paths"][str(route.path_format)][method.lower()]
            _amend_operation(operation, route, method, calls, items_per_page_max)
    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)  # FastAPI's 422, which the provider never sends
    schemas[_ERROR] = copy.deepcopy(_ERROR_SCHEMA)
    schemas[_INVALID] = copy.deepcopy(_INVALID_SCHEMA)
    components["securitySchemes"] = copy.deepcopy(SECURITY_SCHEMES)


def _api_routes(routes: list[BaseRoute]) -> Iterator[RouteContext]:
    for route in iter_route_contexts(routes):
        if isinstance(route.original_route, APIRoute) and route.original_route.include_in_schema:
            yield route


def _dependency_calls(dependant: Dependant) -> set[Callable[..., Any]]:
    calls: set[Callable[..., Any]] = set()
    for dependency in dependant.dependencies:
        if dependency.call is not None:
            calls.add(dependency.call)
        calls |= _dependency_calls(dependency)
    return calls


def implied_statuses(
    operation: dict[str, Any], method: str, calls: set[Callable[..., Any]]
) -> dict[int, str]:
    """The error statuses an operation answers by its dependencies, its path and its body."""
    statuses: dict[int, str] = {}
    if refuse_control_characters in calls:
        statuses[400] = _DESCRIPTIONS[400]
    if calls & SIGNED_IN or integration_principal in calls:
        statuses[401] = _DESCRIPTIONS[401]
        statuses[403] = _DESCRIPTIONS[403]
    if refuse_foreign_writes in calls and method not in SAFE_METHODS:
        statuses.setdefault(403, "Not allowed.")
    if any(parameter["in"] == "path" for parameter in operation.get("parameters", ())):
        statuses[404] = _DESCRIPTIONS[404]
    if "requestBody" in operation:
        statuses[400] = f"{statuses.get(400, '')} Or the body is not valid JSON.".strip()
        statuses[413] = _DESCRIPTIONS[413]
        statuses[422] = _DESCRIPTIONS[422]
    return statuses


def _amend_operation(
    operation: dict[str, Any],
    route: RouteContext,
    method: str,
    calls: set[Callable[..., Any]],
    items_per_page_max: int,
) -> None:
    responses: dict[str, Any] = operation["responses"]
    declared = {int(status) for status in route.responses if str(status).isdigit()}
    if 422 not in declared:
        responses.pop("422", None)  # FastAPI's own; the provider's are implied below
    implied = implied_statuses(operation, method, calls)
    credentials = _credentials(calls, str(route.path_format), method)
    if "personalToken" in credentials:
        implied[429] = _PERSONAL_READS_LIMITED
    for code in sorted(declared | set(implied)):
        if code >= 400:
            _error_response(responses.setdefault(str(code), {}), code, implied.get(code))
    if refuse_foreign_writes in calls and method not in SAFE_METHODS:
        responses["403"]["description"] += f" {_FOREIGN_ORIGIN}"
    if _answers_json(route):
        for status, response in responses.items():
            content = response.get("content", {})
            if status.startswith("2") and "application/json" in content:
                content[JsonLdResponse.media_type] = content.pop("application/json")
    operation["responses"] = dict(sorted(responses.items()))
    if credentials:
        operation["security"] = [{name: []} for name in credentials]
    if calls & PAGINATIONS:
        _bound_paging(operation, items_per_page_max)


def _credentials(calls: set[Callable[..., Any]], path: str, method: str) -> list[str]:
    """The security schemes an operation takes, by the principal it depends on and, for a
    personal token, by its path."""
    if integration_principal in calls:
        return ["session", "token"]
    if calls & SIGNED_IN:
        return ["session", "personalToken"] if method == "GET" and read_scope(path) else ["session"]
    return []


def _error_response(response: dict[str, Any], status: int, implied: str | None) -> None:
    """``response`` as the provider sends it; a description the route wrote is kept."""
    if not response.get("description") or response["description"] == "Validation Error":
        response["description"] = implied or _DESCRIPTIONS.get(status, "Error.")
    content = response.get("content", {})
    media = content.get(ERROR_MEDIA_TYPE) or content.get("application/json") or {}
    media["schema"] = {"$ref": _REF + (_INVALID if status == 422 else _ERROR)}
    response["content"] = {ERROR_MEDIA_TYPE: media}
    if status == 429:
        response["headers"] = {**response.get("headers", {}), **_RETRY_AFTER}


def _answers_json(route: RouteContext) -> bool:
    """Whether the route's answers are JSON, which ``ProviderRequestMiddleware`` names JSON-LD."""
    response_class = route.response_class
    if isinstance(response_class, DefaultPlaceholder):
        response_class = response_class.value
    return isinstance(response_class, type) and issubclass(response_class, JSONResponse)


def _bound_paging(operation: dict[str, Any], items_per_page_max: int) -> None:
    bounds = {"page": (1, MAX_PAGE), "itemsPerPage": (0, items_per_page_max)}
    for parameter in operation.get("parameters", ()):
        if parameter["in"] == "query" and parameter["name"] in bounds:
            minimum, maximum = bounds[parameter["name"]]
            parameter["schema"].update(minimum=minimum, maximum=maximum)
