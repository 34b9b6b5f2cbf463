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

from fastapi import Response
from fastapi.routing import APIRoute, APIRouter
from pydantic import BaseModel

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
