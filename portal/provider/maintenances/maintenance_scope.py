"""What a principal may see of maintenances, shared by the list, the item and the calendar feed:
the maintenances impacting one of their services, and inside one their own contacts and the
provider's (docs/decisions/maintenance-contacts.md)."""

import datetime as dt
import uuid
from collections.abc import Sequence
from typing import Protocol, TypeVar

from sqlalchemy import distinct
from sqlmodel import col, func, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import is_staff_email
from portal.provider.platform.models import Maintenance, MaintenanceService
from portal.provider.platform.scoping import scope_to_companies
from portal.provider.platform.security import Principal
from portal.settings import get_settings


def impacted(principal: Principal) -> SelectOfScalar[uuid.UUID]:
    """Ids of the maintenances impacting a service the principal may see: read from the links
    alone, which carry their service's company (docs/decisions/maintenance-scope.md)."""
    statement = select(MaintenanceService.maintenance_id)
    return scope_to_companies(statement, principal, MaintenanceService.company_id)


def impacted_count(principal: Principal) -> SelectOfScalar[int]:
    """How many maintenances impact a service the principal may see: the distinct ids of the
    links, without reading the maintenances (a heavy tenant has thousands)."""
    links = select(func.count(distinct(col(MaintenanceService.maintenance_id))))
    return scope_to_companies(links, principal, MaintenanceService.company_id)


def aware(moment: dt.datetime) -> dt.datetime:
    """A moment given without a time zone is taken as UTC, as every stored moment is."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


class Contact(Protocol):
    """A maintenance contact as an entity or as a row of its columns."""

    @property
    def email(self) -> str: ...

    @property
    def company_id(self) -> uuid.UUID | None: ...


AnyContact = TypeVar("AnyContact", bound=Contact)


def visible_contacts(contacts: Sequence[AnyContact], principal: Principal) -> list[AnyContact]:
    """The contacts the principal may see: a customer those of their companies and the
    provider's (an e-mail of the staff mail domain), never another company's."""
    if principal.is_staff:
        return list(contacts)
    domain = get_settings().staff_mail_domain
    return [
        contact
        for contact in contacts
        if contact.company_id in principal.company_ids or is_staff_email(contact.email, domain)
    ]


def visible_maintenances(
    principal: Principal, *, per_row: bool = False
) -> SelectOfScalar[Maintenance]:
    """The maintenances impacting a service the principal may see.

    ``per_row``: for a period (a calendar's month), each window of the period is checked on
    its own links instead of first gathering every maintenance of the customer's services:
    the cost then follows the period, not the customer's whole history (a heavy tenant has
    thousands). ``OFFSET 0`` keeps PostgreSQL from turning the check back into a join
    (docs/decisions/maintenances-view.md)."""
    statement = select(Maintenance)
    if principal.is_staff:
        return statement
    if per_row:
        links = impacted(principal).where(
            col(MaintenanceService.maintenance_id) == col(Maintenance.id)
        )
        return statement.where(links.offset(0).exists())
    return statement.where(col(Maintenance.id).in_(impacted(principal)))
