"""The Notifications page: the preferences card (maintenance notices, ticket updates, the
language and time zone of the e-mails), then, for a user manager, each company's extra notice
addresses."""

from zoneinfo import available_timezones

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.failure import failure_callout
from portal.components.forms import field
from portal.components.i18n import _
from portal.i18n import LANGUAGE_NAMES
from portal.pages.notifications.state import AddressRow, CompanyAddresses, NotificationsState
from portal.permissions import MANAGE_USERS
from portal.state.session import SessionState

# UTC first, then every IANA zone by name (the provider refuses anything else).
TIME_ZONES = ["UTC", *sorted(zone for zone in available_timezones() if "/" in zone)]
_CARD = {"width": "100%", "max_width": "760px"}


def _select(name: str, options: dict[str, str] | list[str], **props) -> rx.Component:
    pairs = options.items() if isinstance(options, dict) else ((o, o) for o in options)
    return rx.el.select(
        *(rx.el.option(label, value=value) for value, label in pairs),
        name=name,
        class_name="form-select",
        **props,
    )


def _choice(
    legend: rx.Var, value: rx.Var, on_change, options: list[tuple[str, rx.Var]], test_id: str
) -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(rx.text(legend, size="2", weight="medium"), margin_bottom="6px"),
        rx.radio_group.root(
            rx.flex(
                *(
                    rx.text(
                        rx.flex(rx.radio_group.item(value=option), label, spacing="2"),
                        as_="label",
                        size="2",
                    )
                    for option, label in options
                ),
                direction="column",
                spacing="2",
            ),
            value=value,
            on_change=on_change,
            data_testid=test_id,
        ),
        border="none",
        padding="0",
        margin="0",
    )


def _preferences() -> rx.Component:
    state = NotificationsState
    return rx.form(
        rx.vstack(
            _choice(
                _("Maintenance notices"),
                state.maintenance_notices,
                state.set_maintenance_notices,
                [
                    ("all", _("All my companies' services")),
                    ("none", _("No maintenance notice")),
                ],
                "maintenance-notices",
            ),
            _choice(
                _("Ticket updates"),
                state.ticket_notices,
                state.set_ticket_notices,
                [
                    ("opened", _("The tickets I opened")),
                    ("all", _("All my companies' tickets")),
                    ("none", _("No ticket update")),
                ],
                "ticket-notices",
            ),
            field(
                _("Language of the e-mails"),
                _select(
                    "language",
                    LANGUAGE_NAMES,
                    id="mail-language",
                    value=state.mail_language,
                    on_change=state.set_mail_language,
                ),
            ),
            field(
                _("Time zone of the e-mails"),
                _select(
                    "time_zone",
                    TIME_ZONES,
                    id="mail-time-zone",
                    value=state.mail_time_zone,
                    on_change=state.set_mail_time_zone,
                ),
                state.time_zone_error,
                state.time_zone_error != "",
                hint=_("Notices show each time in this zone, with the UTC time beside it."),
            ),
            rx.button(
                _("Save"),
                type="submit",
                loading=state.saving,
                disabled=~state.changed,
            ),
            spacing="5",
            align="start",
        ),
        on_submit=state.save,
        reset_on_submit=False,
    )


def _state_badge(address: ObjectVar[AddressRow]) -> rx.Component:
    return rx.cond(
        address.confirmed,
        rx.badge(_("Confirmed"), color_scheme="grass"),
        rx.badge(_("Waiting for confirmation"), color_scheme="amber"),
    )


def _address(company: ObjectVar[CompanyAddresses], address: ObjectVar[AddressRow]) -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.text(address.email, weight="medium", style={"word_break": "break-all"}),
            rx.flex(
                _state_badge(address),
                rx.text(
                    rx.cond(
                        address.confirmed,
                        _("since {moment}", moment=address.since),
                        _("added {moment}", moment=address.since),
                    ),
                    size="1",
                    color=rx.color("gray", 11),
                ),
                spacing="2",
                align="center",
                wrap="wrap",
            ),
            spacing="1",
        ),
        rx.icon_button(
            rx.icon("trash-2", size=16),
            variant="ghost",
            color_scheme="red",
            aria_label=_("Remove {email}", email=address.email),
            on_click=NotificationsState.remove_address(company.id, address.id),
        ),
        justify="between",
        align="center",
        spacing="3",
        padding_y="8px",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
        data_testid="notice-address",
    )


def _add_form(company: ObjectVar[CompanyAddresses]) -> rx.Component:
    input_id = "notice-address-" + company.id
    return rx.form(
        rx.el.input(type="hidden", name="company", default_value=company.id),
        rx.flex(
            rx.box(
                field(
                    _("Add an address"),
                    rx.input(
                        id=input_id,
                        name="email",
                        type="email",
                        required=True,
                        placeholder="noc@example.com",
                        auto_complete="off",
                        width="100%",
                    ),
                    company.error,
                    company.error != "",
                ),
                flex="1 1 240px",
            ),
            rx.box(
                field(
                    _("Language"),
                    _select(
                        "language",
                        LANGUAGE_NAMES,
                        id="notice-language-" + company.id,
                        default_value=NotificationsState.mail_language,
                    ),
                ),
                flex="1 1 140px",
            ),
            rx.box(
                field(
                    _("Time zone"),
                    _select(
                        "time_zone",
                        TIME_ZONES,
                        id="notice-time-zone-" + company.id,
                        default_value=NotificationsState.mail_time_zone,
                    ),
                ),
                flex="1 1 200px",
            ),
            rx.button(
                rx.icon("plus", size=16),
                _("Add"),
                type="submit",
                loading=NotificationsState.adding == company.id,
            ),
            spacing="3",
            align="end",
            wrap="wrap",
        ),
        on_submit=NotificationsState.add_address,
        reset_on_submit=True,
        margin_top="12px",
    )


def _company_addresses(company: ObjectVar[CompanyAddresses]) -> rx.Component:
    return rx.box(
        rx.heading(company.name, as_="h3", size="3", margin_bottom="4px"),
        rx.cond(
            company.addresses.length() > 0,
            rx.box(rx.foreach(company.addresses, lambda a: _address(company, a))),
            rx.text(_("No extra address."), size="2", color=rx.color("gray", 11)),
        ),
        _add_form(company),
        data_testid="notice-addresses",
        width="100%",
    )


def _addresses() -> rx.Component:
    return rx.card(
        rx.heading(_("Extra notice addresses"), as_="h2", size="4", margin_bottom="8px"),
        rx.text(
            _(
                "A mailbox that is no user of the portal, such as your NOC's, receives the "
                "maintenance notices of the company once it has followed the link sent to it."
            ),
            size="2",
            color=rx.color("gray", 11),
            margin_bottom="12px",
        ),
        rx.vstack(rx.foreach(NotificationsState.companies, _company_addresses), spacing="5"),
        data_testid="notice-addresses-card",
        **_CARD,
    )


def notifications_screen() -> rx.Component:
    return rx.vstack(
        rx.cond(
            NotificationsState.failure != "",
            failure_callout(
                _("Your notification preferences could not be loaded."),
                NotificationsState.failure,
                NotificationsState.load,
                test_id="notifications-failure",
            ),
        ),
        rx.card(
            rx.heading(_("E-mails you receive"), as_="h2", size="4", margin_bottom="16px"),
            rx.cond(NotificationsState.loaded, _preferences(), rx.spinner()),
            **_CARD,
        ),
        rx.cond(
            SessionState.allows(MANAGE_USERS) & NotificationsState.loaded,
            _addresses(),
        ),
        spacing="4",
        width="100%",
    )
