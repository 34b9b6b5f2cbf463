"""What the billing lists read, declared once with their filters
(``portal.provider.platform.lists``): invoices and credit notes, and who may read them."""

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import ACCESS_INVOICES
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import IsoDate
from portal.provider.platform.lists import ListOf, S, Sorting
from portal.provider.platform.models import Invoice, InvoiceLine, InvoiceType
from portal.provider.platform.scoping import companies
from portal.provider.platform.security import Principal

# Spec 2: the newest invoices first. The reference (unique) breaks ties in the direction of the
# last field, so that one index (company, field, reference) is read forwards or backwards
# without a sort; a customer's companies are read one branch each.
INVOICES = ListOf(
    Invoice,
    Sorting(
        {
            "dateInvoice": col(Invoice.date_invoice),
            "dateDue": col(Invoice.date_due),
            "reference": col(Invoice.reference),
            "amount": col(Invoice.amount),
        },
        default=(("dateInvoice", True),),
        tiebreak=col(Invoice.reference),
    ),
    companies(Invoice.company_id),
    by_company=True,
)


def require_invoice_access(principal: Principal) -> None:
    """Spec 6: admin, read-only staff or ROLE_ACCESS_INVOICES; anyone else gets 403."""
    if not principal.allows(ACCESS_INVOICES):
        raise ApiError(403)


def readable_invoices(principal: Principal) -> SelectOfScalar[Invoice]:
    """Every invoice, once the principal may access invoices (not yet scoped)."""
    require_invoice_access(principal)
    return select(Invoice)


def visible_invoices(principal: Principal) -> SelectOfScalar[Invoice]:
    return INVOICES.scope(readable_invoices(principal), principal)


@dataclass(frozen=True)
class InvoiceFilters:
    service_id: uuid.UUID | None
    type: InvoiceType | None
    is_paid: bool | None
    reference: str
    due_after: dt.date | None
    due_before: dt.date | None

    def apply(self, statement: S) -> S:
        """Due dates are inclusive at both ends."""
        if self.service_id is not None:
            billed = select(InvoiceLine.invoice_id).where(InvoiceLine.service_id == self.service_id)
            statement = statement.where(col(Invoice.id).in_(billed))
        if self.type is not None:
            statement = statement.where(col(Invoice.type) == self.type)
        if self.is_paid is not None:
            statement = statement.where(col(Invoice.is_paid) == self.is_paid)
        if self.reference:
            # ILIKE on PostgreSQL, served by the reference's trigram index; lower() on SQLite.
            statement = statement.where(
                col(Invoice.reference).icontains(self.reference, autoescape=True)
            )
        if self.due_after is not None:
            statement = statement.where(col(Invoice.date_due) >= self.due_after)
        if self.due_before is not None:
            statement = statement.where(col(Invoice.date_due) <= self.due_before)
        return statement


async def invoice_filters(
    service_uuid: Annotated[
        uuid.UUID | None, Query(alias="lines.services.uuid", description="A billed service.")
    ] = None,
    invoice_type: Annotated[InvoiceType | None, Query(alias="type")] = None,
    is_paid: Annotated[
        bool | None, Query(alias="isPaid", description="true/1 paid, false/0 not (fully) paid.")
    ] = None,
    reference: Annotated[str | None, Query(max_length=100, description="Part of it.")] = None,
    due_after: Annotated[
        IsoDate | None, Query(alias="dateDue[after]", description="From this day on.")
    ] = None,
    due_before: Annotated[
        IsoDate | None, Query(alias="dateDue[before]", description="Up to this day included.")
    ] = None,
) -> InvoiceFilters:
    return InvoiceFilters(
        service_id=service_uuid,
        type=invoice_type,
        is_paid=is_paid,
        reference=(reference or "").strip(),
        due_after=due_after,
        due_before=due_before,
    )


InvoiceFiltersDep = Annotated[InvoiceFilters, Depends(invoice_filters)]
