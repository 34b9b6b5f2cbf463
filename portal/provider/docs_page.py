"""The API reference at ``/docs``: Swagger UI from the project's own copy, not from a CDN; and
the customers' reference at ``/customer-api``, the same page over the document of the reads a
personal API token may make (issue 51).

FastAPI's page loads Swagger UI's script and style from jsdelivr and its icon from FastAPI's
site: every reader of the reference would tell a third party they read it, a compromised CDN
would run its script in the provider's origin, and the page would be blank on a network without
those hosts. The ``swagger-ui-bundle-v2`` package ships Swagger UI's built files; the provider
serves the three the page needs, and the page's policy allows nothing but this host.
"""

import base64
import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from swagger_ui_bundle import swagger_ui_path

from portal.provider.platform.api_tokens import READ_ROUTES
from portal.provider.platform.errors import ApiError

DOCS_PATH = "/docs"
ASSETS_PATH = f"{DOCS_PATH}/assets"
OPENAPI_PATH = "/openapi.json"
CUSTOMER_DOCS_PATH = "/customer-api"
CUSTOMER_OPENAPI_PATH = f"{CUSTOMER_DOCS_PATH}/openapi.json"
_SCHEMA_REF = "#/components/schemas/"
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


def _swagger_page(request: Request, openapi_path: str, title: str) -> HTMLResponse:
    root = request.scope.get("root_path", "").rstrip("/")
    page = get_swagger_ui_html(
        openapi_url=root + openapi_path,
        title=title,
        swagger_js_url=f"{root}{ASSETS_PATH}/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{ASSETS_PATH}/swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSETS_PATH}/favicon-32x32.png",
        # Swagger UI would otherwise send the document to validator.swagger.io for a badge.
        swagger_ui_parameters={"validatorUrl": None},
    )
    page.headers["Content-Security-Policy"] = _policy(bytes(page.body).decode())
    return page


@router.get(DOCS_PATH)
def docs_page(request: Request) -> HTMLResponse:
    return _swagger_page(request, OPENAPI_PATH, f"{request.app.title} - Swagger UI")


@router.get(CUSTOMER_DOCS_PATH)
def customer_docs_page(request: Request) -> HTMLResponse:
    return _swagger_page(request, CUSTOMER_OPENAPI_PATH, f"{request.app.title} - customer API")


@router.get(CUSTOMER_OPENAPI_PATH)
def customer_openapi(request: Request) -> JSONResponse:
    """The reads a personal API token may make, and nothing else of the API."""
    return JSONResponse(customer_document(request.app.openapi()))


def customer_document(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` kept to the GET operations of ``READ_ROUTES``, each authenticated by a
    personal token alone, with the schemas they name."""
    opened = {route for routes in READ_ROUTES.values() for route in routes}
    paths: dict[str, Any] = {}
    for path, item in document["paths"].items():
        if path in opened and "get" in item:
            operation = copy.deepcopy(item["get"])
            operation["security"] = [{"personalToken": []}]
            paths[path] = {"get": operation}
    components = document.get("components", {})
    schemas = components.get("schemas", {})
    kept: dict[str, Any] = {}
    waiting = _schema_names(paths)
    while waiting:
        name = waiting.pop()
        if name in kept or name not in schemas:
            continue
        kept[name] = schemas[name]
        waiting |= _schema_names(schemas[name])
    schemes = components.get("securitySchemes", {})
    return {
        "openapi": document["openapi"],
        "info": {
            **document["info"],
            "title": f"{document['info']['title']} - customer API",
            "description": "The reads of the customer API, with a personal API token "
            "(`Authorization: Bearer pbt_…`): each answers what the token's user may read.",
        },
        "paths": paths,
        "components": {
            "schemas": dict(sorted(kept.items())),
            "securitySchemes": {"personalToken": schemes["personalToken"]},
        },
    }


def _schema_names(part: Any) -> set[str]:
    """The schemas ``part`` of a document refers to."""
    return set(re.findall(r'"\$ref": "' + re.escape(_SCHEMA_REF) + r'([^"]+)"', json.dumps(part)))


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
