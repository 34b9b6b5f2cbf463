"""The contact cards of the contacts page (spec 2, Contacts), from the companies the provider
answers with their sales contacts: the representatives first, each with the names of the chosen
companies they serve, then everybody reached through managers and assistants, each person once.

The provider writes a person in full once per company and as an IRI after that (a loop in the
data cannot recurse); the cards are built from every full person of the answer, by id, so a
reference resolves whichever company's tree held the person in full.
"""

import re
from collections import deque
from collections.abc import Iterable

from pydantic import BaseModel, Field

from portal.client.models import Company, SalesContact


class ContactCard(BaseModel):
    id: str = ""
    job: str = ""
    full_name: str = ""
    office_phone: str = ""
    office_phone_href: str = ""
    mobile_phone: str = ""
    mobile_phone_href: str = ""
    email: str = ""
    # The chosen companies this person serves as a sales contact; empty for the others.
    companies: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, person: SalesContact) -> "ContactCard":
        return cls(
            id=person.id,
            job=person.job or "",
            full_name=person.full_name,
            office_phone=person.office_phone or "",
            office_phone_href=tel_href(person.office_phone),
            mobile_phone=person.mobile_phone or "",
            mobile_phone_href=tel_href(person.mobile_phone),
            email=person.email,
        )


class Contacts(BaseModel):
    sales: list[ContactCard] = Field(default_factory=list)
    further: list[ContactCard] = Field(default_factory=list)


def tel_href(number: str | None) -> str:
    """A ``tel:`` link (RFC 3966): the number without spaces, dots or brackets; "" for none."""
    if not number:
        return ""
    digits = re.sub(r"[^\d+]", "", number)
    return f"tel:{digits}" if digits.strip("+") else ""


def _written(person: SalesContact) -> bool:
    """Whether ``person`` came in full, not as a bare IRI (which has only its id)."""
    return bool(person.full_name or person.email)


def _everybody(companies: Iterable[Company]) -> dict[str, SalesContact]:
    found: dict[str, SalesContact] = {}
    pending = deque(person for company in companies for person in company.sales)
    while pending:
        person = pending.popleft()
        if not _written(person) or person.id in found:
            continue
        found[person.id] = person
        pending.extend([*person.assistants, *([person.manager] if person.manager else [])])
    return found


def contacts_of(companies: list[Company]) -> Contacts:
    """``companies`` in the order chosen; sales contacts in that order, then the others breadth
    first (each one's manager, then assistants), none twice whatever loops the data holds."""
    people = _everybody(companies)
    cards: dict[str, ContactCard] = {}
    for company in companies:
        for reference in company.sales:
            person = people.get(reference.id)
            if person is None:
                continue
            card = cards.setdefault(person.id, ContactCard.of(person))
            if company.name and company.name not in card.companies:
                card.companies.append(company.name)
    sales = list(cards.values())
    further: list[ContactCard] = []
    queue = deque(people[card.id] for card in sales)
    while queue:
        person = queue.popleft()
        for reference in [*([person.manager] if person.manager else []), *person.assistants]:
            other = people.get(reference.id)
            if other is None or other.id in cards:
                continue
            cards[other.id] = ContactCard.of(other)
            further.append(cards[other.id])
            queue.append(other)
    return Contacts(sales=sales, further=further)
