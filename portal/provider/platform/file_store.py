"""Files written under the data directory (``settings.data_dir``) by the API: the integration
API's documents and the files customers attach to tickets. Each is written atomically under an
ASCII name of its own; rows keep the path relative to the data directory, as the download
routes (``downloads``) expect."""

import os
import re
import tempfile
import unicodedata
from pathlib import Path, PurePosixPath

from portal.provider.platform.downloads import safe_filename
from portal.settings import get_settings

_DISK_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def disk_name(name: str) -> str:
    """An ASCII name for the disk: accents folded, anything else but ``A-Za-z0-9._-`` as ``_``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = _DISK_UNSAFE.sub("_", ascii_name).strip("._")[-100:]
    return cleaned or "file"


def display_name(filename: str, fallback: str = "document.pdf") -> str:
    """The name offered for download: the last part of what the client sent (browsers and
    some tools send a path), without characters unsafe in a header."""
    return safe_filename(PurePosixPath(filename.replace("\\", "/")).name, fallback=fallback)


def write_file(
    store: PurePosixPath, folder: str, name: str, content: bytes, previous: str | None
) -> str:
    """Write ``content`` atomically as ``store/folder/<disk name>``; remove the file it
    replaces if it was stored under ``store`` too (the demo data's shared files are left
    alone). Answers the path relative to the data directory."""
    root = get_settings().data_dir
    relative = (store / folder / disk_name(name)).as_posix()
    target = root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".upload-")
    with os.fdopen(handle, "wb") as stream:
        stream.write(content)
    Path(temporary).replace(target)
    if previous and previous != relative and previous.startswith(store.as_posix() + "/"):
        (root / previous).unlink(missing_ok=True)
    return relative
