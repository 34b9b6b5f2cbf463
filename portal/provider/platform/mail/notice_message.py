"""A maintenance notice as an e-mail: a plain-text part that reads well, an HTML alternative
without any remote image, and the maintnote part (``text/calendar; method=PUBLISH``) that NOC
tools read, in the recipient's language with times on their clock beside UTC."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from email import charset, encoders
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.utils import formataddr, formatdate, make_msgid
from html import escape

from portal.i18n import N_, format_moment, gettext, match_language
from portal.provider.platform import maintnote
from portal.provider.platform.maintenance_labels import (
    CLASSIFICATION_LABELS,
    STATUS_LABELS,
    TYPE_LABELS,
)
from portal.provider.platform.models import (
    MaintenanceClassification,
    MaintenanceStatus,
    MaintenanceType,
    NoticeEvent,
)
from portal.routes import MAINTENANCES, NOTIFICATIONS
from portal.settings import get_settings

SUBJECTS = {
    NoticeEvent.SCHEDULED: N_("Maintenance scheduled: {reference} · {name}"),
    NoticeEvent.CHANGED: N_("Maintenance changed: {reference} · {name}"),
    NoticeEvent.CANCELLED: N_("Maintenance cancelled: {reference} · {name}"),
    NoticeEvent.STARTED: N_("Maintenance started: {reference} · {name}"),
    NoticeEvent.COMPLETED: N_("Maintenance completed: {reference} · {name}"),
}
INTROS = {
    NoticeEvent.SCHEDULED: N_("A maintenance on the services of {company} has been scheduled."),
    NoticeEvent.CHANGED: N_("A maintenance on the services of {company} has changed."),
    NoticeEvent.CANCELLED: N_(
        "This maintenance has been cancelled, or no longer touches the services of {company}."
    ),
    NoticeEvent.STARTED: N_("A maintenance on the services of {company} has started."),
    NoticeEvent.COMPLETED: N_("A maintenance on the services of {company} is completed."),
}
# Text parts in quoted-printable: their source stays readable, accents and all.
_QUOTED_PRINTABLE = charset.Charset("utf-8")
_QUOTED_PRINTABLE.body_encoding = charset.QP
# Where each recipient's greeting goes in the HTML written once for all.
_GREETING_MARK = "\x00greeting\x00"
_FOOTER_MARK = "\x00footer\x00"
STOP = N_("To stop receiving maintenance notices at this address, follow this link:")
PREFERENCES = N_("Choose which e-mails you receive on your Notifications page:")
GREETING = N_("Hello {name},")
GREETING_NO_NAME = N_("Hello,")
# Labels of the facts, each in a call of its own where the catalogs' extraction finds it.
LABELS = {
    "reference": N_("Reference"),
    "status": N_("Status"),
    "impact": N_("Impact"),
    "type": N_("Type"),
    "start": N_("Start"),
    "end": N_("End"),
}
IMPACTED = N_("Impacted services of {company} (account {account}):")
NONE_IMPACTED = N_("None of the services of {company} is impacted any more.")
CLIENT_REFERENCES = N_("your references: {references}")
SEE_IN_PORTAL = N_("See the maintenances in the portal:")
MACHINE_READABLE = N_(
    "This notice carries its maintenance as an iCalendar part in the maintnote format, for "
    "your tools to read."
)
UTC_BESIDE = N_("{local} ({zone}), {utc} UTC")
UTC_ONLY = N_("{utc} UTC")


@dataclass(frozen=True)
class Recipient:
    email: str
    name: str  # empty for an extra address
    language: str
    time_zone: str
    unsubscribe: str  # the recipient's one-click link (RFC 8058)
    # A portal user (not an extra address): the foot links to their Notifications page.
    signs_in: bool = False


@dataclass(frozen=True)
class ImpactedService:
    reference: str
    type_label: str
    client_references: tuple[str, ...]


@dataclass(frozen=True)
class Content:
    """What one company's notice of a maintenance says, in one language."""

    event: NoticeEvent
    company: str
    account: str
    maintenance_id: uuid.UUID
    reference: str
    name: str
    type: MaintenanceType
    status: MaintenanceStatus
    date_start: datetime
    date_end: datetime
    sequence: int
    changed_at: datetime
    classification: MaintenanceClassification
    services: tuple[ImpactedService, ...]


