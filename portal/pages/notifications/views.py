"""The Notifications page: the preferences card (maintenance notices, ticket updates, the
language and time zone of the e-mails)."""

from zoneinfo import available_timezones

import reflex as rx

from portal.components.failure import failure_callout
from portal.components.forms import field
from portal.components.i18n import _
from portal.i18n import LANGUAGE_NAMES
from portal.pages.notifications.state import NotificationsState

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
        spacing="4",
        width="100%",
    )
