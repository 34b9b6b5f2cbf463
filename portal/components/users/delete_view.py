"""The delete confirmation (spec 8, confirm.deleteUser): danger colour, 400 px wide; deleting
one's own account from the profile has the text of spec 2, User profile. Each screen passes its
own subclass of ``UserDeleteState``."""

import reflex as rx

from portal.components.i18n import _
from portal.components.users.delete_state import UserDeleteState


def delete_dialog(delete: type[UserDeleteState]) -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(
                rx.cond(delete.deleting_self, _("Confirm delete account ?"), _("Delete user"))
            ),
            rx.alert_dialog.description(
                rx.cond(
                    delete.deleting_self,
                    _(
                        "Your information will be deleted and you will no longer be able to "
                        "log in with this account."
                    ),
                    _(
                        "The user {name} will be deleted and will no longer be able to log in.",
                        name=delete.delete_name,
                    ),
                ),
                size="2",
            ),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(
                        _("Cancel"), variant="soft", color_scheme="gray", on_click=delete.cancel
                    )
                ),
                rx.button(
                    _("Delete"),
                    color_scheme="red",
                    on_click=delete.confirm,
                    loading=delete.deleting,
                ),
                justify="end",
                spacing="3",
                margin_top="16px",
            ),
            max_width="400px",
        ),
        open=delete.delete_open,
    )
