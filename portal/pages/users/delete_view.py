"""The delete confirmation (spec 8, confirm.deleteUser): danger colour, 400 px wide; deleting
one's own account from the profile has the text of spec 2, User profile."""

import reflex as rx

from portal.components.i18n import _
from portal.pages.users.delete_state import UserDeleteState as Delete


def delete_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(
                rx.cond(Delete.deleting_self, _("Confirm delete account ?"), _("Delete user"))
            ),
            rx.alert_dialog.description(
                rx.cond(
                    Delete.deleting_self,
                    _(
                        "Your information will be deleted and you will no longer be able to "
                        "log in with this account."
                    ),
                    _(
                        "The user {name} will be deleted and will no longer be able to log in.",
                        name=Delete.delete_name,
                    ),
                ),
                size="2",
            ),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(
                        _("Cancel"), variant="soft", color_scheme="gray", on_click=Delete.cancel
                    )
                ),
                rx.button(
                    _("Delete"),
                    color_scheme="red",
                    on_click=Delete.confirm,
                    loading=Delete.deleting,
                ),
                justify="end",
                spacing="3",
                margin_top="16px",
            ),
            max_width="400px",
        ),
        open=Delete.delete_open,
    )
