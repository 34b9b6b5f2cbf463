"""The profile card and the states around it: loading, missing and failed."""

import reflex as rx
from reflex.vars import ObjectVar

from portal import routes
from portal.components.i18n import _
from portal.components.item_page import item_page
from portal.components.jobs import job_label
from portal.components.roles import role_chips
from portal.components.users.models import UserRow
from portal.pages.user.dialogs import ProfileDeleteState, ProfileFormState, user_dialogs
from portal.pages.user.second_factor import second_factor_action
from portal.pages.user.state import UserProfileState

_NONE = "—"
profile: ObjectVar[UserRow] = UserProfileState.profile.to(ObjectVar, UserRow)


def profile_title() -> rx.Var:
    return rx.cond(profile.full_name != "", profile.full_name, _("User"))


def _or_none(value: rx.Var[str], shown: rx.Component | rx.Var | None = None):
    return rx.cond(value != "", shown if shown is not None else value, _NONE)


def _item(label: rx.Var, value: rx.Component | rx.Var) -> rx.Component:
    return rx.data_list.item(
        rx.data_list.label(label, min_width="180px"),
        rx.data_list.value(value),
    )


def _profile_card() -> rx.Component:
    return rx.card(
        rx.heading(_("Profile"), as_="h2", size="4", margin_bottom="12px"),
        rx.data_list.root(
            _item(
                _("Roles"), rx.cond(profile.roles.length() > 0, role_chips(profile.roles), _NONE)
            ),
            _item(_("Company"), _or_none(profile.company)),
            _item(
                _("Auxiliary companies"),
                rx.cond(
                    profile.auxiliary_companies.length() > 0,
                    rx.vstack(rx.foreach(profile.auxiliary_companies, rx.text), spacing="0"),
                    _NONE,
                ),
            ),
            _item(_("E-mail"), rx.link(profile.email, href=f"mailto:{profile.email}")),
            _item(_("Phone number"), _or_none(profile.phone_number)),
            rx.cond(profile.job != "", _item(_("Job"), job_label(profile.job))),
            orientation=rx.breakpoints(initial="vertical", sm="horizontal"),
        ),
        rx.flex(
            rx.cond(UserProfileState.may_change, _profile_actions()),
            second_factor_action(),
            spacing="3",
            margin_top="16px",
            wrap="wrap",
        ),
        width="100%",
        max_width="760px",
    )


def _profile_actions() -> rx.Component:
    blocked = UserProfileState.user_writes_blocked
    return rx.flex(
        rx.button(
            rx.icon("pencil", size=16),
            _("Update"),
            on_click=ProfileFormState.open_edit(profile.id),
            disabled=blocked,
        ),
        rx.button(
            rx.icon("trash-2", size=16),
            _("Delete"),
            color_scheme="red",
            variant="soft",
            on_click=ProfileDeleteState.ask(profile.id, profile.full_name),
            disabled=blocked,
        ),
        user_dialogs(),
        spacing="3",
        wrap="wrap",
    )


def user_profile() -> rx.Component:
    return item_page(
        UserProfileState.status,
        _profile_card(),
        missing_text=_("This user does not exist or you cannot see it."),
        missing_icon="user-x",
        failed_text=_("The user could not be loaded."),
        retry=UserProfileState.load,
        back_label=_("Back to users"),
        back_path=routes.USERS.path,
    )
