"""The demo's documents (PDFs, a PNG graph, a router log): a handful of small, real files that
the demo's services, tickets and terminations share (and the benchmark's invoices; each demo
invoice has its own, generated on download: docs/decisions/invoice-pdfs.md).

Written once under ``<data dir>/documents/demo/`` and skipped when already there, so seeding
stays fast; rows store the path relative to the data directory.
"""

from collections.abc import Callable
from functools import partial
from io import BytesIO
from pathlib import Path
from typing import NamedTuple

from fpdf import FPDF
from PIL import Image, ImageDraw

DEMO_DOCUMENTS_DIR = Path("documents") / "demo"


class DemoDocument(NamedTuple):
    path: str  # relative to the data directory, with forward slashes
    filename: str
    size: int


# kind -> (file name, title, body lines); the core PDF fonts cover Latin-1 only (accents
# yes, typographic dashes and quotes no).
_CONTENT: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "handover": (
        "handover-report.pdf",
        "Service handover report / Procès-verbal de recette",
        (
            "The service described below has been delivered, tested end to end and handed over.",
            "Le service décrit ci-dessous a été livré, testé de bout en bout et remis au client.",
            "Optical levels, latency and error counters were within the contractual limits.",
        ),
    ),
    "loa": (
        "letter-of-authorisation.pdf",
        "Letter of authorisation (LOA-CFA)",
        (
            "The customer authorises the connecting facility to install a cross-connect",
            "to the demarcation point below, at the customer's expense.",
            "Valid for 90 days from the date of issue.",
        ),
    ),
    "order": (
        "order-form.pdf",
        "Order form / Bon de commande",
        (
            "Product, term, one-off and monthly charges as agreed with the customer.",
            "Minimum term 36 months, renewed yearly unless terminated with 3 months' notice.",
        ),
    ),
    "termination": (
        "termination-notice.pdf",
        "Termination acknowledgement / Accusé de résiliation",
        (
            "We acknowledge the termination request of the service below.",
            "Equipment must be returned within 30 days of the termination date.",
        ),
    ),
    "invoice": (
        "invoice.pdf",
        "Invoice / Facture",
        (
            "Recurring charges for the period, payable within 30 days.",
            "Late payment penalties: three times the legal interest rate, plus EUR 40.",
        ),
    ),
    "credit": (
        "credit-note.pdf",
        "Credit note / Avoir",
        (
            "Credit for service unavailability under the service level agreement.",
            "The amount will be deducted from your next invoice.",
        ),
    ),
    "diagnostic": (
        "diagnostic-report.pdf",
        "Diagnostic report / Rapport de diagnostic",
        (
            "Traceroute, optical levels and interface counters collected by our NOC.",
            "Trace, niveaux optiques et compteurs d'interface relevés par notre NOC.",
        ),
    ),
}

DOCUMENT_KINDS = tuple(_CONTENT)


def _render(title: str, lines: tuple[str, ...], company_name: str) -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_creator(company_name)
    pdf.set_title(title)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 12, company_name, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("Helvetica", size=11)
    for line in lines:
        pdf.multi_cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font("Helvetica", "I", 9)
    pdf.cell(0, 6, "Demonstration document - no contractual value.")
    return bytes(pdf.output())


def _traffic_graph() -> bytes:
    """A PNG of the kind customers attach to tickets: an interface's traffic with a drop."""
    width, height = 480, 200
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for y in range(20, height, 36):
        draw.line([(40, y), (width - 10, y)], fill=(225, 225, 232))
    draw.line([(40, 10), (40, height - 20), (width - 10, height - 20)], fill=(90, 90, 100))
    points = [
        (40 + x, 60 + (x * 7) % 23 if not 250 <= x <= 310 else height - 22)
        for x in range(0, width - 50, 6)
    ]
    draw.line(points, fill=(110, 60, 200), width=2)
    draw.text((48, 14), "xe-0/0/1 in (Gbit/s) - LOS 03:12 UTC", fill=(40, 40, 48))
    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


_TRACE_LOG = "\n".join(
    (
        "2026-11-18T03:11:58Z pe1-par2 %LINK-3-UPDOWN: xe-0/0/1 changed state to down",
        "2026-11-18T03:11:58Z pe1-par2 %OPTICS-4-LOS: xe-0/0/1 Rx power -40.00 dBm",
        "2026-11-18T03:12:04Z pe1-par2 %BGP-5-ADJCHANGE: neighbor 192.0.2.1 Down",
        "2026-11-18T03:47:31Z pe1-par2 %LINK-3-UPDOWN: xe-0/0/1 changed state to up",
        "2026-11-18T03:47:33Z pe1-par2 %OPTICS-6-OK: xe-0/0/1 Rx power -3.12 dBm",
        "2026-11-18T03:47:40Z pe1-par2 %BGP-5-ADJCHANGE: neighbor 192.0.2.1 Up",
        "",
    )
)
# Files other than PDFs that tickets carry: kind -> (file name, content).
_OTHER_FILES: dict[str, tuple[str, Callable[[], bytes]]] = {
    "graph": ("traffic-graph.png", _traffic_graph),
    "log": ("router-log.txt", lambda: _TRACE_LOG.encode()),
}


def write_demo_documents(data_dir: Path, company_name: str) -> dict[str, DemoDocument]:
    """Every demo document by kind, written under ``data_dir`` unless already there."""
    folder = data_dir / DEMO_DOCUMENTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    documents = {}
    files: dict[str, tuple[str, Callable[[], bytes]]] = {
        kind: (filename, partial(_render, title, lines, company_name))
        for kind, (filename, title, lines) in _CONTENT.items()
    } | _OTHER_FILES
    for kind, (filename, render) in files.items():
        target = folder / filename
        if not target.exists():
            target.write_bytes(render())
        relative = (DEMO_DOCUMENTS_DIR / filename).as_posix()
        documents[kind] = DemoDocument(relative, filename, target.stat().st_size)
    return documents
