"""A ticket: the card of its fields (with close and reopen), the collapsible description, the
attachments, then the conversation."""

import reflex as rx
from reflex.vars import ObjectVar

from portal import routes
from portal.components.downloads import download_link
from portal.components.i18n import _
from portal.components.item_page import item_page
from portal.components.ticket_status import priority_chip, ticket_status_chip
from portal.pages.ticket.conversation import conversation_card, status_actions
from portal.pages.ticket.models import Attachment, TicketDetail
from portal.pages.ticket.state import TicketState

ticket: ObjectVar[TicketDetail] = TicketState.ticket.to(ObjectVar, TicketDetail)


def ticket_title() -> rx.Var:
    return rx.cond(ticket.number != "", ticket.number, _("Ticket"))


def _field(label: rx.Var, value: rx.Component | rx.Var, test_id: str) -> rx.Component:
    return rx.data_list.item(
        rx.data_list.label(label, min_width="150px"),
        rx.data_list.value(value, data_testid=test_id),
    )


def _mail(address: rx.Var[str]) -> rx.Component:
    return rx.cond(address != "", rx.link(address, href="mailto:" + address), rx.text("—"))


def _or_dash(value: rx.Var[str]) -> rx.Var:
    return rx.cond(value != "", value, "—")


def _service() -> rx.Component:
    return rx.cond(
        ticket.service_path != "",
        rx.link(ticket.service_reference, href=ticket.service_path),
        rx.text(_or_dash(ticket.service_reference)),
    )


def details_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(ticket.subject, as_="h2", size="5", data_testid="ticket-subject"),
            rx.data_list.root(
                _field(_("Created"), ticket.date_created, "ticket-created"),
                _field(_("Status"), ticket_status_chip(ticket.status), "ticket-status"),
                _field(_("Priority"), priority_chip(ticket.priority), "ticket-priority"),
                _field(_("Requester"), _mail(ticket.requester_email), "ticket-requester"),
                _field(_("Technician"), _mail(ticket.technician_email), "ticket-technician"),
                _field(_("Account name"), _or_dash(ticket.account_name), "ticket-account"),
                _field(_("Type"), _or_dash(ticket.type), "ticket-type"),
                _field(_("Service reference"), _service(), "ticket-service"),
                orientation=rx.breakpoints(initial="vertical", sm="horizontal"),
                size="2",
            ),
            status_actions(),
            spacing="3",
            width="100%",
        ),
        width="100%",
    )


def description_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.button(
                rx.cond(
                    TicketState.description_open,
                    rx.icon("chevron-down", size=16),
                    rx.icon("chevron-right", size=16),
                ),
                _("Description"),
                on_click=TicketState.toggle_description,
                variant="ghost",
                size="3",
                aria_expanded=TicketState.description_open,
                aria_controls="ticket-description",
                font_weight="bold",
            ),
            rx.cond(
                TicketState.description_open,
                rx.box(
                    rx.cond(
                        ticket.description != "",
                        # Sanitised by the provider with an allow-list (DESIGN 4).
                        rx.html(ticket.description),
                        rx.text(_("No description"), color=rx.color("gray", 11)),
                    ),
                    id="ticket-description",
                    class_name="ticket-description",
                    width="100%",
                    overflow_x="auto",
                    # The theme resets lists and margins; a description keeps its formatting.
                    style={
                        "& p, & ul, & ol, & table, & blockquote, & pre": {"margin": "0 0 8px"},
                        "& ul": {"list_style": "disc", "padding_left": "24px"},
                        "& ol": {"list_style": "decimal", "padding_left": "24px"},
                        "& blockquote": {
                            "border_left": f"3px solid {rx.color('gray', 6)}",
                            "padding_left": "12px",
                            "color": rx.color("gray", 11),
                        },
                        "& table": {"border_collapse": "collapse"},
                        "& td, & th": {
                            "border": f"1px solid {rx.color('gray', 6)}",
                            "padding": "4px 8px",
                        },
                        "& a": {"color": rx.color("purple", 11)},
                    },
                    data_testid="ticket-description",
                ),
            ),
            spacing="2",
            width="100%",
            align="start",
        ),
        width="100%",
    )


def _chips(files: rx.Var) -> rx.Component:
    return rx.flex(rx.foreach(files, _attachment), wrap="wrap", spacing="2")


def _attachment(attachment: ObjectVar[Attachment]) -> rx.Component:
    return download_link(
        rx.badge(
            rx.icon("paperclip", size=14),
            attachment.name,
            variant="soft",
            radius="full",
            size="2",
            cursor="pointer",
            max_width="100%",
        ),
        href=attachment.url,
        filename=attachment.name,
    )


def attachments_card() -> rx.Component:
    """The ticket's own files, then those sent with its messages (each also shown on its
    message below): "No documents" only when there is neither."""
    conversation = TicketState.conversation_files
    return rx.card(
        rx.heading(_("Attachments"), as_="h2", size="4", margin_bottom="12px"),
        rx.cond(
            (ticket.attachments.length() > 0) | (conversation.length() > 0),
            rx.vstack(
                rx.cond(ticket.attachments.length() > 0, _chips(ticket.attachments)),
                rx.cond(
                    conversation.length() > 0,
                    rx.vstack(
                        rx.text(
                            _("Sent in the conversation"),
                            size="2",
                            color=rx.color("gray", 11),
                        ),
                        _chips(conversation),
                        spacing="2",
                        width="100%",
                        data_testid="ticket-conversation-files",
                    ),
                ),
                spacing="3",
                width="100%",
            ),
            rx.text(_("No documents"), size="2", color=rx.color("gray", 11)),
        ),
        width="100%",
        data_testid="ticket-attachments",
    )


def ticket_page() -> rx.Component:
    ready = rx.vstack(
        details_card(),
        description_card(),
        attachments_card(),
        conversation_card(),
        spacing="4",
        width="100%",
    )
    return item_page(
        TicketState.status,
        ready,
        missing_text=_("This ticket does not exist or you cannot see it."),
        missing_icon="ticket-x",
        failed_text=_("The ticket could not be loaded."),
        retry=TicketState.load,
        back_label=_("Back to tickets"),
        back_path=routes.TICKETS.path,
    )
