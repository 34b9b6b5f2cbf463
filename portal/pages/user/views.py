"""The profile card and the states around it: loading, missing and failed."""

import reflex as rx
from reflex.vars import ObjectVar

from portal import routes
from portal.components.i18n import _
from portal.components.jobs import job_label
from portal.components.roles import role_chips
from portal.pages.user.state import UserProfileState
from portal.pages.users.models import UserRow

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
        width="100%",
        max_width="760px",
    )


def _back_link() -> rx.Component:
    return rx.link(
        rx.hstack(rx.icon("arrow-left", size=16), _("Back to users"), align="center", spacing="1"),
        href=routes.USERS.path,
    )


def _missing() -> rx.Component:
    return rx.vstack(
        rx.callout(
            _("This user does not exist or you cannot see it."),
            icon="user-x",
            color_scheme="amber",
            role="alert",
        ),
        _back_link(),
        spacing="3",
    )


def _failed() -> rx.Component:
    return rx.vstack(
        rx.callout(
            _("The user could not be loaded."), icon="circle-x", color_scheme="red", role="alert"
        ),
        rx.hstack(
            rx.button(_("Try again"), on_click=UserProfileState.load, variant="soft"),
            _back_link(),
            align="center",
            spacing="4",
        ),
        spacing="3",
    )


def user_profile() -> rx.Component:
    return rx.match(
        UserProfileState.status,
        ("ready", _profile_card()),
        ("missing", _missing()),
        ("failed", _failed()),
        rx.center(
            rx.spinner(size="3"),
            role="status",
            aria_label=_("Loading"),
            padding="48px",
            width="100%",
        ),
    )
