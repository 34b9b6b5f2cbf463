"""Display labels the provider sends in the request's language."""

from portal.i18n import N_, gettext
from portal.provider.platform.models import Job

JOB_LABELS = {
    Job.BUSINESS_ENGINEER: N_("Business Engineer"),
    Job.CORPORATE_SALES_MANAGER: N_("Corporate Sales Manager"),
    Job.WHOLESALES_MANAGER: N_("Wholesales Manager"),
    Job.SALES_DIRECTOR_FRANCE: N_("Sales Director France"),
    Job.DEPUTY_SALES_DIRECTOR: N_("Deputy Sales Director"),
    Job.CEO: N_("CEO"),
    Job.SALES_MANAGEMENT_ASSISTANT: N_("Sales Management Assistant"),
    Job.SALES_ADMINISTRATION_MANAGER: N_("Sales Administration Manager"),
    Job.SALES_ASSISTANT: N_("Sales Assistant"),
}


def job_label(job: Job | None, language: str) -> str | None:
    return gettext(language, JOB_LABELS[job]) if job else None
