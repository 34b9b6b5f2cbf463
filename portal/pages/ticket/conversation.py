"""A ticket's conversation (issue 49): the customer's messages on the right, the provider's on
the left, files as chips, the newest in view; the reply box (Write / Preview, files dropped or
chosen, a sending state, what was refused kept with the text); close and reopen."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.downloads import download_link
from portal.components.i18n import _
from portal.components.tickets.files import file_chooser
from portal.pages.ticket.models import Attachment, MessageView, TicketDetail
from portal.pages.ticket.state import REPLY_MAX, UPLOAD_ID, TicketState

LATEST_ID = "ticket-latest-message"
_SCROLL_TO_LATEST = f"document.getElementById('{LATEST_ID}')?.scrollIntoView({{block: 'end'}})"

ticket: ObjectVar[TicketDetail] = TicketState.ticket.to(ObjectVar, TicketDetail)
# What a rendered message keeps of its formatting (the theme resets lists and margins).
MARKUP_STYLE = {
    "& p, & ul, & ol, & table, & blockquote, & pre": {"margin": "0 0 8px"},
    "& > :last-child": {"margin_bottom": "0"},
    "& ul": {"list_style": "disc", "padding_left": "24px"},
    "& ol": {"list_style": "decimal", "padding_left": "24px"},
    "& pre": {"white_space": "pre-wrap", "overflow_wrap": "anywhere"},
    "& blockquote": {
        "border_left": f"3px solid {rx.color('gray', 7)}",
        "padding_left": "12px",
    },
    "& a": {"color": rx.color("purple", 11), "text_decoration": "underline"},
    "overflow_wrap": "anywhere",
}


def file_chip(attachment: ObjectVar[Attachment]) -> rx.Component:
    return download_link(
        rx.badge(
            rx.icon("paperclip", size=14),
            attachment.name,
            variant="surface",
            radius="full",
            size="2",
            cursor="pointer",
            max_width="100%",
        ),
        href=attachment.url,
        filename=attachment.name,
    )


def _message(message: ObjectVar[MessageView]) -> rx.Component:
    side = rx.cond(message.from_provider, "start", "end")
    return rx.flex(
        rx.box(
            rx.hstack(
                rx.cond(
                    message.from_provider, rx.icon("headset", size=14), rx.icon("user", size=14)
                ),
                rx.text(message.author, size="2", weight="bold"),
                rx.text(
                    rx.cond(message.from_provider, _("Support"), _("You or your team")),
                    size="1",
                    color=rx.color("gray", 11),
                ),
                spacing="2",
                align="center",
                wrap="wrap",
            ),
            # Sanitised by the provider and again by the client (DESIGN 4).
            rx.box(rx.html(message.body), style=MARKUP_STYLE, margin_y="6px"),
            rx.cond(
                message.attachments.length() > 0,
                rx.flex(rx.foreach(message.attachments, file_chip), wrap="wrap", spacing="2"),
            ),
            rx.text(message.created, size="1", color=rx.color("gray", 11), margin_top="4px"),
            background=rx.cond(message.from_provider, rx.color("gray", 3), rx.color("purple", 3)),
            border=rx.cond(
                message.from_provider,
                f"1px solid {rx.color('gray', 6)}",
                f"1px solid {rx.color('purple', 6)}",
            ),
            border_radius="var(--radius-4)",
            padding="10px 14px",
            max_width=rx.breakpoints(initial="92%", sm="80%"),
            min_width="0",
        ),
        justify=side,
        width="100%",
        role="article",
        aria_label=message.author,
        data_testid="ticket-message",
        data_side=rx.cond(message.from_provider, "provider", "customer"),
    )


def _messages() -> rx.Component:
    return rx.vstack(
        rx.cond(
            TicketState.earlier_count > 0,
            rx.text(
                _("{count} earlier messages are not shown.", count=TicketState.earlier_count),
                size="1",
                color=rx.color("gray", 11),
                align="center",
                width="100%",
            ),
        ),
        rx.cond(
            (TicketState.messages.length() == 0) & ~TicketState.messages_loading,
            rx.text(
                _("No message yet: write below to add to your ticket."),
                size="2",
                color=rx.color("gray", 11),
            ),
        ),
        rx.foreach(TicketState.messages, _message),
        # Mounted anew whenever a message arrives, once it is drawn: the newest comes into view.
        rx.cond(
            TicketState.messages.length() > 0,
            rx.box(
                id=LATEST_ID,
                key=TicketState.messages.length(),
                on_mount=rx.call_script(_SCROLL_TO_LATEST),
            ),
        ),
        spacing="3",
        width="100%",
        aria_live="polite",
        aria_busy=TicketState.messages_loading,
        data_testid="ticket-messages",
    )


def _reply_errors() -> rx.Component:
    return rx.cond(
        TicketState.reply_errors.length() > 0,
        rx.callout.root(
            rx.callout.icon(rx.icon("circle-x")),
            rx.vstack(rx.foreach(TicketState.reply_errors, lambda line: rx.callout.text(line))),
            color_scheme="red",
            role="alert",
            size="1",
            width="100%",
            data_testid="reply-error",
        ),
    )


def _reply_box() -> rx.Component:
    writing = rx.text_area(
        id="ticket-reply",
        value=TicketState.reply,
        on_change=TicketState.set_reply,
        max_length=REPLY_MAX,
        placeholder=_("Write your reply (Markdown)"),
        rows="5",
        resize="vertical",
        width="100%",
    )
    preview = rx.box(
        rx.cond(
            TicketState.preview != "",
            rx.html(TicketState.preview),
            rx.text(_("Nothing to preview"), color=rx.color("gray", 11), size="2"),
        ),
        style=MARKUP_STYLE,
        min_height="118px",
        padding="8px 12px",
        border=f"1px solid {rx.color('gray', 6)}",
        border_radius="var(--radius-3)",
        width="100%",
        data_testid="reply-preview",
    )
    return rx.vstack(
        rx.hstack(
            rx.el.label(rx.text(_("Your reply"), size="3", weight="bold"), html_for="ticket-reply"),
            rx.spacer(),
            rx.segmented_control.root(
                rx.segmented_control.item(_("Write"), value="write"),
                rx.segmented_control.item(_("Preview"), value="preview"),
                value=rx.cond(TicketState.previewing, "preview", "write"),
                on_change=lambda value: TicketState.set_previewing(value == "preview"),
                size="1",
                aria_label=_("Write or preview"),
                data_testid="reply-mode",
            ),
            align="center",
            width="100%",
        ),
        rx.cond(TicketState.previewing, preview, writing),
        file_chooser(TicketState, UPLOAD_ID, compact=True),
        _reply_errors(),
        rx.flex(
            rx.button(
                rx.icon("send", size=16),
                rx.cond(TicketState.sending, _("Sending…"), _("Send")),
                on_click=TicketState.send_reply(rx.upload_files(upload_id=UPLOAD_ID)),
                loading=TicketState.sending,
                disabled=TicketState.sending,
                data_testid="reply-send",
            ),
            justify="end",
            width="100%",
        ),
        spacing="3",
        width="100%",
        data_testid="reply-box",
    )


def status_actions() -> rx.Component:
    """Close (a solved problem) or reopen (within the period the provider says)."""
    return rx.hstack(
        rx.cond(
            ticket.can_close,
            rx.button(
                rx.icon("circle-check", size=16),
                _("Close the ticket"),
                variant="soft",
                color_scheme="gray",
                on_click=TicketState.set_status("closed"),
                loading=TicketState.changing_status,
                data_testid="ticket-close",
            ),
        ),
        rx.cond(
            ticket.reopenable_until != "",
            rx.vstack(
                rx.button(
                    rx.icon("rotate-ccw", size=16),
                    _("Reopen the ticket"),
                    variant="soft",
                    on_click=TicketState.set_status("open"),
                    loading=TicketState.changing_status,
                    data_testid="ticket-reopen",
                ),
                rx.text(
                    _("Possible until {date}", date=ticket.reopenable_until),
                    size="1",
                    color=rx.color("gray", 11),
                ),
                spacing="1",
            ),
        ),
        spacing="3",
        wrap="wrap",
    )


def conversation_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(_("Conversation"), as_="h2", size="4"),
            _messages(),
            rx.cond(
                ticket.can_write,
                rx.fragment(rx.separator(size="4"), _reply_box()),
                rx.text(
                    _("You cannot write in this ticket."),
                    size="2",
                    color=rx.color("gray", 11),
                    data_testid="reply-unavailable",
                ),
            ),
            spacing="4",
            width="100%",
        ),
        width="100%",
        data_testid="ticket-conversation",
    )
