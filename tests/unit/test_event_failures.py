"""What a tab is told when an event fails outside every handler (portal/event_failures.py)."""

import json

import redis
from reflex_base.event import EventSpec

from portal.event_failures import in_page_language, is_store_outage, on_event_failure


def _wrapped(error: Exception) -> Exception:
    try:
        try:
            raise error
        except Exception as cause:
            raise RuntimeError("the state could not be loaded") from cause
    except RuntimeError as wrapped:
        return wrapped


def _js(text: str) -> str:
    """``text`` as it stands in a JavaScript string literal."""
    return json.dumps(text)[1:-1]


def _script(spec: EventSpec) -> str:
    return str(spec.args[0][1])


def test_a_redis_failure_is_recognised_behind_what_wraps_it() -> None:
    assert is_store_outage(redis.exceptions.ConnectionError("refused"))
    assert is_store_outage(_wrapped(redis.exceptions.TimeoutError("slow")))
    assert not is_store_outage(_wrapped(ValueError("a bug")))


def test_the_message_is_chosen_by_the_pages_language_with_english_as_fallback() -> None:
    expression = in_page_language(
        "The service is temporarily unavailable. Please try again in a few moments."
    )
    assert "document.documentElement.lang" in expression
    assert _js("Le service est momentanément indisponible.") in expression
    assert expression.endswith(
        '?? "The service is temporarily unavailable. Please try again in a few moments.")'
    )


def test_the_toast_says_unavailable_for_an_outage_and_unexpected_for_a_bug() -> None:
    outage = on_event_failure(_wrapped(redis.exceptions.ConnectionError("refused")))
    bug = on_event_failure(ValueError("a bug"))
    assert isinstance(outage, EventSpec)
    assert isinstance(bug, EventSpec)
    assert _js("momentanément indisponible") in _script(outage)
    assert "Une erreur inattendue" in _script(bug)
    assert "Contact the website administrator" not in _script(bug)
