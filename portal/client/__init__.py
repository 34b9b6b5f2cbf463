"""The provider API client: httpx + pydantic, never Reflex, never ``portal.provider``.

Reflex states call typed methods (``client.users.get(uuid)``) and catch ``ProviderError``.
"""

from portal.client.base import DEVICE_COOKIE, SESSION_COOKIE, ProviderClient
from portal.client.errors import (
    Forbidden,
    InvalidResponse,
    NetworkError,
    NotFound,
    ProviderError,
    RateLimited,
    RequestTimeout,
    ServerError,
    TooLarge,
    Unauthorized,
    Unavailable,
    ValidationFailed,
    Violation,
)
from portal.client.hydra import Page, query_params, uuid_from_iri
from portal.client.models import Company, SalesContact, User, UserPayload

__all__ = [
    "DEVICE_COOKIE",
    "SESSION_COOKIE",
    "Company",
    "Forbidden",
    "InvalidResponse",
    "NetworkError",
    "NotFound",
    "Page",
    "ProviderClient",
    "ProviderError",
    "RateLimited",
    "RequestTimeout",
    "SalesContact",
    "ServerError",
    "TooLarge",
    "Unauthorized",
    "Unavailable",
    "User",
    "UserPayload",
    "ValidationFailed",
    "Violation",
    "query_params",
    "uuid_from_iri",
]
