"""The import dialog (spec 2, Import of client references): file chooser, the semicolon
warning, the template link, Validate disabled until a file is chosen (which sends it), the
refusal report."""

import reflex as rx

from portal import routes
from portal.client.resources.services import TEMPLATE
from portal.client_references import TEMPLATE_FILENAME
from portal.components.downloads import download_link
from portal.components.file_input import file_input
from portal.components.i18n import _
from portal.connections import backend_url
from portal.pages.services.import_state import UPLOAD_ID, ImportState


def _chooser() -> rx.Component:
    """A drop zone with the browser's file input stretched over it, invisible: a click opens
    the picker, a dropped file lands in the input."""
    return rx.box(
        rx.vstack(
            rx.icon("file-spreadsheet", size=28, color=rx.color("purple", 9)),
            rx.cond(
                ImportState.file_name != "",
                rx.text(ImportState.file_name, weight="bold", data_testid="chosen-file"),
                rx.text(_("Drop a CSV file here or click to choose one"), size="2"),
            ),
            align="center",
            spacing="2",
        ),
        file_input(
            UPLOAD_ID,
            ImportState.choose,
            accept=".csv,text/csv",
            aria_label=_("Drop a CSV file here or click to choose one"),
            position="absolute",
            inset="0",
            width="100%",
            height="100%",
            opacity="0",
            cursor="pointer",
        ),
        position="relative",
        border=f"2px dashed {rx.color('gray', 7)}",
        border_radius="var(--radius-3)",
        padding="24px",
        width="100%",
        _focus_within={"outline": f"2px solid {rx.color('purple', 8)}"},
        data_testid="import-dropzone",
    )


def _report() -> rx.Component:
    return rx.cond(
        ImportState.error != "",
        rx.callout.root(
            rx.callout.icon(rx.icon("circle-x")),
            rx.vstack(
                rx.callout.text(ImportState.error, weight="medium"),
                rx.el.ul(
                    rx.foreach(
                        ImportState.report_lines,
                        lambda line: rx.el.li(rx.text(line, size="2")),
                    ),
                    padding_left="18px",
                    margin="0",
                    max_height="200px",
                    overflow_y="auto",
                ),
                spacing="1",
            ),
            color_scheme="red",
            role="alert",
            width="100%",
        ),
    )


def import_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.trigger(
            rx.button(
                rx.icon("upload", size=16),
                _("Import reference"),
                variant="soft",
                data_testid="import-button",
            )
        ),
        rx.dialog.content(
            rx.dialog.title(_("Import client references")),
            rx.vstack(
                rx.callout(
                    _("The CSV file must use semicolons (;) as separators."),
                    icon="triangle-alert",
                    color_scheme="amber",
                    size="1",
                    width="100%",
                ),
                rx.text(
                    _(
                        "Each line gives a service reference and its client references, "
                        "separated by commas. The import replaces them all at once, or none "
                        "if a line is wrong."
                    ),
                    size="2",
                    color=rx.color("gray", 11),
                ),
                download_link(
                    rx.hstack(
                        rx.icon("download", size=16),
                        _("Download the CSV template"),
                        spacing="1",
                        align="center",
                    ),
                    href=backend_url(routes.file_path(TEMPLATE)),
                    filename=TEMPLATE_FILENAME,
                    style={"color": rx.color("purple", 11)},
                ),
                _chooser(),
                _report(),
                rx.hstack(
                    rx.dialog.close(rx.button(_("Close"), variant="soft", color_scheme="gray")),
                    rx.button(
                        _("Validate"),
                        # The chosen file leaves the browser now, and only now.
                        on_click=ImportState.validate(rx.upload_files(upload_id=UPLOAD_ID)),
                        disabled=(ImportState.file_name == "") | ImportState.sending,
                        loading=ImportState.sending,
                    ),
                    justify="end",
                    spacing="3",
                    width="100%",
                ),
                spacing="4",
                width="100%",
            ),
            max_width="560px",
        ),
        open=ImportState.open,
        on_open_change=ImportState.set_open,
    )
