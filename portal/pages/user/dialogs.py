"""The user form and the delete confirmation as a profile shows them: after a save the profile
reloads; after the deletion of another user, the users list opens (deleting one's own account
logs out, whichever screen it is done from)."""

import reflex as rx

from portal import routes
from portal.components.users.delete_state import UserDeleteState
from portal.components.users.delete_view import delete_dialog
from portal.components.users.form_state import UserFormState
from portal.components.users.form_view import user_form_dialog
from portal.pages.user.state import UserProfileState
from portal.state.messages import Events
from portal.state.session import SessionState


class ProfileFormState(UserFormState, SessionState):
    def _after_save(self) -> Events:
        return UserProfileState.load()


class ProfileDeleteState(UserDeleteState, SessionState):
    def _after_delete(self) -> Events:
        return rx.redirect(routes.USERS.path)


def user_dialogs() -> rx.Component:
    return rx.fragment(user_form_dialog(ProfileFormState), delete_dialog(ProfileDeleteState))