def moment(value: datetime, language: str, zone: str) -> str:
    """A time on the recipient's clock with the UTC time beside it."""
    utc = format_moment(value, language, "UTC")
    if zone in ("", "UTC"):
        return gettext(language, UTC_ONLY, utc=utc)
    return gettext(
        language, UTC_BESIDE, local=format_moment(value, language, zone), zone=zone, utc=utc
    )


def _status(content: Content) -> str:
    if content.event is NoticeEvent.CANCELLED:
        return maintnote.CANCELLED
    return maintnote.STATUSES[content.status]


def _facts(content: Content, language: str, zone: str) -> list[tuple[str, str]]:
    status = (
        MaintenanceStatus.CANCELLED if content.event is NoticeEvent.CANCELLED else content.status
    )
    values = {
        "reference": content.reference,
        "status": gettext(language, STATUS_LABELS[status]),
        "impact": gettext(language, CLASSIFICATION_LABELS[content.classification]),
        "type": gettext(language, TYPE_LABELS[content.type]),
        "start": moment(content.date_start, language, zone),
        "end": moment(content.date_end, language, zone),
    }
    return [(gettext(language, LABELS[key]), value) for key, value in values.items()]


def _service_line(service: ImpactedService, language: str) -> str:
    line = f"{service.reference} ({service.type_label})"
    if service.client_references:
        references = ", ".join(service.client_references)
        line += " · " + gettext(language, CLIENT_REFERENCES, references=references)
    return line


def maintnote_notice(content: Content, summary: str, description: str) -> maintnote.Notice:
    return maintnote.Notice(
        maintenance_id=content.maintenance_id,
        maintenance_reference=content.reference,
        summary=summary,
        description=description,
        date_start=content.date_start,
        date_end=content.date_end,
        sequence=content.sequence,
        changed_at=content.changed_at,
        account=content.account,
        classification=content.classification,
        status=_status(content),
        objects=[
            maintnote.ImpactedObject(service.reference, service.client_references)
            for service in content.services
        ],
    )


@dataclass(frozen=True)
class Rendered:
    """A notice as every recipient of one language and time zone reads it, but the greeting:
    written once for them all (an e-mail's parts cost more to write than to copy)."""

    language: str
    subject: str
    text: str
    html: str
    calendar: bytes


def render(content: Content, language: str, zone: str) -> Rendered:
    language = match_language(language)
    provider = get_settings().company_name
    intro = gettext(language, INTROS[content.event], company=content.company)
    facts = _facts(content, language, zone)
    if content.services:
        heading = gettext(language, IMPACTED, company=content.company, account=content.account)
    else:
        heading = gettext(language, NONE_IMPACTED, company=content.company)
    services = [_service_line(service, language) for service in content.services]
    link = get_settings().portal_public_url.rstrip("/") + MAINTENANCES.path
    see, machine = gettext(language, SEE_IN_PORTAL), gettext(language, MACHINE_READABLE)
    subject = gettext(
        language, SUBJECTS[content.event], reference=content.reference, name=content.name
    )
    width = max(len(label) for label, _ in facts)
    text_lines = [
        intro,
        "",
        content.name,
        *(f"{label + ':':<{width + 1}} {value}" for label, value in facts),
        "",
        heading,
        *(f"- {line}" for line in services),
        "",
        see,
        link,
        "",
        machine,
        "",
        "-- ",
        provider,
    ]
    description = "\n".join(
        [content.name, "", *(f"{label}: {value}" for label, value in facts), "", heading]
        + [f"- {line}" for line in services]
    )
    classification = gettext(language, CLASSIFICATION_LABELS[content.classification])
    summary = " · ".join((content.reference, classification, content.name))
    return Rendered(
        language=language,
        subject=f"[{provider}] {subject}",
        text="\n".join(text_lines) + "\n",
        html=_html(intro, content.name, facts, heading, services, see, link, machine, provider),
        calendar=maintnote.calendar(maintnote_notice(content, summary, description)),
    )


