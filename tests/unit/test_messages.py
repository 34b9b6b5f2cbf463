"""The one message handler of spec 8 and the messages of spec 2 and 9: de-duplication, the 5 s
expiry, the stacking offsets, each status branch, the session's reporting, the headband."""

from collections.abc import Iterator

import httpx
import pytest
import reflex as rx
from reflex.istate.data import RouterData

import portal.portal  # noqa: F401  (registers every state, as the running app does)
from portal.client import (
    Forbidden,
    NotFound,
    ProviderError,
    RateLimited,
    ServerError,
    Unauthorized,
    Unavailable,
    ValidationFailed,
    Violation,
)
from portal.client.errors import REQUIRED_TERMS, invalid_response, network_error
from portal.components import layout
from portal.components.messages import _snackbar, message_stack
from portal.settings import get_settings
from portal.state import messages as messages_module
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState, failure_text
from portal.state.session import SessionState

GENERIC = "An unexpected error has occurred. If the error persists, please contact support."
UNAVAILABLE = "The service is temporarily unavailable. Please try again in a few moments."
UNREACHABLE = "The server cannot be reached at the moment. Please try again later."
TERMS = "Please accept the terms and conditions of use."


@pytest.fixture
async def states() -> tuple[SessionState, MessagesState]:
    root = rx.State(_reflex_internal_init=True)
    session = await root.get_state(SessionState)
    session.router = RouterData.from_router_data(
        {"pathname": "/services", "asPath": "/services?status[]=active", "query": {}}
    )
    return session, await root.get_state(MessagesState)


def _shown(messages: MessagesState) -> list[tuple[str, str, bool]]:
    return [(m.text, m.kind, m.permanent) for m in messages.messages]


def _script(events: object) -> str:
    return str(events)


def test_a_message_equal_in_text_type_and_permanence_is_shown_once(states) -> None:
    _, messages = states
    messages.show("Saved.", "success")
    messages.show("Saved.", "success")
    messages.show("Saved.", "error")
    messages.show("Saved.", "success", permanent=True)
    assert _shown(messages) == [
        ("Saved.", "success", False),
        ("Saved.", "error", False),
        ("Saved.", "success", True),
    ]


async def test_a_temporary_message_expires_and_a_permanent_one_stays(
    states, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, messages = states
    monkeypatch.setattr(messages_module, "TEMPORARY_SECONDS", 0)
    messages.show("Gone soon.", "info")
    messages.show("Stays.", "error", permanent=True)
    temporary, permanent = messages.messages
    expire = MessagesState.event_handlers["expire"].fn
    await expire(messages, permanent.id)
    await expire(messages, temporary.id)
    assert _shown(messages) == [("Stays.", "error", True)]


def test_the_expiry_lasts_five_seconds() -> None:
    assert messages_module.TEMPORARY_SECONDS == 5.0


def test_snackbars_stack_60_px_apart_from_70_px_and_each_asks_for_its_expiry() -> None:
    rendered = str(message_stack())
    assert "* 60) + 70)" in rendered
    assert 'key:message_rx_state_?.["id"]' in rendered
    body = str(_snackbar(message_id="m1", text="Saved.", kind="success", top="70px"))
    assert "Saved." in body


def test_clearing_on_navigation_keeps_the_permanent_messages(states) -> None:
    _, messages = states
    messages.show("Temporary.", "info")
    messages.show(TERMS, "error", permanent=True)
    messages.clear_temporary()
    assert _shown(messages) == [(TERMS, "error", True)]


async def test_401_signs_out_with_the_current_path_and_query_and_shows_nothing(states) -> None:
    session, messages = states
    events = await session.report(Unauthorized(401, "401", "Session expired"))
    # /login?redirect=/services?status[]=active, encoded as the logout's next.
    redirect = "%252Fservices%253Fstatus%255B%255D%253Dactive"
    assert f'/_portal/logout?next=%2Flogin%3Fredirect%3D{redirect}"' in _script(events)
    assert "form.submit()" in _script(events)  # a POST: logout answers no GET
    assert messages.messages == []


async def test_403_required_terms_shows_the_permanent_reminder_and_opens_the_terms(
    states,
) -> None:
    session, messages = states
    error = Forbidden(403, "403", "Terms", error_code=REQUIRED_TERMS)
    events = await session.report(error)
    assert "/terms" in _script(events)
    assert _shown(messages) == [(TERMS, "error", True)]


async def test_another_403_is_silent_in_the_common_handler(states) -> None:
    session, messages = states
    assert await session.report(Forbidden(403, "403", "Access Denied.")) is None
    assert messages.messages == []


async def test_an_action_refused_with_403_says_so(states) -> None:
    session, messages = states
    await session.report(Forbidden(403, "403", "Access Denied."), shown=True, permanent=True)
    assert _shown(messages) == [("Access Denied.", "error", True)]


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (NotFound(404, "404", "Not Found"), "Not Found"),
        (ValidationFailed(422, "422", "reference: unknown"), "reference: unknown"),
        (
            ValidationFailed(
                422,
                "422",
                "The data sent is not valid.",
                [Violation("clientReferences", "A service can have at most 20 client references.")],
            ),
            "A service can have at most 20 client references.",
        ),
        (
            ValidationFailed(
                422,
                "422",
                "The data sent is not valid.",
                [
                    Violation("email", "This value is not a valid email address."),
                    Violation("", "This value is not a valid email address."),
                    Violation("lastname", "This value should not be blank."),
                ],
            ),
            "This value is not a valid email address. This value should not be blank.",
        ),
        (ServerError(500, "500", "Traceback (most recent call last)"), GENERIC),
        (Unavailable(503, "503", "Service Unavailable"), UNAVAILABLE),
        (network_error(httpx.ConnectError("connection refused"), "en"), UNREACHABLE),
    ],
)
async def test_other_failures_show_the_server_message_or_the_generic_texts(
    states, error, text: str
) -> None:
    session, messages = states
    assert await session.report(error) is None
    assert _shown(messages) == [(text, "error", False)]


