"""The request id and timing middleware that the portal's edge and the provider share: the id
kept or made, on the log lines and in the answer, and one measure per request."""

import pytest
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient
from starlette.types import Scope

from portal.logs import REQUEST_ID_HEADER, current_request_id
from portal.request_timing import TimedRequests


async def echo(request: Request) -> PlainTextResponse:
    """Answers the request id it runs under, after its body."""
    body = await request.body()
    return PlainTextResponse(body.decode() + current_request_id(), status_code=201)


async def fail(request: Request) -> PlainTextResponse:
    raise RuntimeError("boom")


class Recorded(TimedRequests):
    def __init__(self, app, observed: list[tuple[str, int, int, int]]) -> None:
        super().__init__(app)
        self.observed = observed

    def add_headers(self, headers: MutableHeaders) -> None:
        headers["X-Served-By"] = "portal-a"

    def observe(self, scope: Scope, status: int, elapsed: float, received: int, sent: int) -> None:
        assert elapsed >= 0
        self.observed.append((scope["path"], status, received, sent))


@pytest.fixture
def observed() -> list[tuple[str, int, int, int]]:
    return []


@pytest.fixture
def client(observed: list[tuple[str, int, int, int]]) -> TestClient:
    app = Starlette(routes=[Route("/echo", echo, methods=["POST"]), Route("/fail", fail)])
    return TestClient(Recorded(app, observed), raise_server_exceptions=False)


def test_a_callers_id_is_kept_on_the_log_lines_and_in_the_answer(client: TestClient) -> None:
    answer = client.post("/echo", content=b"id=", headers={REQUEST_ID_HEADER: "proxy-1234abcd"})
    assert answer.text == "id=proxy-1234abcd"
    assert answer.headers[REQUEST_ID_HEADER] == "proxy-1234abcd"
    assert answer.headers["X-Served-By"] == "portal-a"


@pytest.mark.parametrize("sent", [None, "short", "forged id\nGET /admin 200"])
def test_an_id_that_does_not_look_like_one_is_replaced(client: TestClient, sent) -> None:
    headers = {REQUEST_ID_HEADER: sent} if sent else {}
    answer = client.post("/echo", content=b"", headers=headers)
    made = answer.headers[REQUEST_ID_HEADER]
    assert made != sent
    assert len(made) == 16
    assert answer.text == made


def test_each_request_is_measured_once_with_its_status_and_bytes(
    client: TestClient, observed: list[tuple[str, int, int, int]]
) -> None:
    answer = client.post("/echo", content=b"0123456789")
    assert observed == [("/echo", 201, 10, len(answer.content))]


def test_a_request_that_fails_before_its_answer_is_measured_as_a_500(
    client: TestClient, observed: list[tuple[str, int, int, int]]
) -> None:
    assert client.get("/fail").status_code == 500
    assert [(path, status) for path, status, _received, _sent in observed] == [("/fail", 500)]
