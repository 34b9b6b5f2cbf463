"""What a tab shows when an event fails where no handler could catch it: the state store (Redis)
unreachable, so no state can be loaded, or a bug (docs/decisions/operations-faults.md).

Reflex's own answer is an English "Contact the website administrator". Ours is the sentence
of the message handler (spec 8) in the page's language. No state can say which language that
is while Redis is down, so both translations go to the browser and the page's ``lang``, which
PreferencesState keeps, chooses; the toast needs no state either.
"""

import json
import logging

import redis.exceptions
from reflex.event import EventSpec
from reflex_base.event import run_script
from reflex_base.vars.base import LiteralVar, Var
from reflex_base.vars.function import FunctionVar
from reflex_base.vars.object import ObjectVar
from reflex_components_sonner.toast import toast_ref

from portal.i18n import LANGUAGES, gettext
from portal.state.messages import UNAVAILABLE, UNEXPECTED

logger = logging.getLogger(__name__)

TOAST_ID = "event-failure"
TOAST_MS = 10_000
_STORE_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def on_event_failure(exception: Exception) -> EventSpec:
    """Reflex's ``backend_exception_handler``: log the failure, tell the user."""
    outage = is_store_outage(exception)
    if outage:
        logger.error("The state store is unreachable: %s", type(exception).__name__)
    else:
        logger.error("An event failed", exc_info=exception)
    message: Var[str] = Var(in_page_language(UNAVAILABLE if outage else UNEXPECTED))
    # Not rx.toast.error: given a Var, it sends it as the title beside an empty message, and
    # sonner shows the empty message. The toaster's own error function, called directly:
    show = ObjectVar.__getattr__(toast_ref.to(dict), "error").to(FunctionVar)
    options = LiteralVar.create({"id": TOAST_ID, "duration": TOAST_MS, "position": "top-center"})
    return run_script(show.call(message, options))


def is_store_outage(exception: BaseException) -> bool:
    """Whether Redis failing is behind ``exception``, however Reflex wrapped it."""
    seen: BaseException | None = exception
    for _ in range(20):  # a chain of causes is short; never follow one forever
        if seen is None:
            return False
        if isinstance(seen, _STORE_DOWN):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def in_page_language(message: str) -> str:
    """A JavaScript expression: ``message`` translated into the page's language."""
    texts = {language: gettext(language, message) for language in LANGUAGES}
    return f"({json.dumps(texts)}[document.documentElement.lang] ?? {json.dumps(texts['en'])})"
