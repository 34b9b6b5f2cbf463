"""A CSV file uploaded as the multipart field ``file``, read within the size limit.

The body is read as it arrives and refused (413) as soon as it passes the limit, so an
oversized upload costs neither memory nor disk; a declared ``Content-Length`` above the limit is
refused before anything is read. The file's name and type follow spec 5's rule.
"""

from collections.abc import AsyncGenerator

from fastapi import Request
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from portal.client_references import INVALID_CSV_FILE, is_csv_file
from portal.i18n import N_
from portal.provider.platform.errors import ApiError, Violation
from portal.settings import get_settings

FIELD = "file"
# Room for the multipart boundaries and part headers around the file itself.
ENVELOPE_BYTES = 64 * 1024
TOO_LARGE = N_("The file is larger than the limit of {max} MB.")
NO_FILE = N_("This value should not be blank.")
MEGABYTE = 1024 * 1024


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


async def read_upload(request: Request) -> bytes:
    """The content of the uploaded CSV file; 413, or 422 on ``file``, when it cannot be."""
    limit = get_settings().import_max_bytes
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
        if not is_csv_file(upload.filename or "", upload.content_type):
            raise _invalid(INVALID_CSV_FILE)
        content = await upload.read(limit + 1)
        if len(content) > limit:
            raise _too_large(limit)
        return content
    finally:
        await form.close()
