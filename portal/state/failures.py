"""One way for an event handler to call the provider: let ``ProviderError`` out, and
``reports_failures`` hands it to the one message handler of spec 8 and passes on what that
answers (a sign-out after a 401, the terms page after a 403 required_terms).

A handler that caught the error and called ``report`` itself could forget to return or yield
its answer, and the user would be left logged in on a dead session; here nothing can be lost.
A handler clears its own flags in ``finally`` (or catches what it shows itself, a 422 under its
fields say), and re-raises anything else.
"""

import functools
import inspect
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from portal.client import ProviderError

if TYPE_CHECKING:
    from portal.state.session import SessionState

Handler = TypeVar("Handler", bound=Callable[..., Any])


def reports_failures(
    handler: Handler | None = None,
    *,
    shown: bool = False,
    permanent: bool = False,
    in_place: bool = False,
) -> Any:
    """Wraps an event handler (plain, async or async generator; under ``rx.event``).

    ``shown``: the failure of an action the user asked for, 403 refusals included, which the
    common handler leaves silent; ``permanent`` keeps that message until dismissed (spec 8).
    ``in_place``: the screen says what failed where the content would be, with "Try again"
    (``failure_text`` gives the words); the common handler then applies only the session's
    rules (a 401's sign-out, the terms), so the failure is not announced twice.
    """

    def decorate(function: Handler) -> Handler:
        @functools.wraps(function)
        async def handle(self: "SessionState", *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            try:
                result = function(self, *args, **kwargs)
                if inspect.isasyncgen(result):
                    async for update in result:
                        yield update
                    return
                if inspect.isawaitable(result):
                    result = await result
                if result is not None:
                    yield result
            except ProviderError as error:
                yield await self.report(error, shown=shown, permanent=permanent, in_place=in_place)

        return cast(Handler, handle)

    return decorate(handler) if handler is not None else decorate
