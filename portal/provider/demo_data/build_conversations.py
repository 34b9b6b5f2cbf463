"""Conversations on a few tickets of Alice's companies (``conversations.CONVERSATIONS``): on the
newest unfinished ticket of each story, when the conversation fits between its opening and now.
Messages are rendered from Markdown as the provider renders them; the requester and Alice have
read the conversations marked read, so one ticket shows a "New reply"."""

from datetime import timedelta

from portal.markup import render_markdown
from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.conversations import CONVERSATIONS, Conversation
from portal.provider.demo_data.people import ACME, ACME_BENELUX, FRENCH_SPEAKING
from portal.provider.demo_data.tickets import STORIES
from portal.provider.platform.models import (
    AuthorType,
    Ticket,
    TicketAttachment,
    TicketMessage,
    TicketReadMark,
    TicketStatus,
)

ALICE = "alice@acme-networks.test"
COMPANIES = (ACME, ACME_BENELUX)
_FINISHED = (TicketStatus.CLOSED, TicketStatus.SOLVED)


def build_conversations(context: SeedContext, tickets: list[Ticket]) -> None:
    rows: list[object] = []
    for company in COMPANIES:
        french = company in FRENCH_SPEAKING
        company_id = context.companies[company].id
        for conversation in CONVERSATIONS:
            story = next(s for s in STORIES if s.subject_en == conversation.subject_en)
            subject = story.subject_fr if french else story.subject_en
            span = timedelta(hours=conversation.messages[-1].hours)
            candidates = [
                ticket
                for ticket in tickets
                if ticket.company_id == company_id
                and ticket.subject == subject
                and ticket.status not in _FINISHED
                and ticket.date_created + span < context.now
            ]
            if candidates:
                newest = max(candidates, key=lambda ticket: ticket.date_created)
                rows += _conversation(context, newest, conversation, french)
    context.session.add_all(rows)
    context.session.flush()


def _conversation(
    context: SeedContext, ticket: Ticket, conversation: Conversation, french: bool
) -> list[object]:
    requester = context.users[ticket.requester_email or ALICE]
    rows: list[object] = []
    created = ticket.date_created
    for said in conversation.messages:
        body = said.body_fr if french else said.body_en
        customer = said.author_type is AuthorType.CUSTOMER
        created = ticket.date_created + timedelta(hours=said.hours)
        message = TicketMessage(
            id=context.new_id(),
            ticket_id=ticket.id,
            author_type=said.author_type,
            author_id=requester.id if customer else None,
            author_name=requester.full_name if customer else conversation.technician,
            body=body,
            body_html=render_markdown(body),
            created=created,
        )
        rows.append(message)
        if not customer:
            ticket.last_reply_at = created
        if said.file is not None:
            kind, name, content_type = said.file
            document = context.documents[kind]
            rows.append(
                TicketAttachment(
                    id=context.new_id(),
                    ticket_id=ticket.id,
                    message_id=message.id,
                    filename=name.format(number=ticket.number),
                    size=document.size,
                    content_type=content_type,
                    file_path=document.path,
                )
            )
    if conversation.read_by_requester:
        for email in {ticket.requester_email or ALICE, ALICE}:
            read_at = created + timedelta(minutes=10)
            rows.append(
                TicketReadMark(
                    user_id=context.users[email].id, ticket_id=ticket.id, read_at=read_at
                )
            )
    return rows
