"""Support tickets in every status and priority for each customer, told in its language, some
with attachments (a PDF report, a PNG graph, a router log); Acme also has the one hostile
description that the sanitiser must defuse. Descriptions are sanitised as the integration API
sanitises them."""

import re
from datetime import timedelta

from portal.markup import sanitize_html
from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.people import (
    ACME,
    ACME_BENELUX,
    BOREAL,
    CUSTOMERS,
    FRENCH_SPEAKING,
    GLOBEX,
    INITECH,
    NORDIC,
    RHONE,
)
from portal.provider.demo_data.tickets import HOSTILE, STORIES, TicketStory
from portal.provider.platform.models import Ticket, TicketAttachment, TicketPriority, TicketStatus

TICKETS_PER_COMPANY = {
    ACME: 14,
    GLOBEX: 8,
    BOREAL: 5,
    INITECH: 5,
    NORDIC: 4,
    RHONE: 4,
    ACME_BENELUX: 3,
}
TECHNICIANS = ("maxime.leroy@patchbay.test", "ana.silva@patchbay.test", "noc@patchbay.test")
_FINISHED = (TicketStatus.CLOSED, TicketStatus.SOLVED)
# Later tickets lean towards closed ones, as a helpdesk's history does.
_STATUS_WEIGHTS = {status: 1 for status in TicketStatus} | {TicketStatus.CLOSED: 6}
_KIND_LABELS = {
    ("incident", False): "Incident",
    ("incident", True): "Incident",
    ("request", False): "Service request",
    ("request", True): "Demande de service",
}
_TAG = re.compile(r"<[^>]+>")


_PRIORITIES = tuple(TicketPriority)
# Files a ticket may carry: (document kind, file name pattern, content type).
_FILES = (
    ("diagnostic", "diagnostic-{number}.pdf", "application/pdf"),
    ("graph", "traffic-graph-{number}.png", "image/png"),
    ("log", "router-log-{number}.txt", "text/plain"),
)


def build_tickets(context: SeedContext) -> list[Ticket]:
    rng = context.rng
    number = 100231
    tickets = []
    for company, count in TICKETS_PER_COMPANY.items():
        # Every status once, then a helpdesk's mix; the first four cover every priority.
        statuses = list(TicketStatus)
        weights = list(_STATUS_WEIGHTS.values())
        statuses += rng.choices(list(_STATUS_WEIGHTS), weights, k=max(0, count - len(statuses)))
        stories = [rng.choice(STORIES) for _ in statuses]
        if company == ACME:
            stories[1] = HOSTILE  # open, so it shows among the first tickets
        for index, (status, story) in enumerate(zip(statuses, stories, strict=True)):
            number += rng.randint(1, 60)
            ticket = _ticket(context, company, status, number, story)
            if index < len(_PRIORITIES):
                ticket.priority = _PRIORITIES[index]
            if index == 0:
                # Each customer's newest-looking active ticket carries one file of each kind.
                ticket.attachments = [
                    _attachment(context, ticket, kind, name.format(number=number), media)
                    for kind, name, media in _FILES
                ]
            tickets.append(ticket)
    context.session.add_all(tickets)
    context.session.flush()
    return tickets


def _ticket(
    context: SeedContext, company: str, status: TicketStatus, number: int, story: TicketStory
) -> Ticket:
    rng = context.rng
    french = company in FRENCH_SPEAKING
    description = story.description_fr if french else story.description_en
    age = timedelta(days=rng.randint(20, 200) if status in _FINISHED else rng.randint(0, 19))
    requesters = [person.email for person in CUSTOMERS if person.company == company]
    services = context.services_of(company)
    concerns_service = story.kind == "incident" or rng.random() < 0.5
    # Drawn in this order, the demo's tickets stay those they were.
    date_created = context.now - age - timedelta(minutes=rng.randint(0, 1439))
    priority = _priority(context, story)
    requester_email = rng.choice(requesters)
    technician_email = None if status is TicketStatus.OPEN else rng.choice(TECHNICIANS)
    service = rng.choice(services) if concerns_service else None
    ticket = Ticket(
        id=context.new_id(),
        number=number,
        reference=f"HD-{number}",
        company_id=context.companies[company].id,
        name=f"{'INC' if story.kind == 'incident' else 'REQ'}{number:07d}",
        date_created=date_created,
        subject=story.subject_fr if french else story.subject_en,
        status=status,
        priority=priority,
        description_html=sanitize_html(description),
        short_description=_first_paragraph(description),
        requester_email=requester_email,
        technician_email=technician_email,
        account_name=context.companies[company].name,
        type=_KIND_LABELS[(story.kind, french)],
        service_reference=service.reference if service else None,
        service_id=service.id if service else None,
    )
    if rng.random() < 0.4:
        files = [
            (kind, name.format(number=number), media)
            for kind, name, media in _FILES
            if kind == "diagnostic" or rng.random() < 0.6
        ]
        if story.kind == "request":
            files.append(("loa", f"LOA-request-{number}.pdf", "application/pdf"))
        ticket.attachments = [_attachment(context, ticket, *file) for file in files]
    return ticket


def _priority(context: SeedContext, story: TicketStory) -> TicketPriority:
    if story.kind == "incident":
        return context.rng.choice(
            (TicketPriority.CRITICAL, TicketPriority.HIGH, TicketPriority.MEDIUM)
        )
    return context.rng.choice((TicketPriority.MEDIUM, TicketPriority.LOW))


def _first_paragraph(html: str) -> str:
    first = html.split("</p>", 1)[0]
    return " ".join(_TAG.sub(" ", first).split())[:500]


def _attachment(
    context: SeedContext, ticket: Ticket, kind: str, filename: str, content_type: str
) -> TicketAttachment:
    document = context.documents[kind]
    return TicketAttachment(
        id=context.new_id(),
        ticket_id=ticket.id,
        filename=filename,
        size=document.size,
        content_type=content_type,
        file_path=document.path,
    )
