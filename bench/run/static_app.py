"""The HTTP limit: each captured response body served from memory by a bare ASGI app, on the
same server (Granian) as the portal. ``/{name}`` answers ``{name}.body`` with ``{name}.type``."""

import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

_FOLDER = Path(os.environ.get("BENCH_STATIC_DIR", "."))
_BODIES = {
    path.stem: (path.read_bytes(), path.with_suffix(".type").read_text())
    for path in _FOLDER.glob("*.body")
}


async def body(request: Request) -> Response:
    content, media_type = _BODIES[request.path_params["name"]]
    return Response(content, media_type=media_type)


async def ready(_request: Request) -> Response:
    return PlainTextResponse("ready")


app = Starlette(
    routes=[
        Route("/_ready", ready),
        Route("/{name}", body, methods=["GET", "POST"]),
    ]
)
