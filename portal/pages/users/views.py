"""The users list: filter row, count and the server-paged table."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.client.models import UserFilters
from portal.components.data_table import Column, data_table, list_count, text_filter
from portal.components.i18n import _
from portal.components.roles import role_chips
from portal.components.users.models import UserRow
from portal.i18n import N_
from portal.pages.users.actions import ACTIONS_COLUMN, actions_shown, create_button, row_actions
from portal.pages.users.dialogs import user_dialogs
from portal.pages.users.state import UsersListState

COLUMNS = (
    (Column(N_("First name"), "firstname"), Column(N_("Last name"), "lastname")),
    Column(N_("Company")),
    Column(N_("Auxiliary companies")),
    Column(N_("E-mail"), "email"),
    Column(N_("Phone number")),
    Column(N_("Roles")),
)
chosen: ObjectVar[UserFilters] = UsersListState.filters.to(ObjectVar, UserFilters)


def filters() -> rx.Component:
    return rx.flex(
        text_filter(UsersListState, "users-filter-name", _("Name"), "name", chosen.name),
        text_filter(UsersListState, "users-filter-email", _("E-mail"), "email", chosen.email),
        direction=rx.breakpoints(initial="column", sm="row"),
        spacing="3",
        width="100%",
        max_width=rx.breakpoints(initial="100%", sm="640px"),
    )


def _count() -> rx.Component:
    return list_count(
        UsersListState,
        _("1 user"),
        _("{count} users", count=UsersListState.total),
        test_id="users-count",
    )


def _lines(values: rx.Var[list[str]]) -> rx.Component:
    return rx.vstack(rx.foreach(values, rx.text), spacing="0", min_width="120px")


def _cells(user: ObjectVar[UserRow]) -> list[rx.Component | rx.Var]:
    return [
        rx.flex(
            rx.link(user.full_name, href=user.path, weight="medium", white_space="nowrap"),
            rx.cond(
                user.limited,
                rx.badge(
                    rx.icon("lock", size=12),
                    _("Limited access"),
                    color_scheme="amber",
                    variant="soft",
                    title=_("Sees only some services of a company"),
                    data_testid="user-limited",
                ),
            ),
            spacing="2",
            align="center",
            wrap="wrap",
        ),
        rx.text(user.company, min_width="120px"),
        _lines(user.auxiliary_companies),
        rx.text(user.email, white_space="nowrap"),
        rx.text(user.phone_number, white_space="nowrap"),
        role_chips(user.roles),
    ]


def _cells_with_actions(user: ObjectVar[UserRow]) -> list[rx.Component | rx.Var]:
    return [*_cells(user), row_actions(user)]


def _table(with_actions: bool) -> rx.Component:
    return data_table(
        UsersListState,
        columns=(*COLUMNS, ACTIONS_COLUMN) if with_actions else COLUMNS,
        cells=_cells_with_actions if with_actions else _cells,
        label=_("Users"),
    )


def users_list() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.flex(
                filters(),
                create_button(),
                direction=rx.breakpoints(initial="column-reverse", md="row"),
                justify="between",
                align=rx.breakpoints(initial="stretch", md="end"),
                spacing="3",
                width="100%",
            ),
            _count(),
            # Spec 2: the actions column only for those allowed to act.
            rx.cond(actions_shown(), _table(True), _table(False)),
            spacing="4",
            width="100%",
        ),
        user_dialogs(),
        width="100%",
        size=rx.breakpoints(initial="1", sm="3"),
    )
