"""The API reference at ``/docs``: Swagger UI from the project's own copy, not from a CDN.

FastAPI's page loads Swagger UI's script and style from jsdelivr and its icon from FastAPI's
site: every reader of the reference would tell a third party they read it, a compromised CDN
would run its script in the provider's origin, and the page would be blank on a network without
those hosts. The ``swagger-ui-bundle-v2`` package ships Swagger UI's built files; the provider
serves the three the page needs, and the page's policy allows nothing but this host.
"""

import base64
import hashlib
import re
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from swagger_ui_bundle import swagger_ui_path

from portal.provider.platform.errors import ApiError

DOCS_PATH = "/docs"
ASSETS_PATH = f"{DOCS_PATH}/assets"
OPENAPI_PATH = "/openapi.json"
_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon-32x32.png": "image/png",
}
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def _policy(page: str) -> str:
    """Everything from this host alone; of inline scripts, only the page's own, which starts
    Swagger UI (named by its hash). Swagger UI sets styles inline."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(page)
    )
    return (
        f"default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'none'"
    )


router = APIRouter(include_in_schema=False)


@router.get(DOCS_PATH)
def docs_page(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "").rstrip("/")
    page = get_swagger_ui_html(
        openapi_url=root + OPENAPI_PATH,
        title=f"{request.app.title} - Swagger UI",
        swagger_js_url=f"{root}{ASSETS_PATH}/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{ASSETS_PATH}/swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSETS_PATH}/favicon-32x32.png",
        # Swagger UI would otherwise send the document to validator.swagger.io for a badge.
        swagger_ui_parameters={"validatorUrl": None},
    )
    page.headers["Content-Security-Policy"] = _policy(bytes(page.body).decode())
    return page


@router.get(ASSETS_PATH + "/{name}")
def docs_asset(name: str) -> FileResponse:
    if name not in _ASSETS:
        raise ApiError(404)
    return FileResponse(
        Path(str(swagger_ui_path)) / name,
        media_type=_ASSETS[name],
        # The same files until the package is upgraded: a day in the browser's cache.
        headers={"Cache-Control": "public, max-age=86400"},
    )
