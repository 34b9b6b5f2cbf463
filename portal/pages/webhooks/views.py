"""Webhooks: the secret just made (shown once, with the copy field), the endpoints with their
actions, the registration dialog, the delivery log and the confirmation of a deletion."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.confirm_dialog import confirm_dialog
from portal.components.copy_field import MONO, shown_once
from portal.components.forms import field
from portal.components.i18n import _
from portal.pages.webhooks.models import EVENT_LABELS, EVENT_TYPES, DeliveryRow, WebhookRow
from portal.pages.webhooks.state import WebhooksState

_STATE_COLOURS = {"pending": "amber", "delivered": "grass", "failed": "red"}


def _new_secret() -> rx.Component:
    return shown_once(
        _(
            "The signing secret of {url}, shown only now: copy it into your receiver, which "
            "verifies each event's signature with it.",
            url=WebhooksState.secret_url,
        ),
        WebhooksState.new_secret,
        WebhooksState.copied,
        WebhooksState.copy,
        WebhooksState.dismiss_secret,
        _("Signing secret"),
        "new-secret",
    )


def _event_choice(event: str) -> rx.Component:
    return rx.checkbox(
        _(EVENT_LABELS[event]),
        checked=WebhooksState.events.contains(event),
        on_change=lambda chosen: WebhooksState.toggle_event(event, chosen),
        size="2",
    )


def _form_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(_("Add an endpoint")),
            rx.form(
                rx.vstack(
                    rx.cond(
                        WebhooksState.companies.length() > 1,
                        field(
                            _("Company"),
                            rx.select.root(
                                rx.select.trigger(id="webhook-company", width="100%"),
                                rx.select.content(
                                    rx.foreach(
                                        WebhooksState.companies,
                                        lambda company: rx.select.item(
                                            company.name, value=company.id
                                        ),
                                    )
                                ),
                                value=WebhooksState.company,
                                on_change=WebhooksState.set_company,
                            ),
                            WebhooksState.company_error,
                            WebhooksState.company_error != "",
                            _("The endpoint receives this company's events."),
                        ),
                    ),
                    field(
                        _("URL"),
                        rx.input(
                            id="webhook-url",
                            name="url",
                            value=WebhooksState.url,
                            on_change=WebhooksState.set_url,
                            max_length=2000,
                            placeholder="https://noc.example.com/hooks",
                            width="100%",
                            style=MONO,
                        ),
                        WebhooksState.url_error,
                        WebhooksState.url_error != "",
                        _("HTTPS, to a public address."),
                    ),
                    field(
                        _("Description"),
                        rx.input(
                            id="webhook-description",
                            name="description",
                            value=WebhooksState.description,
                            on_change=WebhooksState.set_description,
                            max_length=300,
                            width="100%",
                        ),
                    ),
                    rx.text(_("Events"), size="2", weight="medium"),
                    rx.grid(
                        *(_event_choice(event) for event in EVENT_TYPES),
                        columns=rx.breakpoints(initial="1", sm="2"),
                        spacing="2",
                    ),
                    rx.cond(
                        WebhooksState.events_error != "",
                        rx.text(
                            WebhooksState.events_error,
                            size="1",
                            color=rx.color("red", 11),
                            role="alert",
                        ),
                    ),
                    rx.flex(
                        rx.dialog.close(
                            rx.button(
                                _("Cancel"), variant="soft", color_scheme="gray", type="button"
                            )
                        ),
                        rx.button(_("Add the endpoint"), type="submit", loading=WebhooksState.busy),
                        spacing="3",
                        justify="end",
                        width="100%",
                    ),
                    spacing="3",
                    width="100%",
                ),
                on_submit=WebhooksState.create,
                reset_on_submit=False,
            ),
            max_width="560px",
        ),
        open=WebhooksState.form_open,
        on_open_change=WebhooksState.set_form_open,
    )


def _endpoint_card(row: ObjectVar[WebhookRow]) -> rx.Component:
    actions = rx.flex(
        rx.button(
            rx.icon("send", size=14),
            _("Send a test event"),
            size="1",
            variant="soft",
            on_click=WebhooksState.send_test(row.id, row.url),
            disabled=~row.enabled,
        ),
        rx.button(
            rx.icon("list", size=14),
            _("Delivery log"),
            size="1",
            variant="soft",
            on_click=WebhooksState.show_log(row.id, row.url),
        ),
        rx.button(
            rx.icon("refresh-cw", size=14),
            _("Rotate the secret"),
            size="1",
            variant="soft",
            on_click=WebhooksState.rotate(row.id),
        ),
        rx.cond(
            row.enabled,
            rx.button(
                _("Disable"),
                size="1",
                variant="soft",
                color_scheme="gray",
                on_click=WebhooksState.set_enabled(row.id, False),
            ),
            rx.button(
                _("Enable"),
                size="1",
                variant="soft",
                color_scheme="grass",
                on_click=WebhooksState.set_enabled(row.id, True),
            ),
        ),
        rx.button(
            rx.icon("trash-2", size=14),
            _("Delete"),
            size="1",
            variant="soft",
            color_scheme="red",
            on_click=WebhooksState.ask_confirmation(row.id, row.url),
        ),
        spacing="2",
        wrap="wrap",
    )
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.text(row.url, weight="bold", style=MONO, word_break="break-all"),
                rx.cond(
                    row.enabled,
                    rx.badge(_("Enabled"), color_scheme="grass"),
                    rx.cond(
                        row.failing,
                        rx.badge(_("Disabled after a day of failures"), color_scheme="red"),
                        rx.badge(_("Disabled"), color_scheme="gray"),
                    ),
                ),
                align="center",
                wrap="wrap",
            ),
            rx.cond(row.description != "", rx.text(row.description, size="2")),
            rx.text(_("Events: {events}", events=row.events), size="2"),
            rx.text(_("Added: {moment}", moment=row.created), size="2", color=rx.color("gray", 11)),
            rx.cond(
                row.previous_secret_until != "",
                rx.text(
                    _(
                        "The previous secret signs too until {moment}.",
                        moment=row.previous_secret_until,
                    ),
                    size="2",
                    color=rx.color("gray", 11),
                ),
            ),
            actions,
            spacing="2",
            width="100%",
        ),
        width="100%",
        data_testid="webhook-row",
    )


def _delivery(row: ObjectVar[DeliveryRow]) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.text(row.event), rx.text(row.created, size="1", color=rx.color("gray", 11))
        ),
        rx.table.cell(
            rx.badge(
                row.state_label,
                color_scheme=rx.match(
                    row.state, *((s, c) for s, c in _STATE_COLOURS.items()), "gray"
                ),
            )
        ),
        rx.table.cell(row.attempts),
        rx.table.cell(row.status),
        rx.table.cell(row.latency),
        rx.table.cell(rx.text(row.answer, size="1", style=MONO, word_break="break-all")),
        data_testid="delivery-row",
    )


def _log_dialog() -> rx.Component:
    headers = (_("Event"), _("State"), _("Attempts"), _("Status"), _("Latency"), _("Answer"))
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(_("Delivery log")),
            rx.text(WebhooksState.log_url, size="2", style=MONO, word_break="break-all"),
            rx.cond(
                WebhooksState.log_rows.length() > 0,
                rx.table.root(
                    rx.table.header(
                        rx.table.row(*(rx.table.column_header_cell(h) for h in headers))
                    ),
                    rx.table.body(rx.foreach(WebhooksState.log_rows, _delivery)),
                    size="1",
                    width="100%",
                ),
                rx.text(_("Nothing was sent to this endpoint yet."), size="2"),
            ),
            rx.flex(
                rx.button(
                    rx.icon("refresh-cw", size=14),
                    _("Refresh"),
                    variant="soft",
                    on_click=WebhooksState.refresh_log,
                ),
                rx.dialog.close(rx.button(_("Close"), variant="soft", color_scheme="gray")),
                spacing="3",
                justify="end",
                margin_top="12px",
            ),
            max_width="900px",
        ),
        open=WebhooksState.log_id != "",
        on_open_change=WebhooksState.set_log_open,
    )


def _delete_dialog() -> rx.Component:
    return confirm_dialog(
        title=_("Delete this endpoint?"),
        description=_(
            "{url} receives no more events, and its delivery log is deleted with it.",
            url=WebhooksState.confirming_name,
        ),
        action=_("Delete"),
        on_confirm=WebhooksState.delete,
        on_cancel=WebhooksState.cancel_confirmation,
        busy=WebhooksState.busy,
        is_open=WebhooksState.confirming_id != "",
    )


def webhooks_screen() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "A webhook endpoint receives your company's maintenances, tickets and sensor "
                "states as they change, as signed JSON (Standard Webhooks): your tools verify "
                "each event with the endpoint's secret. A receiver that fails for a day is "
                "disabled, and the user managers are told by e-mail."
            ),
            color=rx.color("gray", 11),
        ),
        rx.cond(WebhooksState.new_secret != "", _new_secret()),
        rx.button(rx.icon("plus", size=14), _("Add an endpoint"), on_click=WebhooksState.open_form),
        rx.cond(
            WebhooksState.loaded,
            rx.cond(
                WebhooksState.rows.length() > 0,
                rx.vstack(
                    rx.foreach(WebhooksState.rows, _endpoint_card), spacing="2", width="100%"
                ),
                rx.text(
                    _("Your company has no webhook endpoint."), size="2", data_testid="no-webhooks"
                ),
            ),
            rx.spinner(),
        ),
        _form_dialog(),
        _log_dialog(),
        _delete_dialog(),
        spacing="4",
        width="100%",
        max_width="760px",
    )
