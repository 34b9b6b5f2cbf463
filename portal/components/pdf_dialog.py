"""The user documentation dialog (spec 2): the PDF of the current language, 60 % wide on large
screens and 80 % otherwise, 85 % of the window high, with a download link as a fallback."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.connections import backend_url
from portal.state.preferences import LanguageState


class DocumentationState(rx.State):
    open: bool = False

    @rx.event
    def set_open(self, value: bool):
        self.open = value


def documentation_url() -> rx.Var:
    return rx.cond(
        LanguageState.shown == "fr",
        backend_url(routes.USER_DOCUMENTATION_FR),
        backend_url(routes.USER_DOCUMENTATION_EN),
    )


def documentation_dialog() -> rx.Component:
    url = documentation_url()
    return rx.dialog.root(
        rx.dialog.content(
            rx.flex(
                rx.dialog.title(_("Documentation"), margin="0"),
                rx.spacer(),
                rx.link(
                    rx.hstack(rx.icon("download", size=16), _("Download"), spacing="1"),
                    href=url,
                    is_external=True,
                    download=True,
                    size="2",
                ),
                rx.dialog.close(
                    rx.icon_button(rx.icon("x"), variant="ghost", aria_label=_("Close"))
                ),
                align="center",
                gap="3",
            ),
            rx.el.object(
                rx.text(
                    _("The document cannot be displayed here."),
                    " ",
                    rx.link(_("Download the user documentation"), href=url, is_external=True),
                ),
                data=url,
                type="application/pdf",
                width="100%",
                height="calc(85vh - 80px)",
                title=_("User documentation"),
            ),
            max_width=["80vw", "80vw", "80vw", "60vw"],
            width=["80vw", "80vw", "80vw", "60vw"],
            height="85vh",
            padding="16px",
        ),
        open=DocumentationState.open,
        on_open_change=DocumentationState.set_open,
    )
