"""The delete confirmation (spec 8, confirm.deleteUser): danger colour, 400 px wide; deleting
one's own account from the profile has the text of spec 2, User profile. Each screen passes its
own subclass of ``UserDeleteState``."""

import reflex as rx

from portal.components.confirm_dialog import confirm_dialog
from portal.components.i18n import _
from portal.components.users.delete_state import UserDeleteState


def delete_dialog(delete: type[UserDeleteState]) -> rx.Component:
    return confirm_dialog(
        title=rx.cond(delete.deleting_self, _("Confirm delete account ?"), _("Delete user")),
        description=rx.cond(
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
        action=_("Delete"),
        on_confirm=delete.confirm,
        on_cancel=delete.cancel,
        busy=delete.deleting,
        is_open=delete.delete_open,
    )
