"""An invoice or credit note as a PDF, written with the user guide's PDF library and fonts
(fpdf2, DejaVu) in the customer company's language, with Babel's formats.

It shows the provider's and the customer's names and addresses, the number, the dates and
period, one line per billed service, the totals excluding and including tax with the VAT rate,
and what is left to pay. Generated documents are cached under the data directory
(docs/decisions/invoice-pdfs.md).
"""

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from babel.dates import format_date
from babel.numbers import format_currency, format_percent
from fpdf import FPDF, FontFace
from fpdf.enums import XPos, YPos

from portal.docs_pdf.layout import FONT_FILES, MUTED, PRIMARY, PRIMARY_TINT, SANS, TEXT, font_path
from portal.i18n import format_locale, match_language
from portal.provider.platform.models import Company, Invoice, InvoiceType
from portal.settings import Settings

CURRENCY = "EUR"

# The document's own words: fixed texts of a legal document, kept beside it in both languages
# like the terms of use, not in the screens' catalogs.
_WORDS = {
    "en": {
        InvoiceType.INVOICE: "Invoice",
        InvoiceType.CREDIT: "Credit note",
        "number": "Number",
        "date": "Date",
        "due": "Due date",
        "period": "Period",
        "customer": "Billed to",
        "vat_number": "VAT number",
        "description": "Service",
        "amount": "Amount excl. tax",
        "total": "Total excl. tax",
        "vat": "VAT {rate}",
        "reverse_charge": "VAT 0 % – reverse charge (art. 196, Directive 2006/112/EC)",
        "with_tax": "Total incl. tax",
        "paid": "Already paid",
        "left": "Left to pay",
        "terms": "Payable by bank transfer by the due date. Late payment: penalties at three "
        "times the legal interest rate and a fixed EUR 40 recovery fee.",
        "credit_terms": "This credit note will be deducted from your next invoice.",
    },
    "fr": {
        InvoiceType.INVOICE: "Facture",
        InvoiceType.CREDIT: "Avoir",
        "number": "Numéro",
        "date": "Date",
        "due": "Échéance",
        "period": "Période",
        "customer": "Facturé à",
        "vat_number": "N° de TVA",
        "description": "Service",
        "amount": "Montant HT",
        "total": "Total HT",
        "vat": "TVA {rate}",
        "reverse_charge": "TVA 0 % – autoliquidation (art. 196 de la directive 2006/112/CE)",
        "with_tax": "Total TTC",
        "paid": "Déjà réglé",
        "left": "Reste à payer",
        "terms": "Payable par virement à l'échéance. Retard de paiement : pénalités au taux de "
        "trois fois l'intérêt légal et indemnité forfaitaire de recouvrement de 40 EUR.",
        "credit_terms": "Cet avoir sera déduit de votre prochaine facture.",
    },
}


def vat_rate(invoice: Invoice) -> Decimal:
    """The rate the amounts imply (tax over the amount excluding it), to a tenth of a per cent."""
    if not invoice.amount:
        return Decimal(0)
    rate = (invoice.amount_with_tax - invoice.amount) / invoice.amount
    return rate.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)


def render_invoice_pdf(invoice: Invoice, company: Company, settings: Settings) -> bytes:
    """The PDF of ``invoice`` (its ``lines`` loaded) for ``company``, in the company's language."""
    language = match_language(company.language or "en")
    words = _WORDS[language]
    locale = format_locale(language)

    def money(value: Decimal) -> str:
        return format_currency(value, CURRENCY, locale=locale)

    def day(value: date | None) -> str:
        return format_date(value, format="long", locale=locale) if value else ""

    pdf = FPDF(format="A4", unit="mm")
    for (family, style), file_name in FONT_FILES.items():
        pdf.add_font(family, style, font_path(file_name))
    title = f"{words[invoice.type]} {invoice.reference}"
    pdf.set_title(title)
    pdf.set_lang(language)
    pdf.set_creator(settings.company_name)
    pdf.set_margins(left=20, top=20, right=20)
    pdf.add_page()
    width = pdf.epw

    # The provider, then the document's title.
    pdf.set_text_color(*PRIMARY)
    pdf.set_font(SANS, "B", 16)
    pdf.cell(0, 8, settings.company_name, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_text_color(*MUTED)
    pdf.set_font(SANS, size=9)
    for line in (settings.company_address, f"{words['vat_number']} {settings.company_vat_number}"):
        pdf.cell(0, 5, line, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(8)
    pdf.set_text_color(*TEXT)
    pdf.set_font(SANS, "B", 18)
    pdf.cell(0, 10, title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)

    # The customer on the right, the references on the left.
    top = pdf.get_y()
    pdf.set_font(SANS, size=10)
    facts = [
        (words["number"], invoice.reference),
        (words["date"], day(invoice.date_invoice)),
        (words["due"], day(invoice.date_due)),
    ]
    if invoice.date_start and invoice.date_end:
        facts.append((words["period"], f"{day(invoice.date_start)} – {day(invoice.date_end)}"))
    for label, value in facts:
        pdf.set_font(SANS, "B", 10)
        pdf.cell(28, 6, label)
        pdf.set_font(SANS, size=10)
        pdf.cell(0, 6, value, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    bottom = pdf.get_y()
    address = [
        company.name,
        company.street,
        " ".join(filter(None, (company.postal_code, company.city))),
        company.country,
    ]
    pdf.set_xy(pdf.l_margin + width * 0.58, top)
    pdf.set_font(SANS, "B", 9)
    pdf.set_text_color(*MUTED)
    pdf.cell(0, 5, words["customer"], new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.set_text_color(*TEXT)
    for index, text in enumerate(filter(None, address)):
        pdf.set_font(SANS, "B" if index == 0 else "", 10)
        pdf.cell(0, 5.5, text, new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.set_xy(pdf.l_margin, max(bottom, pdf.get_y()) + 8)

    # One line per billed service, then the totals.
    pdf.set_font(SANS, size=10)
    with pdf.table(
        col_widths=(width * 0.72, width * 0.28),
        text_align=("LEFT", "RIGHT"),
        headings_style=FontFace(emphasis="BOLD", fill_color=PRIMARY_TINT),
        line_height=7,
        first_row_as_headings=True,
    ) as table:
        heading = table.row()
        heading.cell(words["description"])
        heading.cell(words["amount"])
        for billed in invoice.lines:
            row = table.row()
            row.cell(billed.label)
            row.cell(money(billed.amount))
    pdf.ln(4)
    rate = vat_rate(invoice)
    vat = (
        words["vat"].format(
            rate=format_percent(rate.normalize(), locale=locale, decimal_quantization=False)
        )
        if rate
        else words["reverse_charge"]
    )
    totals = [
        (words["total"], money(invoice.amount), False),
        (vat, money(invoice.amount_with_tax - invoice.amount), False),
        (words["with_tax"], money(invoice.amount_with_tax), True),
    ]
    if invoice.type is InvoiceType.INVOICE:
        totals += [
            (words["paid"], money(invoice.paid), False),
            (words["left"], money(invoice.amount_with_tax - invoice.paid), True),
        ]
    for label, value, strong in totals:
        pdf.set_font(SANS, "B" if strong else "", 10)
        pdf.cell(width * 0.72, 7, label, align="R")
        pdf.cell(width * 0.28, 7, value, align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    pdf.ln(10)
    pdf.set_font(SANS, size=8.5)
    pdf.set_text_color(*MUTED)
    terms = words["terms" if invoice.type is InvoiceType.INVOICE else "credit_terms"]
    pdf.multi_cell(0, 4.5, terms, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return bytes(pdf.output())
