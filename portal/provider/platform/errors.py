"""Every error of the provider as one JSON shape (DESIGN section 3), translated per request.

``{"@context": "/api/contexts/Error", "@type": "hydra:Error", "title", "detail",
"hydra:title", "hydra:description", "status"}``, plus ``violations`` on a 422 and ``code`` where
the client must react to the cause (``required_terms``). Routes raise ``ApiError`` with an English
message id; the handlers translate it with the request's language. Bad input never reaches a 500:
malformed JSON is a 400, a bad query parameter a 400, a bad path segment (such as a uuid) a 404
and an invalid body a 422 with one violation per field.
"""

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic.alias_generators import to_camel
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from portal.i18n import N_, gettext
from portal.logs import REQUEST_ID_HEADER, current_request_id
from portal.provider.platform.language import request_language
from portal.provider.platform.responses import JsonLdResponse

logger = logging.getLogger(__name__)

REQUIRED_TERMS = "required_terms"

_TITLES = {
    400: N_("Bad request"),
    401: N_("Authentication required"),
    403: N_("Access denied"),
    404: N_("Not found"),
    405: N_("Method not allowed"),
    409: N_("Conflict"),
    410: N_("Gone"),
    413: N_("Request too large"),
    414: N_("Address too long"),
    415: N_("Unsupported media type"),
    422: N_("Validation failed"),
    429: N_("Too many requests"),
    431: N_("Headers too large"),
    503: N_("Service unavailable"),
}
_GENERIC_TITLE = N_("An error occurred")
_DETAILS = {
    401: N_("You must be logged in to access this resource."),
    403: N_("You are not allowed to access this resource."),
    404: N_("The requested resource does not exist."),
    405: N_("This method is not allowed on this resource."),
}
_SERVER_ERROR = N_(
    "An unexpected error has occurred. If the error persists, please contact support."
)
_INVALID_JSON = N_("The request body is not valid JSON.")
_INVALID_VALUE = N_("This value is not valid.")

# pydantic error types → message ids; the context of the error fills the placeholders.
_VIOLATION_MESSAGES = {
    "missing": N_("This value should not be blank."),
    "blank": N_("This value should not be blank."),
    "string_too_long": N_("This value must be {max} characters or less."),
    "string_too_short": N_("This value must be {min} characters or more."),
    "string_type": N_("This value should be a string."),
    "bool_type": N_("This value should be true or false."),
    "bool_parsing": N_("This value should be true or false."),
    "int_type": N_("This value should be a whole number."),
    "int_parsing": N_("This value should be a whole number."),
    "greater_than_equal": N_("This value should be {min} or more."),
    "less_than_equal": N_("This value should be {max} or less."),
    "uuid_type": N_("This value is not a valid identifier."),
    "uuid_parsing": N_("This value is not a valid identifier."),
    "list_type": N_("This value should be a list."),
    "model_attributes_type": N_("This value should be an object."),
    "dict_type": N_("This value should be an object."),
}


@dataclass(frozen=True)
class Violation:
    """One invalid field: its camelCase path and an English message id with its parameters."""

    property_path: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)


class ApiError(Exception):
    """An error answer; ``message`` is an English message id with ``{placeholders}``."""

    def __init__(
        self,
        status: int,
        message: str | None = None,
        *,
        code: str | None = None,
        violations: Sequence[Violation] = (),
        headers: Mapping[str, str] | None = None,
        **params: Any,
    ) -> None:
        self.message = message or _DETAILS.get(status, _GENERIC_TITLE)
        super().__init__(self.message)
        self.status = status
        self.code = code
        self.violations = list(violations)
        self.headers = headers
        self.params = params


def error_body(
    language: str,
    status: int,
    detail: str,
    *,
    code: str | None = None,
    violations: Sequence[Violation] = (),
) -> dict[str, Any]:
    title = gettext(language, _TITLES.get(status, _GENERIC_TITLE))
    body: dict[str, Any] = {
        "@context": "/api/contexts/Error",
        "@type": "hydra:Error",
        "title": title,
        "hydra:title": title,
        "detail": detail,
        "hydra:description": detail,
        "status": status,
    }
    if code:
        body["code"] = code
    if status == HTTPStatus.UNPROCESSABLE_ENTITY:
        body["violations"] = [
            {
                "propertyPath": violation.property_path,
                "message": gettext(language, violation.message, **violation.params),
            }
            for violation in violations
        ]
    return body


def error_response(
    request: Request, error: ApiError, headers: Mapping[str, str] | None = None
) -> JsonLdResponse:
    language = request_language(request)
    detail = gettext(language, error.message, **error.params)
    body = error_body(language, error.status, detail, code=error.code, violations=error.violations)
    return JsonLdResponse(body, status_code=error.status, headers=headers)


