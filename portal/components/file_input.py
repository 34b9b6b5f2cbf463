"""A file chooser that is the browser's own ``<input type="file">``, sending the chosen file to
an upload handler at once (issue 11, item 4).

Reflex's ``rx.upload`` is built on react-dropzone's ``useDropzone`` hook, 8.5 KiB of gzip
JavaScript on the page that shows it, which a hook cannot load lazily. The browser's input does
what the portal needs of it: it opens the file picker when clicked, and takes a file dropped on
it (the caller stretches it over its drop zone). The file travels as with ``rx.upload``: Reflex's
``uploadFiles`` posts it to the backend's upload route with the tab's token.
"""

from typing import Any

import reflex as rx
from reflex.event import EventSpec, parse_args_spec
from reflex.vars import Var
from reflex_components_core.core.upload import Upload


def _chosen_files(event: Var) -> tuple[Var[list[rx.UploadFile]]]:
    """The chosen files, then the input emptied: the state alone says what is chosen (spec 5
    clears a refused selection), and choosing the same file again, corrected after a refusal,
    is a change the browser reports."""
    target = f"{event}.target"
    return (
        Var(f"((files) => (({target}.value = ''), files))(Array.from({target}.files))").to(list),
    )


class _FileInput(rx.el.Input):
    on_change: rx.EventHandler[_chosen_files]  # type: ignore[type-arg, valid-type]


def file_input(upload: EventSpec, **props: Any) -> rx.Component:
    """``upload`` is ``State.handler(rx.upload_files(...))``: its files become the chosen ones
    instead of those of a dropzone."""
    # Reflex opens its upload route for an app that uses an upload component.
    Upload.is_used = True
    (chosen,), _ = parse_args_spec(_chosen_files)
    args = tuple(
        (name, chosen if name._js_expr == "files" else value) for name, value in upload.args
    )
    return _FileInput.create(type="file", on_change=upload.with_args(args), **props)