async def test_an_unexpected_failure_names_its_request_id_for_support(states) -> None:
    session, messages = states
    error = ServerError(500, "500", "boom")
    error.request_id = "0123456789abcdef"
    await session.report(error)
    unreachable = network_error(httpx.ConnectError("refused"), "en")
    unreachable.request_id = "fedcba9876543210"
    await session.report(unreachable)
    assert [text for text, _kind, _permanent in _shown(messages)] == [
        f"{GENERIC} Reference: 0123456789abcdef",
        f"{UNREACHABLE} Reference: fedcba9876543210",
    ]


REFERENCE = "Reference: 0123456789abcdef"


def _with_reference(error: ProviderError) -> ProviderError:
    error.request_id = "0123456789abcdef"
    return error


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (Unavailable(503, "503", "Down for a moment"), f"{UNAVAILABLE} {REFERENCE}"),
        (ServerError(500, "500", "Traceback"), f"{GENERIC} {REFERENCE}"),
        (ServerError(504, "504", "Gateway Timeout"), f"{GENERIC} {REFERENCE}"),
        (invalid_response("en"), f"{GENERIC} {REFERENCE}"),
        (network_error(httpx.ConnectError("refused"), "en"), f"{UNREACHABLE} {REFERENCE}"),
        (RateLimited(429, "429", "Too many attempts."), "Too many attempts."),
        (NotFound(404, "404", "Not Found"), "Not Found"),
        (ProviderError(400, "400", "Bad request."), "Bad request."),
    ],
)
def test_failure_text_is_chosen_by_the_errors_class(error: ProviderError, text: str) -> None:
    """One text per kind of failure, the same wherever it is shown (issue 48, item 5): the
    class says it, never a status compared by hand; the reference follows a server's or the
    network's failure only, where support has something to look up."""
    assert failure_text(_with_reference(error), "en") == text


def test_failure_text_speaks_the_users_language() -> None:
    text = failure_text(_with_reference(Unavailable(503, "503", "Down")), "fr")
    assert text.startswith("Le service est momentanément indisponible.")
    assert text.endswith("Référence : 0123456789abcdef")


async def test_a_handler_that_lets_a_failure_out_passes_on_the_sign_out(states) -> None:
    session, _ = states

    @reports_failures
    async def load(state: SessionState) -> Iterator[None]:
        yield None
        raise Unauthorized(401, "401", "Session expired")

    updates = [update async for update in load(session)]
    assert updates[0] is None
    assert "/_portal/logout" in _script(updates[-1])


async def test_a_plain_handler_that_fails_passes_on_the_terms_redirect(states) -> None:
    session, messages = states

    @reports_failures(shown=True, permanent=True)
    def save(state: SessionState) -> None:
        raise Forbidden(403, "403", "Terms", error_code=REQUIRED_TERMS)

    updates = [update async for update in save(session)]
    assert "/terms" in _script(updates)
    assert (TERMS, "error", True) in _shown(messages)


async def test_a_failure_shown_in_place_keeps_the_session_rules_and_no_message(states) -> None:
    """A section that says its own failure where its content was (the dashboard's figures) is
    not announced again; a 401 still signs out and the terms still open."""
    session, messages = states
    assert await session.report(Unavailable(503, "503", "Down"), in_place=True) is None
    assert messages.messages == []
    events = await session.report(Unauthorized(401, "401", "Expired"), in_place=True)
    assert "/_portal/logout" in _script(events)
    error = Forbidden(403, "403", "Terms", error_code=REQUIRED_TERMS)
    assert "/terms" in _script(await session.report(error, in_place=True))
    assert _shown(messages) == [(TERMS, "error", True)]


@pytest.fixture
def headband(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    get_settings.cache_clear()
    monkeypatch.setenv("HEADBAND_ALERT_EN", "Maintenance tonight")
    monkeypatch.setenv("HEADBAND_ALERT_FR", "Maintenance ce soir")
    yield
    get_settings.cache_clear()


@pytest.mark.usefixtures("headband")
def test_the_headband_alert_shows_the_text_of_the_language_as_a_warning() -> None:
    rendered = str(layout._headband())
    assert "Maintenance tonight" in rendered
    assert "Maintenance ce soir" in rendered
    assert "amber" in rendered


def test_no_headband_without_a_text() -> None:
    get_settings.cache_clear()
    assert "alert" not in str(layout._headband())
