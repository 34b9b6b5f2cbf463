"""Two years of invoices per customer, a few credit notes, each line tied to a service."""

import calendar
import uuid
from datetime import date, timedelta
from decimal import Decimal

from portal.provider.billing.invoice_documents import generated_pdf_path
from portal.provider.demo_data.catalogue import SERVICE_TYPES, Family
from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.people import (
    ACME,
    BOREAL,
    CUSTOMER_COMPANIES,
    FRENCH_SPEAKING,
    GLOBEX,
    INITECH,
    NORDIC,
    RHONE,
)
from portal.provider.platform.models import (
    Invoice,
    InvoiceLine,
    InvoiceStatus,
    InvoiceType,
    Service,
)

MONTHS = 24  # the invoicing chart shows the last 24 months
PAYMENT_TERM = timedelta(days=30)
CENT = Decimal("0.01")
# French customers pay VAT; the others are invoiced under the reverse-charge rule.
VAT_RATE = Decimal("0.20")
# Monthly price range per family, in euros excluding tax.
MONTHLY_PRICES = {
    Family.TRANSIT: (900, 4800),
    Family.ACCESS: (120, 650),
    Family.ETHERNET: (450, 2600),
    Family.WAVELENGTH: (1800, 9500),
    Family.OTN: (1500, 7000),
    Family.DARK_FIBRE: (800, 6000),
    Family.COLOCATION: (350, 2400),
    Family.CROSS_CONNECT: (60, 140),
    Family.ON_SITE: (90, 450),
    Family.HOSTING: (45, 900),
    Family.EQUIPMENT: (40, 300),
    Family.NETWORK_SERVICE: (150, 1800),
    Family.STORAGE_NETWORK: (900, 3500),
    Family.VOICE: (80, 600),
}
# Months back from the current one whose invoice is not settled, per customer; every other
# invoice is paid. Gives the demo unpaid, overdue and partly paid invoices for everyone.
UNPAID = {0: CUSTOMER_COMPANIES, 1: (ACME, GLOBEX, BOREAL, INITECH), 4: (ACME, RHONE)}
PARTLY_PAID = {2: (ACME, GLOBEX, NORDIC)}
Prices = dict[uuid.UUID, Decimal]
_FAMILIES = {entry.key: entry.family for entry in SERVICE_TYPES}
# Spelled out here rather than through strftime, whose month names follow the process locale.
_MONTH_NAMES = {
    False: "January February March April May June July August September October November December",
    True: "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
}


def build_billing(context: SeedContext) -> None:
    prices = {service.id: _monthly_price(context, service) for service in context.services}
    invoices: list[Invoice] = []
    for company in CUSTOMER_COMPANIES:
        for months_back in range(MONTHS - 1, -1, -1):
            month_start = _month_start(context.today, months_back)
            invoice = _monthly_invoice(context, company, month_start, prices, len(invoices))
            if invoice is not None:
                _settle(invoice, company, months_back)
                invoices.append(invoice)
        invoices += _credit_notes(context, company, prices, len(invoices))
    context.session.add_all(invoices)
    context.session.flush()


def _month_start(today: date, months_back: int) -> date:
    month_index = today.year * 12 + today.month - 1 - months_back
    return date(month_index // 12, month_index % 12 + 1, 1)


def _month_end(month_start: date) -> date:
    return month_start.replace(day=calendar.monthrange(month_start.year, month_start.month)[1])


def _monthly_price(context: SeedContext, service: Service) -> Decimal:
    low, high = MONTHLY_PRICES[_FAMILIES[service.type.key]]
    return Decimal(context.rng.randint(low, high)) + Decimal(context.rng.choice((0, 50, 90))) / 100


def _in_service(service: Service, month_start: date) -> bool:
    if service.date_start is None or service.date_start > _month_end(month_start):
        return False
    return service.date_termination is None or service.date_termination >= month_start


def _line_label(service: Service, french: bool) -> str:
    label = service.type.label_fr if french else service.type.label_en
    return f"{label} – {service.reference}"


def _period(month_start: date, french: bool) -> str:
    return f"{_MONTH_NAMES[french].split()[month_start.month - 1]} {month_start.year}"


def _monthly_invoice(
    context: SeedContext,
    company: str,
    month_start: date,
    prices: Prices,
    sequence: int,
) -> Invoice | None:
    charges = [
        (service, prices[service.id])
        for service in context.services_of(company)
        if _in_service(service, month_start)
    ]
    if not charges:
        return None
    return _invoice(context, company, InvoiceType.INVOICE, month_start, charges, sequence)


def _invoice(
    context: SeedContext,
    company: str,
    kind: InvoiceType,
    issued: date,
    charges: list[tuple[Service, Decimal]],
    sequence: int,
) -> Invoice:
    french = company in FRENCH_SPEAKING
    amount = sum((charge for _service, charge in charges), Decimal(0))
    with_tax = (amount * (1 + VAT_RATE) if french else amount).quantize(CENT)
    prefix = "FA" if kind is InvoiceType.INVOICE else "AV"
    reference = f"{prefix}{issued:%Y%m}-{sequence + 1:05d}"
    month_start = issued.replace(day=1)
    invoice_id = context.new_id()
    invoice = Invoice(
        id=invoice_id,
        reference=reference,
        company_id=context.companies[company].id,
        type=kind,
        date_created=issued,
        date_invoice=issued,
        date_due=issued + PAYMENT_TERM,
        date_start=month_start,
        date_end=_month_end(month_start),
        period=_period(month_start, french),
        amount=amount,
        amount_with_tax=with_tax,
        paid=with_tax,
        is_paid=True,
        status=InvoiceStatus.PAID,
        # Each its own PDF, written on the first download (docs/decisions/invoice-pdfs.md).
        pdf_path=generated_pdf_path(invoice_id),
        pdf_name=f"{reference}.pdf",
    )
    invoice.lines = [
        InvoiceLine(
            id=context.new_id(),
            invoice_id=invoice.id,
            service_id=service.id,
            label=_line_label(service, french),
            amount=charge,
        )
        for service, charge in charges
    ]
    return invoice


def _settle(invoice: Invoice, company: str, months_back: int) -> None:
    if company in UNPAID.get(months_back, ()):
        invoice.paid, invoice.is_paid, invoice.status = Decimal(0), False, InvoiceStatus.UNPAID
    elif company in PARTLY_PAID.get(months_back, ()):
        invoice.paid = (invoice.amount_with_tax * Decimal("0.4")).quantize(CENT)
        invoice.is_paid, invoice.status = False, InvoiceStatus.PARTIALLY_PAID


def _credit_notes(
    context: SeedContext, company: str, prices: Prices, sequence: int
) -> list[Invoice]:
    """Service-level credits for past incidents; Acme's latest is not yet deducted."""
    billed = [service for service in context.services_of(company) if service.date_start]
    credits: list[Invoice] = []
    for months_back in (8, 3)[: 2 if company == ACME else 1]:
        service = context.rng.choice(billed)
        charge = (prices[service.id] * Decimal("0.15")).quantize(CENT)
        issued = _month_start(context.today, months_back) + timedelta(days=14)
        credit = _invoice(
            context,
            company,
            InvoiceType.CREDIT,
            issued,
            [(service, charge)],
            sequence + len(credits),
        )
        if months_back == 3:
            credit.paid, credit.is_paid, credit.status = Decimal(0), False, InvoiceStatus.UNPAID
        credits.append(credit)
    return credits
