"""Invoices and credit notes with their lines; each line bills one of the customer's services.

Amounts are handled in cents and written as text: no Decimal arithmetic for millions of rows.
"""

from datetime import date, timedelta

from bench.generate.progress import Progress
from bench.generate.world import CustomerCompany, World

INVOICE_COLUMNS = (
    "id", "reference", "company_id", "type", "date_created", "date_invoice", "date_due",
    "date_start", "date_end", "period", "amount", "amount_with_tax", "paid", "is_paid", "status",
    "pdf_path", "pdf_name",
)  # fmt: skip
LINE_COLUMNS = ("id", "invoice_id", "service_id", "label", "amount")
HISTORY_MONTHS = 60
PAYMENT_TERM = timedelta(days=30)
CREDIT_SHARE = 0.08


def euros(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _month_start(anchor: date, months_back: int) -> date:
    months = anchor.year * 12 + anchor.month - 1 - months_back
    return date(months // 12, months % 12 + 1, 1)


def build_billing(world: World) -> None:
    world.spool("invoices", INVOICE_COLUMNS)
    world.spool("invoice_lines", LINE_COLUMNS)
    progress = Progress("invoices", world.plan.invoices)
    number = 0
    for customer, count in zip(world.customers, world.split("invoices"), strict=True):
        for _ in range(count):
            number += 1
            _invoice(world, customer, number)
        progress.advance(count)
    progress.finish()


def _invoice(world: World, customer: CustomerCompany, number: int) -> None:
    rng = world.rng
    credit = rng.random() < CREDIT_SHARE
    months_back = rng.randint(0, HISTORY_MONTHS - 1)
    period_start = _month_start(world.plan.anchor, months_back)
    period_end = _month_start(world.plan.anchor, months_back - 1) - timedelta(days=1)
    issued = min(period_start + timedelta(days=rng.randint(0, 4)), world.plan.anchor)
    invoice_id = world.new_id()
    total = 0
    label = "Avoir" if credit and customer.french else "Credit" if credit else None
    for _ in range(1 if credit else rng.randint(1, 3)):
        index = rng.randrange(len(customer.service_ids))
        cents = rng.randint(2_000, 900_000)
        reference = customer.service_references[index]
        line_label = (
            f"{label} {reference}"
            if label
            else f"Redevance mensuelle {reference}"
            if customer.french
            else f"Monthly charge {reference}"
        )
        world.add(
            "invoice_lines",
            world.new_id(),
            invoice_id,
            customer.service_ids[index],
            line_label,
            euros(cents),
        )
        total += cents
    with_tax = total * 6 // 5
    paid = _paid(rng.random(), months_back, with_tax)
    status = "paid" if paid == with_tax else "unpaid" if paid == 0 else "partiallyPaid"
    reference = f"{'AV' if credit else 'FA'}{number:09d}"
    world.add(
        "invoices",
        invoice_id,
        reference,
        customer.id,
        "credit" if credit else "invoice",
        issued,
        issued,
        issued + PAYMENT_TERM,
        period_start,
        period_end,
        f"{period_start:%Y-%m}",
        euros(total),
        euros(with_tax),
        euros(paid),
        paid == with_tax,
        status,
        world.documents["credit" if credit else "invoice"].path,
        f"{reference}.pdf",
    )


def _paid(draw: float, months_back: int, with_tax: int) -> int:
    """Old invoices are settled; the last three months hold the unpaid and partly paid ones."""
    if months_back >= 3 or draw < 0.6:
        return with_tax
    if draw < 0.7:
        return with_tax // 2
    return 0
