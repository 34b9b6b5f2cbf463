"""Issue 18, item 9: the OpenAPI document tells the truth, and cannot drift back.

Each rule is checked on every operation of the document: what a route's dependencies imply
(a principal: 401 and 403; a path parameter: 404; a body: 413 and 422; every operation: 400),
the error media type and schema, the paging bounds. Where a rule is about behaviour, the
provider is asked too: an anonymous request answers 401 exactly where 401 is declared.
"""

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from portal.provider.platform.api_tokens import READ_ROUTES, read_scope
from portal.provider.platform.hydra import MAX_PAGE
from portal.settings import get_settings
from tests.provider.conftest import SignIn, World

METHODS = ("get", "post", "put", "patch", "delete")
UNSAFE = ("post", "put", "patch", "delete")
Operation = tuple[str, str, dict[str, Any]]


@pytest.fixture
async def document(client: httpx.AsyncClient) -> dict[str, Any]:
    answer = await client.get("/openapi.json")
    assert answer.status_code == 200
    return dict(answer.json())


def operations(document: dict[str, Any]) -> Iterator[Operation]:
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def statuses(operation: dict[str, Any]) -> set[int]:
    return {int(status) for status in operation["responses"] if status.isdigit()}


def test_every_error_is_json_ld_of_the_error_schema(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            if int(status) < 400:
                continue
            assert set(response["content"]) == {"application/ld+json"}, (method, path, status)
            schema = response["content"]["application/ld+json"]["schema"]
            expected = "InvalidData" if status == "422" else "Error"
            assert schema == {"$ref": f"#/components/schemas/{expected}"}, (method, path, status)
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas
    assert {"@type", "title", "detail", "status"} <= set(schemas["Error"]["required"])
    assert schemas["InvalidData"]["required"] == ["violations"]


def test_json_answers_are_named_json_ld(document: dict[str, Any]) -> None:
    """The answers ProviderRequestMiddleware renames: FastAPI documents them as plain JSON."""
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            assert "application/json" not in response.get("content", {}), (method, path, status)


def test_every_operation_declares_400_for_its_query_string(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        assert 400 in statuses(operation), (method, path)


def test_a_path_parameter_means_404(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        if "{" in path:
            assert 404 in statuses(operation), (method, path)


def test_a_body_means_413_and_422_and_no_body_no_422(document: dict[str, Any]) -> None:
    """Query parameters that are not valid are a 400 (errors.validation_error), never a 422."""
    for path, method, operation in operations(document):
        if "requestBody" in operation:
            assert {413, 422} <= statuses(operation), (method, path)
        else:
            assert 422 not in statuses(operation), (method, path)


def test_a_write_means_403_for_a_foreign_origin(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        if method in UNSAFE:
            assert 403 in statuses(operation), (method, path)


# The login steps: a 401 there is a refused credential or an expired pending login, with no
# principal to present.
LOGIN_PATHS = ("/login", "/login/second_factor", "/login/passkey", "/login/passkey/options")


def test_a_principal_means_401_403_and_its_credentials(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["session"] == {
        "type": "apiKey",
        "in": "cookie",
        "name": "PATCHBAY_PROVIDER_SESSION",
        "description": schemes["session"]["description"],
    }
    assert schemes["token"]["scheme"] == "bearer"
    for path, method, operation in operations(document):
        if 401 in statuses(operation) and path not in LOGIN_PATHS:
            assert {401, 403} <= statuses(operation), (method, path)
            # An integration token is taken on the integration API alone, a personal token on
            # the reads of its scopes, whose rate limit may answer 429.
            credentials = [{"session": []}]
            if path.startswith("/api/integration/"):
                credentials.append({"token": []})
            if method == "get" and read_scope(path):
                credentials.append({"personalToken": []})
                assert 429 in statuses(operation), (method, path)
            assert operation["security"] == credentials, (method, path)
        else:
            assert "security" not in operation, (method, path)


def _example_path(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "00000000-0000-0000-0000-000000000000", path)


async def test_401_is_declared_exactly_where_an_anonymous_request_gets_it(
    client: httpx.AsyncClient, world: World, document: dict[str, Any]
) -> None:
    for path, method, operation in operations(document):
        answer = await client.request(method.upper(), _example_path(path))
        declared = 401 in statuses(operation)
        if answer.status_code == 401:
            assert declared, (method, path)
        elif path not in LOGIN_PATHS:
            assert not declared, (method, path, answer.status_code)


def test_rate_limited_operations_declare_429_with_retry_after(document: dict[str, Any]) -> None:
    limited = {
        (path, method)
        for path, method, operation in operations(document)
        if 429 in statuses(operation)
    }
    # The login and reset limits, and every read a personal token opens (its own limit).
    personal_reads = {(route, "get") for routes in READ_ROUTES.values() for route in routes}
    assert limited == {
        ("/login", "post"),
        ("/login/second_factor", "post"),
        ("/login/sso/start", "post"),
        ("/login/passkey", "post"),
        ("/reset", "post"),
        ("/api/tickets", "post"),
        ("/api/tickets/{ticket_id}/messages", "post"),
        *personal_reads,
    }
    for path, method in limited:
        headers = document["paths"][path][method]["responses"]["429"]["headers"]
        assert headers["Retry-After"]["required"] is True


def _integer(schema: dict[str, Any]) -> dict[str, Any]:
    """The integer schema of a parameter, also when it may be left out (``anyOf`` with null)."""
    return next(option for option in schema.get("anyOf", [schema]) if option["type"] == "integer")


def test_paged_lists_declare_their_bounds(document: dict[str, Any]) -> None:
    paged = 0
    for path, method, operation in operations(document):
        parameters = {p["name"]: p for p in operation.get("parameters", ()) if p["in"] == "query"}
        if "itemsPerPage" not in parameters:
            continue
        paged += 1
        page, size = (_integer(parameters[name]["schema"]) for name in ("page", "itemsPerPage"))
        assert (page["minimum"], page["maximum"]) == (1, MAX_PAGE), (method, path)
        if path == "/api/sensors":  # a company's sensors in one call (monitoring/routes/sensors.py)
            assert size["minimum"] == 1, (method, path)
        else:  # 0: the number of items alone
            assert size["minimum"] == 0, (method, path)
            assert size["maximum"] == get_settings().items_per_page_max, (method, path)
    assert paged >= 10


async def test_the_paging_bounds_are_the_ones_the_provider_keeps(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, document: dict[str, Any]
) -> None:
    await sign_in("admin")
    maximum = get_settings().items_per_page_max
    assert (await client.get("/api/users", params={"itemsPerPage": maximum})).status_code == 200
    for params in ({"itemsPerPage": maximum + 1}, {"itemsPerPage": -1}, {"page": 0}):
        answer = await client.get("/api/users", params=params)
        assert answer.status_code == 400, params
    answer = await client.get("/api/users", params={"page": MAX_PAGE + 1})
    assert answer.status_code == 400


def test_downloads_declare_their_media_type(document: dict[str, Any]) -> None:
    def media_types(path: str, method: str = "get", status: str = "200") -> set[str]:
        return set(document["paths"][path][method]["responses"][status].get("content", {}))

    assert media_types("/api/invoices/{invoice_id}/pdf") == {"application/pdf"}
    assert media_types("/api/services/{service_id}/order_pdf") == {"application/pdf"}
    assert media_types("/api/tickets/{ticket_id}/attachments/{attachment_id}") == {"*/*"}
    assert media_types("/api/services/export") == {"text/csv"}
    assert media_types("/api/services/client_reference/download_csv") == {"text/csv"}
    assert media_types("/api/sensors/{sensor_id}/chart/svg") == {"image/svg+xml"}
    assert media_types("/api/users") == {"application/ld+json"}
    login = document["paths"]["/login"]["post"]["responses"]["204"]
    assert login["headers"]["Location"]["required"] is True


async def test_the_docs_page_loads_nothing_from_another_host(client: httpx.AsyncClient) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    html = page.text
    assert "SwaggerUIBundle" in html
    # No host is named at all: every address is a path of the provider's own.
    assert re.findall(r"(?:https?:)?//[\w.-]+", html) == []
    addresses = re.findall(r"""(?:src|href)="([^"]+)"|url: '([^']+)'""", html)
    paths = sorted(filter(None, (a or b for a, b in addresses)))
    assert paths == [
        "/provider/docs/assets/favicon-32x32.png",
        "/provider/docs/assets/swagger-ui-bundle.js",
        "/provider/docs/assets/swagger-ui.css",
        "/provider/openapi.json",
    ]
    for path in paths:
        answer = await client.get(path.removeprefix("/provider"))
        assert answer.status_code == 200, path
        assert answer.content
    # The browser is told the same: nothing but this host, and no inline script but the page's.
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy
    assert "script-src 'self' 'sha256-" in policy
    assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    assert "http" not in policy


async def test_only_swagger_uis_own_files_are_served(client: httpx.AsyncClient) -> None:
    for name in ("index.html", "..%2F..%2F__init__.py", "swagger-ui-bundle.js.map"):
        assert (await client.get(f"/docs/assets/{name}")).status_code == 404
