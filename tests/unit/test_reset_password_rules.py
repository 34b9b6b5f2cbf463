"""The reset and confirm form (spec 2, 5 and 8): what blocks sending, how failures are told."""

import httpx

from portal.client import (
    NotFound,
    ProviderError,
    RateLimited,
    ServerError,
    Unavailable,
    ValidationFailed,
)
from portal.client.errors import network_error
from portal.pages.forgot_password.state import email_error
from portal.pages.reset_password.rules import failure_kind, password_problems
from portal.validation import BLANK, CONFIRMATION_MISMATCH, INVALID_EMAIL


def test_both_fields_are_required_and_must_match() -> None:
    assert password_problems("", "") == {"password": BLANK, "confirmation": BLANK}
    assert password_problems("Abcdefghij1", "Abcdefghij2") == {
        "confirmation": CONFIRMATION_MISMATCH
    }
    assert password_problems("Abcdefghij1", "Abcdefghij1") == {}


def test_the_password_rule_is_left_to_the_provider() -> None:
    # Spec 5: the rule is a hint; the provider's 422 puts its message under the field.
    assert password_problems("weak", "weak") == {}


def test_failures_are_told_by_kind() -> None:
    assert failure_kind(ValidationFailed(422, "422", "Invalid.")) == "fields"
    assert failure_kind(RateLimited(429, "429", "Too many.")) == "provider"
    assert failure_kind(ServerError(500, "500", "Boom.")) == "generic"
    assert failure_kind(Unavailable(503, "503", "Down.")) == "generic"
    assert failure_kind(network_error(httpx.ConnectError("refused"), "en")) == "generic"
    for error in (
        ProviderError(400, "400", "Bad."),
        NotFound(404, "404", "Not found."),
        ProviderError(410, "410", "Gone."),
    ):
        assert failure_kind(error) == "link"


def test_forgot_password_email_is_required_and_valid() -> None:
    assert email_error("") == BLANK
    assert email_error("  ") == BLANK
    assert email_error("alice@") == INVALID_EMAIL
    assert email_error("alice@acme-networks.test") == ""
