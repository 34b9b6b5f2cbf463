"""The helpdesk's answers to tickets (issue 49): a reply in the ticket's conversation, a new
status, or both, keyed on the helpdesk's own reference of the reply, so a batch sent again
adds no message and sends no e-mail. Each reply or change of status is mailed to the ticket's
requester (``platform.mail.tickets``). The token needs the ``ticket_replies`` scope, which also
reads the feed of what customers wrote (``GET /api/integration/events``)."""

from typing import Annotated, Any

from pydantic import Field
from sqlmodel import Session

from portal.i18n import N_
from portal.markup import render_markdown
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    Counts,
    InputModel,
    Reference,
    Text,
    UtcDateTime,
    duplicates,
    path,
    rows_by,
    unknown,
)
from portal.provider.platform import webhooks
from portal.provider.platform.errors import Violation
from portal.provider.platform.hydra import NOT_BLANK
from portal.provider.platform.mail.tickets import TicketUpdate, send_ticket_update
from portal.provider.platform.models import (
    AuthorType,
    Ticket,
    TicketMessage,
    TicketStatus,
    utcnow,
)

# As a customer's message (issue 49).
BODY_MAX_LENGTH = 20_000
OTHER_TICKET = N_("This reply was sent for another ticket.")
NOTHING_TO_DO = N_("A reply needs a body, a status or both.")


class TicketReplyIn(InputModel):
    reference: Reference = Field(description="The helpdesk's reference of the reply: the key.")
    ticket: Reference = Field(description="The ticket's reference (`P-…` for portal tickets).")
    author: Text = Field(max_length=200, description="Shown as the reply's author.")
    body: Annotated[str, NOT_BLANK] | None = Field(
        default=None,
        min_length=1,
        max_length=BODY_MAX_LENGTH,
        description="Markdown, rendered and sanitised; none for a change of status alone.",
    )
    status: TicketStatus | None = Field(default=None, description="The ticket's new status.")
    created: UtcDateTime | None = Field(default=None, description="Defaults to now.")


def check(db: Session, entries: Entries[TicketReplyIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    tickets = rows_by(db, Ticket.reference, (item.ticket for item in items))
    messages = rows_by(db, TicketMessage.reference, (item.reference for item in items))
    for index, item in entries:
        if item.body is None and item.status is None:
            violations.append(Violation(path(index), NOTHING_TO_DO))
        violations += unknown(index, "ticket", item.ticket, tickets)
        known, ticket = messages.get(item.reference), tickets.get(item.ticket)
        if known is not None and ticket is not None and known.ticket_id != ticket.id:
            violations.append(Violation(path(index, "reference"), OTHER_TICKET))
    return (tickets, messages), violations


def write(db: Session, entries: Entries[TicketReplyIn], resolved: Any) -> Counts:
    tickets, messages = resolved
    counts = Counts()
    for _, item in entries:
        ticket: Ticket = tickets[item.ticket]
        created = body_changed = status_changed = False
        if item.body is not None:
            message: TicketMessage | None = messages.get(item.reference)
            if message is None:
                message = TicketMessage(
                    ticket_id=ticket.id,
                    reference=item.reference,
                    author_type=AuthorType.PROVIDER,
                    author_name=item.author,
                    body=item.body,
                    body_html=render_markdown(item.body),
                    created=item.created or utcnow(),
                )
                ticket.last_reply_at = utcnow()
                created = True
            elif (message.body, message.author_name) != (item.body, item.author):
                message.body, message.author_name = item.body, item.author
                message.body_html = render_markdown(item.body)
                body_changed = True
            db.add(message)
        if item.status is not None and item.status != ticket.status:
            ticket.status = item.status
            if item.status is TicketStatus.CLOSED:
                ticket.closed_at = utcnow()
            status_changed = True
        db.add(ticket)
        if created or status_changed:
            # A reply corrected later is not mailed again.
            update = TicketUpdate(
                author=item.author if created else None,
                text=item.body if created else None,
                html=render_markdown(item.body) if created and item.body else None,
                status=item.status if status_changed else None,
            )
            send_ticket_update(db, ticket, update)
            db.flush()
            webhooks.announce_change(db, "ticket.updated", ticket.id, [ticket.company_id])
        counts.add(created, body_changed or status_changed)
    return counts


KIND = Kind(
    name="ticket_reply",
    path="ticket_replies",
    model=TicketReplyIn,
    limit=500,
    check=check,
    write=write,
    summary="Answer tickets: replies and changes of status",
    description="Add the helpdesk's replies to tickets' conversations and change their "
    "statuses, keyed on the reply's `reference`: a reply sent again adds nothing and mails "
    "nothing. Each new reply or change of status is mailed to the ticket's requester, in their "
    "language, threaded under the ticket. The body is Markdown, rendered and sanitised.",
    example=[
        {
            "reference": "HD-88231-R1",
            "ticket": "P-1000042",
            "author": "Ana Silva",
            "body": "We replaced the optic at **Écully**: the light is back.",
            "status": "restoredService",
        },
        {"reference": "HD-88231-R2", "ticket": "P-1000042", "author": "NOC", "status": "closed"},
    ],
)
