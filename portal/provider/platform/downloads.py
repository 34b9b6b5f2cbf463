"""Stored documents sent as downloads: streamed from disk, always as attachments.

Rows keep a document's path relative to the data directory (``settings.data_dir``). A path
that leads outside it (``..``, an absolute path, a symbolic link pointing elsewhere) or to no
file is answered like an unknown document: 404, with the cause in the log.
"""

import logging
import mimetypes
import re
import unicodedata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.responses import FileResponse

from portal.provider.platform.errors import ApiError
from portal.settings import get_settings

logger = logging.getLogger(__name__)

# Characters a file name may not carry into a header or onto a disk of any system.
_UNSAFE = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|;]+')
FILENAME_MAX_LENGTH = 150


def safe_filename(name: str, fallback: str = "document.pdf") -> str:
    """A file name for ``Content-Disposition``: no path, quotes, separators or control
    characters; accents are kept (Starlette encodes them as ``filename*``)."""
    cleaned = _UNSAFE.sub("_", unicodedata.normalize("NFC", name)).strip(" .")
    if len(cleaned) > FILENAME_MAX_LENGTH:
        stem, dot, extension = cleaned.rpartition(".")
        keep = FILENAME_MAX_LENGTH - len(extension) - 1
        cleaned = (
            f"{stem[:keep]}.{extension}" if dot and keep > 0 else cleaned[:FILENAME_MAX_LENGTH]
        )
    return cleaned or fallback


def content_disposition(filename: str) -> str:
    """``attachment`` with the name as plain ASCII for every client and, when it has other
    characters, also in UTF-8 (RFC 6266) for the clients that read it."""
    name = safe_filename(filename)
    fallback = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode() or "download"
    header = f'attachment; filename="{fallback}"'
    if fallback != name:
        header += f"; filename*=utf-8''{quote(name, safe='')}"
    return header


def stored_path(relative: str | None) -> Path:
    """The file a row points to, inside the data directory; 404 otherwise."""
    if not relative:
        raise ApiError(404)
    root = get_settings().data_dir.resolve()
    path = (root / relative).resolve()
    if not path.is_relative_to(root):
        logger.warning("Refused a document path outside the data directory: %s", relative)
        raise ApiError(404)
    if not path.is_file():
        logger.warning("A stored document is missing: %s", path)
        raise ApiError(404)
    return path


def file_answer(media_type: str = "*/*") -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route answering a stored file, for the OpenAPI document: FastAPI
    documents no media type for a ``FileResponse``. ``*/*``: the type the file was stored with."""
    schema = {"type": "string", "format": "binary"}
    return {
        200: {
            "description": "The file, as an attachment.",
            "content": {media_type: {"schema": schema}},
        }
    }


CSV_ANSWER = file_answer("text/csv")


def attachment(relative: str | None, filename: str, media_type: str | None = None) -> FileResponse:
    """The stored file as a download named ``filename``, read from disk as it is sent."""
    path = stored_path(relative)
    name = safe_filename(filename, fallback=path.name)
    guessed = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return FileResponse(
        path,
        media_type=media_type or guessed,
        headers={
            "Content-Disposition": content_disposition(name),
            "Cache-Control": "private, no-store",
        },
    )
