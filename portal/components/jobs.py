"""Job titles of provider staff (spec 3) with translated labels (DESIGN 6)."""

import reflex as rx

from portal.components.i18n import _
from portal.i18n import N_

JOB_LABELS: dict[str, str] = {
    "business_engineer": N_("Business Engineer"),
    "corporate_sales_manager": N_("Corporate Sales Manager"),
    "wholesales_manager": N_("Wholesales Manager"),
    "sales_director_france": N_("Sales Director France"),
    "deputy_sales_director": N_("Deputy Sales Director"),
    "ceo": N_("CEO"),
    "sales_management_assistant": N_("Sales Management Assistant"),
    "sales_administration_manager": N_("Sales Administration Manager"),
    "sales_assistant": N_("Sales Assistant"),
}


def job_label(job: rx.Var[str]) -> rx.Var:
    """The job title in the current language; an unknown job shows as sent."""
    return rx.match(job, *((key, _(label)) for key, label in JOB_LABELS.items()), job)
