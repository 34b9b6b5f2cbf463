"""The provider's routers: a read answers in the thread that ran it.

FastAPI runs a synchronous route in its thread pool, then hands the model it returns to the
thread pool a second time to validate it against ``response_model`` and write it out. Under
load those hops, each a wake-up of a worker thread and a fight for the GIL with the event loop,
cost more than many routes' own work (docs/decisions/one-hop-reads.md). A ``ProviderRoute``
writes the model it gets back to JSON bytes in the route's own thread and returns the finished
response, so a read makes one hop less and its model, built by the route from validated
values, is not validated a second time.
"""

import functools
import inspect
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Response
from fastapi.routing import APIRoute, APIRouter
from pydantic import BaseModel
from starlette._utils import get_route_path
from starlette.routing import Match, Mount, Route, WebSocketRoute
from starlette.types import Scope

from portal.provider.platform.responses import JsonLdResponse


class ProviderRoute(APIRoute):
    """A route whose synchronous endpoint, returning a model, answers with its JSON itself."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        # The flags are only known once FastAPI has read the route; the wrapper reads them then.
        self._writes_json = False
        if not inspect.iscoroutinefunction(endpoint):
            endpoint = self._answering(endpoint)
        super().__init__(path, endpoint, **kwargs)
        self._writes_json = (
            self.response_field is not None
            and self.response_model_include is None
            and self.response_model_exclude is None
            and self.status_code in (None, 200)
            # A route that sets headers or its status on an injected ``Response`` leaves the
            # answer to FastAPI, which adds them.
            and self.dependant.response_param_name is None
        )

    def _answering(self, endpoint: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(endpoint)
        def answer(*args: Any, **kwargs: Any) -> Any:
            result = endpoint(*args, **kwargs)
            if not self._writes_json or not isinstance(result, BaseModel):
                return result
            content = result.__pydantic_serializer__.to_json(
                result,
                by_alias=self.response_model_by_alias,
                exclude_unset=self.response_model_exclude_unset,
                exclude_defaults=self.response_model_exclude_defaults,
                exclude_none=self.response_model_exclude_none,
            )
            return Response(content, media_type=JsonLdResponse.media_type)

        return answer


class ProviderRouter(APIRouter):
    """An ``APIRouter`` of ``ProviderRoute``s: every provider router is one."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(route_class=ProviderRoute, **kwargs)


# The first ``{`` of a path template starts its first parameter: the text before it is in every
# path the route matches, from the start.
def _literal_prefix(path_format: str) -> str:
    return path_format.split("{", 1)[0]


def _prefixes(included: Any) -> tuple[str, ...] | None:
    """The literal beginnings of every route of an included router, or None when one of its
    routes is of a kind that may match without one (a host, a frontend group)."""
    prefixes = set()
    for context in included.effective_route_contexts():
        route = context.starlette_route or context.original_route
        if isinstance(route, APIRoute | Route | WebSocketRoute | Mount):
            path_format = getattr(context.starlette_route, "path_format", context.path_format)
        else:
            return None
        if not path_format:
            return None
        prefixes.add(_literal_prefix(path_format))
    return tuple(sorted(prefixes))


class _Guard:
    """An included router's ``matches``, answering "no" at once to a path none of its routes
    can match instead of trying each route's pattern. Its routes read again when they change."""

    def __init__(self, included: Any) -> None:
        self.included = included
        self.matches = included.matches
        self.version: int | None = None
        self.prefixes: tuple[str, ...] | None = None

    def __call__(self, scope: Scope) -> tuple[Match, Scope]:
        version = self.included.original_router._get_routes_version()
        if version != self.version:
            self.prefixes, self.version = _prefixes(self.included), version
        if (
            self.prefixes is not None
            and scope["type"] in ("http", "websocket")
            and not get_route_path(scope).startswith(self.prefixes)
        ):
            return Match.NONE, {}
        return self.matches(scope)


def guard_included_routers(app: FastAPI) -> None:
    """FastAPI (0.165) tries each router the application includes in turn, and in each every
    route's pattern, scope bookkeeping included: the last of the provider's 36 routers cost a
    request 0.4-0.6 ms of CPU more than the first (``python -m bench.floor --layers``). Each
    included router first compares the path with the literal beginnings of its routes; the
    answer is the one its routes give (tests/provider/test_route_guard.py). Call it once every
    router is included."""
    for route in app.router.routes:
        if hasattr(route, "effective_route_contexts") and hasattr(route, "original_router"):
            # An attribute of the instance, looked up before the class's method.
            route.matches = _Guard(route)  # type: ignore[method-assign]
