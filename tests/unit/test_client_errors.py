"""Spec section 8: every failed call is a ProviderError with code, key, message, violations."""

import httpx
import pytest

from portal.client import (
    Forbidden,
    NetworkError,
    NotFound,
    ProviderClient,
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

BASE_URL = "http://provider.test/provider"


def failing(response: httpx.Response, language: str = "en") -> ProviderClient:
    return ProviderClient(
        BASE_URL, language=language, transport=httpx.MockTransport(lambda request: response)
    )


async def error_of(response: httpx.Response, language: str = "en") -> ProviderError:
    async with failing(response, language) as client:
        with pytest.raises(ProviderError) as caught:
            await client.users.get("u1")
    return caught.value


def problem(status: int, **fields: object) -> httpx.Response:
    return httpx.Response(status, json={"@type": "hydra:Error", "status": status, **fields})


@pytest.mark.parametrize(
    ("status", "error_class"),
    [
        (400, ProviderError),
        (401, Unauthorized),
        (403, Forbidden),
        (404, NotFound),
        (409, ProviderError),
        (413, TooLarge),
        (422, ValidationFailed),
        (429, RateLimited),
        (500, ServerError),
        (502, ServerError),
        (503, Unavailable),
        (504, ServerError),
    ],
)
async def test_statuses_map_to_error_classes(status: int, error_class: type[ProviderError]) -> None:
    error = await error_of(problem(status, detail="Refused."))

    assert type(error) is error_class
    assert (error.code, error.key, error.message) == (status, str(status), "Refused.")


async def test_unauthorized_carries_the_providers_message() -> None:
    error = await error_of(problem(401, title="Unauthorized", detail="Invalid credentials."))

    assert isinstance(error, Unauthorized)
    assert error.message == "Invalid credentials."


async def test_forbidden_for_terms_not_accepted() -> None:
    error = await error_of(
        problem(403, detail="Please accept the terms of use.", code="required_terms")
    )

    assert isinstance(error, Forbidden)
    assert error.requires_terms
    assert error.error_code == "required_terms"


async def test_other_forbidden_does_not_require_terms() -> None:
    error = await error_of(problem(403, detail="Access denied."))

    assert isinstance(error, Forbidden)
    assert not error.requires_terms
    assert error.error_code is None


async def test_not_found() -> None:
    error = await error_of(problem(404, detail="Not Found"))

    assert isinstance(error, NotFound)


async def test_validation_violations_are_grouped_by_field() -> None:
    error = await error_of(
        problem(
            422,
            detail="email: Invalid email",
            violations=[
                {"propertyPath": "email", "message": "Invalid email"},
                {"propertyPath": "password", "message": "Too short."},
                {"propertyPath": "email", "message": "Already used."},
                {"propertyPath": "", "message": "Unable to assign an Administrator role."},
                {"propertyPath": "phoneNumber"},
                "garbage",
            ],
        )
    )

    assert isinstance(error, ValidationFailed)
    assert error.violations[0] == Violation("email", "Invalid email")
    assert error.by_field() == {
        "email": ["Invalid email", "Already used."],
        "password": ["Too short."],
        "": ["Unable to assign an Administrator role."],
    }


async def test_server_error() -> None:
    error = await error_of(problem(500, detail="Internal Server Error"))

    assert isinstance(error, ServerError)
    assert error.code == 500


async def test_detail_wins_over_hydra_description() -> None:
    error = await error_of(problem(400, detail="From detail.", **{"hydra:description": "Other."}))

    assert error.message == "From detail."


async def test_hydra_description_when_there_is_no_detail() -> None:
    error = await error_of(problem(400, **{"hydra:description": "From description.", "detail": ""}))

    assert error.message == "From description."


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(502, text="<html><body>Bad gateway</body></html>"),
        httpx.Response(502, content=b"\xff\xfe not utf-8"),
        httpx.Response(502, json=["not", "an", "object"]),
        httpx.Response(502),
    ],
    ids=["html", "binary", "json-list", "empty"],
)
async def test_a_body_that_is_not_a_json_problem_gives_the_reason_phrase(
    response: httpx.Response,
) -> None:
    error = await error_of(response)

    assert isinstance(error, ServerError)
    assert (error.code, error.key, error.message, error.violations) == (
        502,
        "502",
        "Bad Gateway",
        [],
    )


async def test_network_error_has_code_zero_and_a_clean_message() -> None:
    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(unreachable)) as client:
        with pytest.raises(NetworkError) as caught:
            await client.users.get("u1")

    error = caught.value
    assert (error.code, error.key) == (0, "network")
    assert error.message == ("The server cannot be reached at the moment. Please try again later.")
    assert "Errno" not in str(error)
    assert isinstance(error.__cause__, httpx.ConnectError)


async def test_timeout_is_a_network_error_in_the_users_language() -> None:
    def too_slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    async with ProviderClient(
        BASE_URL, language="fr", transport=httpx.MockTransport(too_slow)
    ) as client:
        with pytest.raises(RequestTimeout) as caught:
            await client.users.get("u1")

    error = caught.value
    assert isinstance(error, NetworkError)
    assert (error.code, error.key) == (0, "network")
    assert error.message == (
        "Le serveur a mis trop de temps à répondre. Veuillez réessayer plus tard."
    )


def test_errors_read_well_in_logs() -> None:
    error = Forbidden(403, "403", "Access denied.")

    assert repr(error) == "Forbidden(code=403, key='403', message='Access denied.')"
    assert str(error) == "Access denied."
