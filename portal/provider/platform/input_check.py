"""Control characters stop at the edge (issue 18): the same answer on SQLite, which would store
a NUL, and on PostgreSQL, whose text columns refuse one (a 500 before this check).

A path with a control character names no resource (404); a query parameter holding one is a bad
parameter (400); a string of a JSON body holding one is a 422 on that field. Line breaks and tabs
stay allowed in bodies (descriptions and comments have several lines); nowhere else.
"""

import re
from typing import Any
from urllib.parse import unquote

from fastapi import Request

from portal.i18n import N_
from portal.provider.platform.errors import ApiError, Violation

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")
_BODY_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
NOT_ALLOWED = N_("This value contains characters that are not allowed.")


def has_control_characters(text: str) -> bool:
    return CONTROL_CHARACTERS.search(text) is not None


def _bad_strings(value: Any, path: str = "") -> list[str]:
    """The paths (``items.0.name``) of the strings holding a control character."""
    if isinstance(value, str):
        return [path] if _BODY_CONTROL_CHARACTERS.search(value) else []
    if isinstance(value, dict):
        found = []
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            found += [child] if _BODY_CONTROL_CHARACTERS.search(str(key)) else []
            found += _bad_strings(item, child)
        return found
    if isinstance(value, list):
        return [bad for i, item in enumerate(value) for bad in _bad_strings(item, f"{path}.{i}")]
    return []


async def refuse_control_characters(request: Request) -> None:
    raw_path = request.scope.get("raw_path") or request.url.path.encode()
    if has_control_characters(unquote(raw_path.decode("latin-1"))):
        raise ApiError(404)
    for name, value in request.query_params.multi_items():
        if has_control_characters(name) or has_control_characters(value):
            raise ApiError(
                400, N_("The parameter {name} is not valid."), name=CONTROL_CHARACTERS.sub("", name)
            )
    if "json" not in request.headers.get("content-type", ""):
        return
    try:
        body = await request.json()
    except ValueError:
        return  # FastAPI answers malformed JSON with its 400
    bad = _bad_strings(body)
    if bad:
        raise ApiError(
            422,
            N_("The data sent is not valid."),
            violations=[Violation(path, NOT_ALLOWED) for path in bad],
        )
