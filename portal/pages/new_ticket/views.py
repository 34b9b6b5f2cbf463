"""The new ticket form: subject, description (Markdown), type and priority, the service, the
company when the user has several, the files; each field with the provider's message under it."""

import reflex as rx
from reflex.vars import ObjectVar

from portal import routes
from portal.components.company_picker import SEARCH_DEBOUNCE_MS, CompanyOption
from portal.components.forms import field
from portal.components.i18n import _
from portal.components.ticket_status import PRIORITY_LABELS
from portal.components.tickets.files import file_chooser
from portal.pages.new_ticket.models import DESCRIPTION_MAX, SUBJECT_MAX, TYPE_LABELS, ServiceOption
from portal.pages.new_ticket.state import UPLOAD_ID, NewTicketState

State = NewTicketState
violations: ObjectVar[dict[str, str]] = State.violations.to(ObjectVar, dict[str, str])
service: ObjectVar[ServiceOption] = State.service.to(ObjectVar, ServiceOption)


def _error(name: str) -> tuple[rx.Var, rx.Var[bool]]:
    return violations.get(name, ""), violations.contains(name)


def _select(control_id: str, value: rx.Var, on_change, labels: dict[str, str]) -> rx.Component:
    return rx.select.root(
        rx.select.trigger(id=control_id, width="100%"),
        rx.select.content(*(rx.select.item(_(label), value=key) for key, label in labels.items())),
        value=value,
        on_change=on_change,
    )


def _service_match(option: ObjectVar[ServiceOption]) -> rx.Component:
    return rx.button(
        option.label,
        type="button",
        role="option",
        variant="ghost",
        justify="start",
        width="100%",
        white_space="normal",
        text_align="left",
        on_click=State.choose_service(option),
    )


def _service() -> rx.Component:
    chosen = rx.hstack(
        rx.badge(
            rx.icon("network", size=14),
            service.label,
            size="2",
            variant="soft",
            radius="large",
            # A long label wraps inside the chip: the remove button stays beside it on a phone.
            white_space="normal",
            overflow_wrap="anywhere",
            flex_shrink="1",
            min_width="0",
            data_testid="new-ticket-service-chosen",
        ),
        rx.icon_button(
            rx.icon("x", size=14),
            type="button",
            size="1",
            variant="ghost",
            color_scheme="gray",
            aria_label=_("Remove the service"),
            on_click=State.clear_service,
            flex_shrink="0",
        ),
        align="center",
        spacing="1",
        width="100%",
    )
    search = rx.vstack(
        rx.input(
            rx.input.slot(rx.icon("search", size=16)),
            id="new-ticket-service",
            type="search",
            value=State.service_query,
            on_change=State.search_service,
            debounce_timeout=SEARCH_DEBOUNCE_MS,
            placeholder=_("Reference, client reference or label"),
            auto_complete="off",
            width="100%",
        ),
        rx.cond(
            State.service_matches.length() > 0,
            rx.vstack(
                rx.foreach(State.service_matches, _service_match),
                role="listbox",
                aria_label=_("Services found"),
                spacing="1",
                width="100%",
                padding="6px",
                border=f"1px solid {rx.color('gray', 6)}",
                border_radius="var(--radius-3)",
            ),
        ),
        spacing="2",
        width="100%",
    )
    control = rx.box(
        rx.cond(service.id != "", chosen, search), id="new-ticket-service-box", width="100%"
    )
    return field(
        _("Service (optional)"),
        control,
        *_error("service"),
        hint=_("Only your own services are offered."),
    )


def _company() -> rx.Component:
    def option(company: ObjectVar[CompanyOption]) -> rx.Component:
        return rx.select.item(company.name, value=company.id)

    # A service chosen decides the company.
    return rx.cond(
        (State.companies.length() > 1) & (service.id == ""),
        field(
            _("Company"),
            rx.select.root(
                rx.select.trigger(
                    id="new-ticket-company", placeholder=_("Choose a company"), width="100%"
                ),
                rx.select.content(rx.foreach(State.companies, option)),
                value=State.company,
                on_change=State.set_company,
            ),
            *_error("company"),
            hint=_("Or choose a service: the ticket is then its company's."),
        ),
    )


def _alert() -> rx.Component:
    return rx.cond(
        State.alert_lines.length() > 0,
        rx.callout.root(
            rx.callout.icon(rx.icon("circle-x")),
            rx.vstack(rx.foreach(State.alert_lines, lambda line: rx.callout.text(line))),
            color_scheme="red",
            role="alert",
            width="100%",
        ),
    )


def new_ticket_form() -> rx.Component:
    return rx.card(
        rx.vstack(
            field(
                _("Subject"),
                rx.input(
                    id="new-ticket-subject",
                    value=State.subject,
                    on_change=State.set_subject,
                    max_length=SUBJECT_MAX,
                    required=True,
                    width="100%",
                ),
                *_error("subject"),
            ),
            field(
                _("Description"),
                rx.text_area(
                    id="new-ticket-description",
                    value=State.description,
                    on_change=State.set_description,
                    max_length=DESCRIPTION_MAX,
                    rows="8",
                    resize="vertical",
                    width="100%",
                ),
                *_error("description"),
                hint=_("Markdown is welcome: **bold**, *italic*, lists, `code`."),
            ),
            rx.grid(
                field(
                    _("Type"),
                    _select(
                        "new-ticket-type", State.ticket_type, State.set_ticket_type, TYPE_LABELS
                    ),
                    *_error("type"),
                ),
                field(
                    _("Priority"),
                    _select(
                        "new-ticket-priority", State.priority, State.set_priority, PRIORITY_LABELS
                    ),
                    *_error("priority"),
                ),
                columns=rx.breakpoints(initial="1", sm="2"),
                spacing="4",
                width="100%",
            ),
            _service(),
            _company(),
            rx.vstack(
                rx.text(_("Attachments"), size="2", weight="medium"),
                file_chooser(State, UPLOAD_ID),
                spacing="1",
                width="100%",
            ),
            _alert(),
            rx.flex(
                rx.link(
                    rx.button(_("Cancel"), type="button", variant="soft", color_scheme="gray"),
                    href=routes.TICKETS.path,
                ),
                rx.button(
                    rx.icon("send", size=16),
                    _("Open the ticket"),
                    on_click=State.submit(rx.upload_files(upload_id=UPLOAD_ID)),
                    loading=State.sending,
                    disabled=State.sending,
                    data_testid="new-ticket-submit",
                ),
                justify="end",
                spacing="3",
                width="100%",
            ),
            spacing="4",
            width="100%",
        ),
        width="100%",
        max_width="760px",
    )
