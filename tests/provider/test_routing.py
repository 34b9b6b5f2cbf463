"""ProviderRoute: a read writes its JSON in its own thread, byte for byte what FastAPI writes,
and leaves to FastAPI what it cannot do the same way."""

import inspect

from fastapi import APIRouter, FastAPI, Response
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.routing import ProviderRoute, ProviderRouter
from portal.provider.routers import ROUTERS


class Thing(ApiModel):
    full_name: str
    note: str | None = None


def _routes(router: APIRouter) -> None:
    @router.get("/thing", response_model=Thing)
    def thing() -> Thing:
        return Thing(full_name="Ada")

    @router.get("/sparse", response_model=Thing, response_model_exclude_none=True)
    def sparse() -> Thing:
        return Thing(full_name="Ada")

    @router.get("/chosen", response_model=Thing)
    def chosen(response: Response) -> Thing:
        response.status_code = 202
        response.headers["Location"] = "/thing"
        return Thing(full_name="Ada")

    @router.post("/things", response_model=Thing, status_code=201)
    def create() -> Thing:
        return Thing(full_name="Ada")

    @router.get("/listed", response_model=list[Thing])
    def listed() -> list[Thing]:
        return [Thing(full_name="Ada")]


def _client(router: APIRouter) -> TestClient:
    _routes(router)
    app = FastAPI()
    app.include_router(router)
    return TestClient(app)


def test_a_provider_route_answers_as_fastapi_does() -> None:
    plain, provider = _client(APIRouter()), _client(ProviderRouter())
    for method, path in [
        ("GET", "/thing"),
        ("GET", "/sparse"),
        ("GET", "/chosen"),
        ("POST", "/things"),
        ("GET", "/listed"),
    ]:
        expected, answer = plain.request(method, path), provider.request(method, path)
        assert answer.status_code == expected.status_code, path
        assert answer.content == expected.content, path
        assert answer.headers.get("location") == expected.headers.get("location"), path
    assert provider.get("/thing").json() == {"fullName": "Ada", "note": None}
    assert provider.get("/sparse").json() == {"fullName": "Ada"}
    assert provider.get("/chosen").status_code == 202


def test_a_provider_read_returns_its_own_response() -> None:
    router = ProviderRouter()
    _routes(router)
    endpoints = {
        route.path: route.dependant.call
        for route in router.routes
        if isinstance(route, APIRoute) and route.dependant.call is not None
    }
    # What FastAPI gets back from the endpoint: a finished answer, or the model for it to write.
    assert isinstance(endpoints["/thing"](), Response)
    assert isinstance(endpoints["/sparse"](), Response)
    assert isinstance(endpoints["/things"](), Thing)


def test_every_provider_route_is_a_provider_route() -> None:
    routes = [route for router in ROUTERS for route in router.routes]
    assert len(routes) > 50
    assert all(isinstance(route, ProviderRoute) for route in routes)


def _sync_dependencies(dependant: Dependant) -> set[str]:
    found: set[str] = set()
    for dependency in dependant.dependencies:
        found |= _sync_dependencies(dependency)
        call = dependency.call
        if not (inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)):
            found.add(getattr(call, "__qualname__", repr(call)))
    return found


def test_no_dependency_waits_for_a_thread() -> None:
    # FastAPI runs a synchronous dependency in its thread pool: a hop that costs more than a
    # small read's own work (docs/decisions/one-hop-reads.md). A dependency that only reads the
    # request is asynchronous, and so is the principal's lookup: on PostgreSQL it reads on the
    # event loop (``loop_reads``), so that an ``async def`` route taking it waits for no thread;
    # what must block (SQLite, a token, a write) it sends to the thread pool itself.
    found = {
        name
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute)
        for name in _sync_dependencies(route.dependant)
    }
    assert found == set()
