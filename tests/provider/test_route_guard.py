"""The provider's included routers answer a path none of their routes can match at once
(``guard_included_routers``): the answer must be the one their routes give, for every route."""

import uuid
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, FastAPI
from starlette.convertors import IntegerConvertor, PathConvertor, UUIDConvertor
from starlette.routing import Match

from portal.provider.main import create_app
from portal.provider.platform.routing import _Guard, guard_included_routers

SAMPLES = {IntegerConvertor: "7", UUIDConvertor: str(uuid.UUID(int=7)), PathConvertor: "a/b.txt"}


def _concrete(path_format: str, convertors: dict[str, Any]) -> str:
    for name, convertor in convertors.items():
        path_format = path_format.replace(f"{{{name}}}", SAMPLES.get(type(convertor), "x-1"))
    return path_format


def _scope(path: str, method: str = "GET", kind: str = "http") -> dict[str, Any]:
    return {"type": kind, "path": path, "root_path": "", "method": method, "headers": []}


def test_every_route_is_matched_as_without_the_guard(engine: sa.Engine) -> None:
    app = create_app(engine)
    entries = [route for route in app.router.routes if isinstance(route.matches, _Guard)]
    assert len(entries) > 30
    paths = {"/", "/nothing-here", "/api", "/api/", "/apix/services"}
    for entry in entries:
        for context in entry.effective_route_contexts():
            route = context.starlette_route or context
            path = _concrete(route.path_format, route.param_convertors)
            paths |= {path, path.rstrip("/") or "/", path + "/", path + "x"}
    matched = 0
    for path in sorted(paths):
        for method in ("GET", "POST", "DELETE"):
            for kind in ("http", "websocket"):
                scope = _scope(path, method, kind)
                for entry in entries:
                    guarded = entry.matches(dict(scope))
                    plain = entry.matches.matches(dict(scope))
                    assert guarded[0] == plain[0], (path, method, entry)
                    assert guarded[1].keys() == plain[1].keys(), (path, method, entry)
                    matched += guarded[0] is Match.FULL
    assert matched > 100


def test_a_route_added_later_is_matched() -> None:
    app = FastAPI()
    router = APIRouter(prefix="/early")

    @router.get("/route")
    async def early() -> dict[str, bool]:
        return {"ok": True}

    app.include_router(router)
    guard_included_routers(app)
    entry = app.router.routes[-1]
    assert isinstance(entry.matches, _Guard)
    assert entry.matches(_scope("/early/route"))[0] is Match.FULL
    assert entry.matches(_scope("/late/route"))[0] is Match.NONE

    router.add_api_route("/later", early)
    assert entry.matches(_scope("/early/later"))[0] is Match.FULL
