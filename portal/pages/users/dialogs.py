"""The user form and the delete confirmation as the users list shows them: after a save or the
deletion of a user, the list reloads its page."""

import reflex as rx

from portal.components.users.delete_state import UserDeleteState
from portal.components.users.delete_view import delete_dialog
from portal.components.users.form_state import UserFormState
from portal.components.users.form_view import user_form_dialog
from portal.pages.users.state import UsersListState
from portal.state.messages import Events
from portal.state.session import SessionState


class UsersListFormState(UserFormState, SessionState):
    def _after_save(self) -> Events:
        return UsersListState.refresh()


class UsersListDeleteState(UserDeleteState, SessionState):
    def _after_delete(self) -> Events:
        return UsersListState.refresh()


def user_dialogs() -> rx.Component:
    return rx.fragment(user_form_dialog(UsersListFormState), delete_dialog(UsersListDeleteState))
