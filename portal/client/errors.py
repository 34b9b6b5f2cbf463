"""The errors of provider calls (spec section 8), one class per status family.

Every failed call raises a ``ProviderError``: states catch that base class and hand it to the one
message handler. ``message`` is always fit to show: the provider's own (translated) ``detail`` or
``hydra:description``, or a translated text of ours — never a Python exception's text.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from portal.i18n import gettext

NETWORK_KEY = "network"
REQUIRED_TERMS = "required_terms"
REQUIRED_SECOND_FACTOR = "required_second_factor"


@dataclass(frozen=True, slots=True)
class Violation:
    """One entry of a 422's ``violations``; an empty path means the whole form."""

    property_path: str
    message: str


class ProviderError(Exception):
    """A failed provider call: ``code`` is the HTTP status (0 when nothing came back)."""

    def __init__(
        self,
        code: int,
        key: str,
        message: str,
        violations: Sequence[Violation] = (),
        error_code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.key = key
        self.message = message
        self.violations = list(violations)
        self.error_code = error_code
        # The X-Request-ID of the failed call: shown with unexpected errors, found in the logs.
        self.request_id = ""

    def by_field(self) -> dict[str, list[str]]:
        """The violation messages grouped by property path, in the provider's order."""
        grouped: dict[str, list[str]] = {}
        for violation in self.violations:
            grouped.setdefault(violation.property_path, []).append(violation.message)
        return grouped

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"{name}(code={self.code}, key={self.key!r}, message={self.message!r})"


class Unauthorized(ProviderError):
    """401: no provider session, or it expired."""


class Forbidden(ProviderError):
    """403: the session may not do this, or the user has not accepted the terms or set up the
    second factor asked of them yet."""

    @property
    def requires_terms(self) -> bool:
        return self.error_code == REQUIRED_TERMS

    @property
    def requires_second_factor(self) -> bool:
        return self.error_code == REQUIRED_SECOND_FACTOR


class NotFound(ProviderError):
    """404, which is also the provider's answer for another company's data."""


class TooLarge(ProviderError):
    """413: the body (an uploaded file) is over the provider's limit; the message says which."""


class ValidationFailed(ProviderError):
    """422 with ``violations``."""


class RateLimited(ProviderError):
    """429: too many attempts from this account or address."""


class ServerError(ProviderError):
    """5xx: the provider failed; users see the generic text of spec section 8."""


class Unavailable(ServerError):
    """503: the provider (or its database) is down for a moment; users are told to try again
    (docs/decisions/operations-faults.md)."""


class InvalidResponse(ServerError):
    """A success status whose body is not what the contract promises (treated as a 502)."""


class NetworkError(ProviderError):
    """Nothing usable came back: connection refused, reset, DNS failure."""

    def __init__(self, message: str) -> None:
        super().__init__(0, NETWORK_KEY, message)


class RequestTimeout(NetworkError):
    """The provider did not answer within the client's timeout."""


_CLASS_BY_STATUS: dict[int, type[ProviderError]] = {
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    413: TooLarge,
    422: ValidationFailed,
    429: RateLimited,
    503: Unavailable,
}


def error_from_response(response: httpx.Response) -> ProviderError:
    """The error of a 4xx/5xx response; any body, JSON or not, is accepted."""
    body = _json_object(response)
    status = response.status_code
    message = (
        _text(body, "detail")
        or _text(body, "hydra:description")
        or response.reason_phrase
        or f"HTTP {status}"
    )
    error_class = _CLASS_BY_STATUS.get(status) or (ServerError if status >= 500 else ProviderError)
    return error_class(status, str(status), message, _violations(body), _text(body, "code") or None)


def network_error(error: httpx.TransportError, language: str) -> NetworkError:
    if isinstance(error, httpx.TimeoutException):
        return RequestTimeout(
            gettext(language, "The server took too long to respond. Please try again later.")
        )
    return NetworkError(
        gettext(language, "The server cannot be reached at the moment. Please try again later.")
    )


def invalid_response(language: str) -> InvalidResponse:
    return InvalidResponse(
        502, "502", gettext(language, "The server sent a response that could not be read.")
    )


def _json_object(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:  # not JSON, or not UTF-8: an HTML error page from a proxy, say
        return {}
    return body if isinstance(body, dict) else {}


def _text(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    return value.strip() if isinstance(value, str) else ""


def _violations(body: dict[str, Any]) -> list[Violation]:
    entries = body.get("violations")
    if not isinstance(entries, list):
        return []
    return [
        Violation(_text(entry, "propertyPath"), _text(entry, "message"))
        for entry in entries
        if isinstance(entry, dict) and _text(entry, "message")
    ]
