"""Deleting a user after the confirm dialog (spec 2 and 8): from the list, or from a profile,
where deleting one's own account logs out."""

import reflex as rx

from portal import routes
from portal.i18n import N_, gettext
from portal.pages.users.state import UsersListState
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState
from portal.state.session import SessionState

USER_DELETED = N_("User {name} has been deleted.")


class UserDeleteState(SessionState):
    delete_open: rx.Field[bool] = rx.field(False)
    deleting: rx.Field[bool] = rx.field(False)
    delete_id: rx.Field[str] = rx.field("")
    delete_name: rx.Field[str] = rx.field("")
    delete_origin: rx.Field[str] = rx.field("list")

    @rx.var
    def deleting_self(self) -> bool:
        return bool(self.delete_id) and self.delete_id == self.user_id

    @rx.event
    def ask(self, user_id: str, name: str, origin: str = "list"):
        self.delete_id, self.delete_name, self.delete_origin = user_id, name, origin
        self.delete_open = True

    @rx.event
    def cancel(self):
        self.delete_open = False
        self.delete_id = self.delete_name = ""

    @rx.event
    @reports_failures(shown=True, permanent=True)
    async def confirm(self):
        if self.deleting or not self.delete_id:
            return
        self.deleting = True
        yield
        user_id, name, origin = self.delete_id, self.delete_name, self.delete_origin
        deleting_self = self.deleting_self
        try:
            await (await self.provider()).users.delete(user_id)
        finally:
            self.deleting = self.delete_open = False
        self.delete_id = self.delete_name = ""
        if deleting_self:
            # Spec 2, User profile: the account is gone, so is the session.
            yield await self._end()
            return
        text = gettext(self.current_language, USER_DELETED, name=name)
        (await self.get_state(MessagesState)).show(text, "success")
        yield UsersListState.refresh if origin == "list" else rx.redirect(routes.USERS.path)
