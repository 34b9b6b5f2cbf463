"""Deleting a user after the confirm dialog (spec 2 and 8): from the list, or from a profile,
where deleting one's own account logs out. Each screen subclasses ``UserDeleteState`` and
answers, in ``_after_delete``, what follows the deletion of another user."""

import reflex as rx

from portal.i18n import N_, gettext
from portal.state.failures import reports_failures
from portal.state.messages import Events, MessagesState
from portal.state.session import SessionState

USER_DELETED = N_("User {name} has been deleted.")


class UserDeleteState(SessionState, mixin=True):
    delete_open: rx.Field[bool] = rx.field(False)
    deleting: rx.Field[bool] = rx.field(False)
    delete_id: rx.Field[str] = rx.field("")
    delete_name: rx.Field[str] = rx.field("")

    def _after_delete(self) -> Events:
        """What the screen showing the dialog does once another user is deleted."""
        raise NotImplementedError

    @rx.var
    def deleting_self(self) -> bool:
        return bool(self.delete_id) and self.delete_id == self.user_id

    @rx.event
    def ask(self, user_id: str, name: str):
        self.delete_id, self.delete_name = user_id, name
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
        user_id, name = self.delete_id, self.delete_name
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
        yield self._after_delete()