def _violation(error: Any) -> Violation:
    """A pydantic error as a violation on the API's camelCase field path."""
    parts = [str(part) for part in error["loc"][1:]]
    path = ".".join(to_camel(part) if "_" in part else part for part in parts)
    context = error.get("ctx") or {}
    error_type = error["type"]
    if error_type == "string_too_short" and context.get("min_length") == 1:
        error_type = "missing"  # an empty string is as blank as a missing one
    message = _VIOLATION_MESSAGES.get(error_type, _INVALID_VALUE)
    params = {
        "min": context.get("min_length", context.get("ge")),
        "max": context.get("max_length", context.get("le")),
    }
    return Violation(path, message, params)


def validation_error(errors: Sequence[Any]) -> ApiError:
    """The answer to a request FastAPI could not parse: see the module's docstring."""
    locations = {error["loc"][0] for error in errors if error.get("loc")}
    if any(error["type"] == "json_invalid" for error in errors):
        return ApiError(400, _INVALID_JSON)
    if "path" in locations:
        return ApiError(404)
    violations = [_violation(error) for error in errors]
    if locations & {"query", "header", "cookie"}:
        return ApiError(
            400, N_("The parameter {name} is not valid."), name=violations[0].property_path
        )
    return ApiError(422, N_("The data sent is not valid."), violations=violations)


async def _api_error_handler(request: Request, error: ApiError) -> JsonLdResponse:
    return error_response(request, error, headers=error.headers)


async def _http_error_handler(request: Request, error: StarletteHTTPException) -> JsonLdResponse:
    headers = error.headers
    if error.status_code == 405:
        headers = {**(headers or {}), "Allow": allowed_methods(request)}
    return error_response(request, ApiError(error.status_code), headers=headers)


def allowed_methods(request: Request) -> str:
    """Every method some route of this path answers (issue 18, item 9): Starlette's 405 names
    only the methods of the first route that matched the path, not those of its siblings.

    Where a literal path and a template both match it (``/api/services/client_reference`` and
    ``/api/services/{service_id}``), the literal one is the resource: a GET there reads a
    service id that is not one (404), so GET is not a method of it."""
    matched = [
        route
        for route in _endpoints(request.app.router.routes)
        if route.matches({**request.scope, "method": "GET"})[0] is not Match.NONE
    ]
    fewest = min((_parameters(route) for route in matched), default=0)
    methods = {
        method
        for route in matched
        if _parameters(route) == fewest
        for method in getattr(route, "methods", None) or ()
    }
    return ", ".join(sorted(methods))


def _parameters(route: BaseRoute) -> int:
    return len(getattr(route, "param_convertors", None) or {})


def _endpoints(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """The routes with methods, through the routers FastAPI includes as routes of their own
    (``_IncludedRouter``; the provider includes its routers without a prefix)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _endpoints(included.routes)
        else:
            yield route


async def _validation_error_handler(
    request: Request, error: RequestValidationError
) -> JsonLdResponse:
    return error_response(request, validation_error(error.errors()))


async def _unexpected_error_handler(request: Request, error: Exception) -> JsonLdResponse:
    # The traceback goes to the log; the client gets the generic message of spec section 8.
    logger.error("Unhandled error on %s %s", request.method, request.url.path, exc_info=error)
    # Answered outside the middlewares: the request id is added here, for support to find this.
    return error_response(
        request, ApiError(500, _SERVER_ERROR), headers={REQUEST_ID_HEADER: current_request_id()}
    )


_UNAVAILABLE = N_("The service is temporarily unavailable. Please try again in a few moments.")


async def _database_unavailable_handler(
    request: Request, error: DBAPIError | PoolTimeout
) -> JsonLdResponse:
    # The database is down or restarting (docs/decisions/operations-faults.md), or every pooled
    # connection stayed busy for the pool's timeout: a 503 that the user reads as "try again",
    # never a stack trace; the transaction was rolled back whole.
    logger.error(
        "Database unavailable on %s %s: %s", request.method, request.url.path, type(error).__name__
    )
    return error_response(request, ApiError(503, _UNAVAILABLE), headers={"Retry-After": "5"})


def install_error_handlers(app: FastAPI) -> None:
    # ``exception_handler`` accepts handlers typed with their own exception class (Starlette
    # calls each only with instances of the class it is registered for), so no handler has to
    # narrow ``Exception`` itself.
    app.exception_handler(ApiError)(_api_error_handler)
    app.exception_handler(StarletteHTTPException)(_http_error_handler)
    app.exception_handler(RequestValidationError)(_validation_error_handler)
    app.exception_handler(OperationalError)(_database_unavailable_handler)
    app.exception_handler(InterfaceError)(_database_unavailable_handler)
    app.exception_handler(PoolTimeout)(_database_unavailable_handler)
    app.exception_handler(Exception)(_unexpected_error_handler)
