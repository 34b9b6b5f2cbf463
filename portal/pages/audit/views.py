"""The audit log: filters (action, e-mail, days), the count and the server-paged table."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.client.filters import ANY
from portal.client.models import AuditFilters
from portal.components.audit.models import ACTIONS, AuditRow
from portal.components.data_table import (
    Column,
    clear_filters_button,
    data_table,
    date_filter,
    list_count,
    text_filter,
)
from portal.components.forms import field
from portal.components.i18n import _
from portal.i18n import N_
from portal.pages.audit.state import AuditLogState

COLUMNS = (
    Column(N_("Date")),
    Column(N_("Action")),
    Column(N_("By")),
    Column(N_("About")),
    Column(N_("Address")),
    Column(N_("Details")),
)
chosen: ObjectVar[AuditFilters] = AuditLogState.filters.to(ObjectVar, AuditFilters)


def filters() -> rx.Component:
    return rx.flex(
        field(
            _("Action"),
            rx.select.root(
                rx.select.trigger(aria_label=_("Action"), width="100%"),
                rx.select.content(
                    rx.select.item(_("All actions"), value=ANY),
                    *(rx.select.item(_(label), value=key) for key, label in ACTIONS.items()),
                ),
                value=rx.cond(chosen.action, chosen.action, ANY),
                on_change=lambda choice: AuditLogState.set_filter("action", choice),
            ),
        ),
        text_filter(AuditLogState, "audit-filter-email", _("E-mail"), "email", chosen.email),
        date_filter(AuditLogState, "audit-after", _("From"), "after", chosen.after),
        date_filter(AuditLogState, "audit-before", _("Until"), "before", chosen.before),
        clear_filters_button(AuditLogState),
        direction=rx.breakpoints(initial="column", md="row"),
        align=rx.breakpoints(initial="stretch", md="end"),
        spacing="3",
        width="100%",
    )


def _muted(text: rx.Var) -> rx.Component:
    return rx.text(text, size="1", color=rx.color("gray", 11))


def _cells(entry: ObjectVar[AuditRow]) -> list[rx.Component | rx.Var]:
    return [
        rx.text(entry.at, white_space="nowrap"),
        rx.vstack(
            rx.text(entry.action, weight="medium", min_width="140px"),
            rx.cond(entry.times, _muted(entry.times)),
            spacing="0",
        ),
        rx.vstack(
            rx.text(entry.actor, white_space="nowrap"),
            rx.cond(entry.impersonator, _muted(_("through {name}", name=entry.impersonator))),
            spacing="0",
        ),
        rx.text(entry.subject, white_space="nowrap"),
        rx.text(entry.address, white_space="nowrap"),
        rx.text(entry.detail, size="1", min_width="160px", word_break="break-word"),
    ]


def audit_log() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(
                _(
                    "Logins, impersonations, changes of users and imports, newest first. "
                    "Entries are kept for a limited time set by the operator."
                ),
                size="2",
                color=rx.color("gray", 11),
            ),
            filters(),
            list_count(
                AuditLogState,
                _("1 entry"),
                _("{count} entries", count=AuditLogState.total),
                test_id="audit-count",
            ),
            data_table(AuditLogState, columns=COLUMNS, cells=_cells, label=_("Audit log")),
            spacing="4",
            width="100%",
        ),
        width="100%",
        size=rx.breakpoints(initial="1", sm="3"),
    )
