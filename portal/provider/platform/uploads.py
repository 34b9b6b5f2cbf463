"""One file uploaded as the multipart field ``file``, read within a size limit: the one reader
of the upload routes (the client-references import, the integration API's files, ticket
attachments).

The body is read as it arrives and refused (413) as soon as it passes the limit, so an
oversized upload costs neither memory nor disk; a declared ``Content-Length`` above the limit is
refused before anything is read. Each route says its limit and which files it accepts; the
reader answers the file's name and type as the client sent them, its bytes, and the form's
other fields. The body is read by hand, so each route documents it with ``multipart_body``.
"""

from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from portal.i18n import N_
from portal.provider.platform.errors import ApiError, Violation

FIELD = "file"
# Room for the multipart boundaries and part headers around the file itself.
ENVELOPE_BYTES = 64 * 1024
TOO_LARGE = N_("The file is larger than the limit of {max} MB.")
NO_FILE = N_("This value should not be blank.")
MEGABYTE = 1024 * 1024


@dataclass(frozen=True)
class Upload:
    """The file as received: ``name`` and ``content_type`` as the client sent them (either may
    be empty), and the form's other fields."""

    name: str
    content_type: str
    content: bytes
    fields: dict[str, str] = field(default_factory=dict)


def _any_file(_name: str, _content_type: str) -> bool:
    return True


def _too_large(limit: int) -> ApiError:
    return ApiError(413, TOO_LARGE, max=f"{limit / MEGABYTE:g}")


def _invalid(message: str) -> ApiError:
    return ApiError(422, message, violations=[Violation(FIELD, message)])


async def _bounded(request: Request, limit: int) -> AsyncGenerator[bytes, None]:
    received = 0
    async for chunk in request.stream():
        received += len(chunk)
        if received > limit + ENVELOPE_BYTES:
            raise _too_large(limit)
        yield chunk


async def read_upload(
    request: Request,
    *,
    limit: int,
    accepts: Callable[[str, str], bool] = _any_file,
    refusal: str = NO_FILE,
) -> Upload:
    """The uploaded file, at most ``limit`` bytes; 413, or 422 on ``file`` when there is none
    or ``accepts(name, content_type)`` refuses it (with the message ``refusal``)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit + ENVELOPE_BYTES:
        raise _too_large(limit)
    if not request.headers.get("content-type", "").lower().startswith("multipart/form-data"):
        raise _invalid(NO_FILE)
    parser = MultiPartParser(request.headers, _bounded(request, limit), max_files=1, max_fields=10)
    try:
        form = await parser.parse()
    except MultiPartException as error:
        raise _invalid(NO_FILE) from error
    try:
        upload = form.get(FIELD)
        if not isinstance(upload, UploadFile):
            raise _invalid(NO_FILE)
        name, content_type = upload.filename or "", upload.content_type or ""
        if not accepts(name, content_type):
            raise _invalid(refusal)
        content = await upload.read(limit + 1)
        if len(content) > limit:
            raise _too_large(limit)
        fields = {key: value for key, value in form.items() if isinstance(value, str)}
        return Upload(name, content_type, content, fields)
    finally:
        await form.close()


def multipart_body(**fields: dict[str, Any]) -> dict[str, Any]:
    """The ``openapi_extra`` of a route reading its body with ``read_upload``: the field
    ``file`` (required) and the optional ``fields`` given, each with its JSON schema."""
    binary = {"type": "string", "format": "binary", "description": "The file; its name is kept."}
    return {
        "requestBody": {
            "required": True,
            "content": {
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "properties": {FIELD: binary, **fields},
                        "required": [FIELD],
                    }
                }
            },
        }
    }