def compose(rendered: Rendered, recipient: Recipient) -> Message:
    """The e-mail of a rendered notice to one recipient. Built with the ``email`` package's
    compat32 classes, which write a notice in a tenth of the time of ``EmailMessage``'s header
    objects: thousands of notices leave at once (docs/decisions/maintenance-notices.md)."""
    settings = get_settings()
    language = rendered.language
    greeting = (
        gettext(language, GREETING, name=recipient.name)
        if recipient.name
        else gettext(language, GREETING_NO_NAME)
    )
    message = MIMEMultipart("mixed")
    # Folded into encoded words now: the outbox reads the mail back and writes it again, and
    # a single long encoded word would come back on a line of its own, read with a space.
    message["Subject"] = Header(rendered.subject, "utf-8", header_name="Subject").encode(
        maxlinelen=76
    )
    message["From"] = settings.mail_from
    message["To"] = formataddr((recipient.name, recipient.email), charset="utf-8")
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid(domain=maintnote.provider_domain())
    message["Auto-Submitted"] = "auto-generated"
    message["Content-Language"] = language
    # RFC 8058: mail programs offer the unsubscribe, and POST to the link without a session.
    message["List-Unsubscribe"] = f"<{recipient.unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    footer = [(gettext(language, STOP), recipient.unsubscribe)]
    if recipient.signs_in:
        page = settings.portal_public_url.rstrip("/") + NOTIFICATIONS.path
        footer.insert(0, (gettext(language, PREFERENCES), page))
    foot = "\n\n".join(f"{line}\n{link}" for line, link in footer)
    text = f"{greeting}\n\n{rendered.text}\n{foot}\n"
    html = rendered.html.replace(_GREETING_MARK, escape(greeting), 1).replace(
        _FOOTER_MARK,
        "\n".join(
            f'<p style="font-size: 13px; color: #60646c">{escape(line)} '
            f'<a href="{escape(link)}">{escape(link)}</a></p>'
            for line, link in footer
        ),
        1,
    )
    readable = MIMEMultipart("alternative")
    readable.attach(_text_part("plain", text))
    readable.attach(_text_part("html", html))
    message.attach(readable)
    # Bytes, base64: the calendar's CRLF line ends (RFC 5545) reach the reader as written.
    calendar = MIMEBase("text", "calendar", method="PUBLISH", charset="utf-8")
    calendar.set_payload(rendered.calendar)
    encoders.encode_base64(calendar)
    calendar.add_header("Content-Disposition", "attachment", filename="maintenance.ics")
    message.attach(calendar)
    return message


def _text_part(subtype: str, text: str) -> MIMENonMultipart:
    part = MIMENonMultipart("text", subtype)
    part.set_payload(text, _QUOTED_PRINTABLE)
    return part


def _html(
    intro: str,
    name: str,
    facts: list[tuple[str, str]],
    heading: str,
    services: list[str],
    see: str,
    link: str,
    machine: str,
    provider: str,
) -> str:
    rows = "\n".join(
        f'<tr><th style="text-align: left; padding: 4px 16px 4px 0; color: #60646c; '
        f'font-weight: normal">{escape(label)}</th><td style="padding: 4px 0">{escape(value)}'
        "</td></tr>"
        for label, value in facts
    )
    items = "\n".join(f"<li>{escape(line)}</li>" for line in services)
    listing = f"<ul>\n{items}\n</ul>" if services else ""
    return f"""<!DOCTYPE html>
<html>
<body style="font-family: Arial, Helvetica, sans-serif; color: #1c2024; line-height: 1.5">
<p>{_GREETING_MARK}</p>
<p>{escape(intro)}</p>
<h2 style="font-size: 18px; margin: 16px 0 8px">{escape(name)}</h2>
<table style="border-collapse: collapse">
{rows}
</table>
<p>{escape(heading)}</p>
{listing}
<p>{escape(see)} <a href="{escape(link)}">{escape(link)}</a></p>
<p style="font-size: 13px; color: #60646c">{escape(machine)}</p>
<p>{escape(provider)}</p>
{_FOOTER_MARK}
</body>
</html>
"""
