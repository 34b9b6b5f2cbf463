"""The users list's Create button and actions column, under the rules of spec 6.

The impersonate action is offered to whoever may impersonate (admins and sales): sales have no
manage-User permission, yet the list is where they pick a customer to act as
(docs/decisions/impersonate-from-users-list.md). Edit and delete need manage User.
"""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.data_table import Column
from portal.components.i18n import _
from portal.components.users.models import UserRow
from portal.i18n import N_
from portal.pages.users.dialogs import UsersListDeleteState, UsersListFormState
from portal.permissions import IMPERSONATE_ANYONE, MANAGE_USERS
from portal.state.impersonation import ImpersonationState
from portal.state.session import SessionState

ACTIONS_COLUMN = Column(N_("Actions"))


def may_manage() -> rx.Var[bool]:
    return SessionState.allows(MANAGE_USERS)


def actions_shown() -> rx.Var[bool]:
    return may_manage() | SessionState.allows(IMPERSONATE_ANYONE)


def create_button() -> rx.Component:
    return rx.cond(
        may_manage(),
        rx.button(
            rx.icon("user-plus", size=16),
            _("Create user"),
            on_click=UsersListFormState.open_create,
            disabled=SessionState.user_writes_blocked,
        ),
    )


def _action(icon: str, label: rx.Var, on_click, disabled: rx.Var[bool], color: str = "gray"):
    return rx.tooltip(
        rx.icon_button(
            rx.icon(icon, size=16),
            variant="ghost",
            color_scheme=color,
            aria_label=label,
            disabled=disabled,
            on_click=on_click,
        ),
        content=label,
    )


def row_actions(user: ObjectVar[UserRow]) -> rx.Component:
    blocked = SessionState.user_writes_blocked
    return rx.hstack(
        rx.cond(
            SessionState.allows(IMPERSONATE_ANYONE),
            _action(
                "venetian-mask",
                _("Impersonate {name}", name=user.full_name),
                ImpersonationState.impersonate(user.email),
                ~user.impersonable | ImpersonationState.switching,
            ),
        ),
        rx.cond(
            may_manage(),
            rx.fragment(
                _action(
                    "pencil",
                    _("Edit {name}", name=user.full_name),
                    UsersListFormState.open_edit(user.id),
                    blocked,
                ),
                _action(
                    "trash-2",
                    _("Delete {name}", name=user.full_name),
                    UsersListDeleteState.ask(user.id, user.full_name),
                    blocked | user.is_self,
                    "red",
                ),
            ),
        ),
        spacing="3",
        white_space="nowrap",
    )
