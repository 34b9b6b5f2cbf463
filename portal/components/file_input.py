"""A file chooser that is the browser's own ``<input type="file">`` (issue 11, item 4), whose
chosen file stays in the browser until an upload sends it (issue 47, item 10).

Reflex's ``rx.upload`` is built on react-dropzone's ``useDropzone`` hook, 8.5 KiB of gzip
JavaScript on the page that shows it, which a hook cannot load lazily. The browser's input does
what the portal needs of it: it opens the file picker when clicked, and takes a file dropped on
it (the caller stretches it over its drop zone). The chosen file is kept where Reflex's upload
components keep theirs, under the input's id, so that ``rx.upload_files(upload_id=…)`` posts it
to the backend's upload route when the caller says (and ``rx.clear_selected_files`` lets go of
it); the change event gives the state only its name, type and size.
"""

from typing import Any

import reflex as rx
from reflex.event import EventType
from reflex.vars import Var
from reflex_components_core.core.upload import Upload, get_upload_files_context_var_data

# Keeps the input's files under its id, then empties it: the state alone says what is chosen
# (spec 5 clears a refused selection), and choosing the same file again, corrected after a
# refusal, is a change the browser reports. Once per change event, whichever field asks first.
_KEEP = (
    "((input) => { const files = Array.from(input.files); input.value = '';"
    " setFilesById((byId) => ({ ...byId, [input.id]: files }));"
    " const file = files[0];"
    " return { name: file?.name ?? '', type: file?.type ?? '', size: file?.size ?? 0 }; })"
)


def _chosen_file(event: Var) -> tuple[Var[str], Var[str], Var[int]]:
    """The chosen file's name, type and size ("", "", 0 when none)."""
    chosen = f"({event}.__chosen ??= {_KEEP}({event}.target))"
    keeps = get_upload_files_context_var_data()
    return (
        Var(f"{chosen}.name", _var_data=keeps).to(str),
        Var(f"{chosen}.type", _var_data=keeps).to(str),
        Var(f"{chosen}.size", _var_data=keeps).to(int),
    )


class _FileInput(rx.el.Input):
    on_change: rx.EventHandler[_chosen_file]  # type: ignore[type-arg, valid-type]


def file_input(upload_id: str, on_choose: EventType[str, str, int], **props: Any) -> rx.Component:
    """``on_choose`` takes the chosen file's name, type and size; the file itself is kept for
    ``rx.upload_files(upload_id=upload_id)``."""
    # Reflex opens its upload route for an app that uses an upload component.
    Upload.is_used = True
    return _FileInput.create(type="file", id=upload_id, on_change=on_choose, **props)


# As ``_KEEP``, for a field that takes several files: the files chosen join those chosen before
# under the input's id (a second choice or drop adds to the first), and the event gives the
# state the name, type and size of each new one.
_ADD = (
    "((input) => { const files = Array.from(input.files); input.value = '';"
    " setFilesById((byId) => ({ ...byId, [input.id]: [...(byId[input.id] ?? []), ...files] }));"
    " return files.map((file) => ({ name: file.name, type: file.type, size: file.size })); })"
)


def _added_files(event: Var) -> tuple[Var[list[dict[str, Any]]]]:
    """The files just chosen: ``[{name, type, size}, …]``."""
    added = f"({event}.__added ??= {_ADD}({event}.target))"
    return (Var(added, _var_data=get_upload_files_context_var_data()).to(list),)


class _FilesInput(rx.el.Input):
    on_change: rx.EventHandler[_added_files]  # type: ignore[type-arg, valid-type]


def files_input(
    upload_id: str, on_add: EventType[list[dict[str, Any]]], **props: Any
) -> rx.Component:
    """A field of several files: ``on_add`` takes the new ones' name, type and size; all are
    kept for ``rx.upload_files(upload_id=upload_id)`` until ``rx.clear_selected_files``."""
    Upload.is_used = True
    return _FilesInput.create(type="file", id=upload_id, multiple=True, on_change=on_add, **props)
