"""The e-mail a requester gets when the helpdesk answers their ticket or changes its status
(issue 49): in their language, with the reply's text, the new status and a link to the ticket,
threaded by mail programs under one root per ticket.

Whether a user gets such an e-mail at all is decided by ``ticket_mail_recipient`` alone (issue
50 will route it through each user's notification preferences). Nothing is sent for what a
customer writes: only the integration API's replies call ``send_ticket_update``.
"""

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from html import escape

from sqlmodel import Session, col, or_, select

from portal.i18n import N_, gettext, match_language
from portal.provider.platform.mail.messages import GREETING, button_html
from portal.provider.platform.mail.outbox import queue
from portal.provider.platform.models import (
    STATUS_LABELS,
    Ticket,
    TicketStatus,
    User,
    UserAuxiliaryCompany,
)
from portal.routes import ticket_path
from portal.settings import get_settings

SUBJECT = N_("[Ticket #{number}] {subject}")
REPLIED = N_("{author} answered your ticket #{number} “{subject}”:")
STATUS_ONLY = N_("The status of your ticket #{number} “{subject}” has changed.")
NEW_STATUS = N_("Its status is now: {status}.")
VIEW = N_("View the ticket")
NO_REPLY = N_("Answer in the portal: replies to this e-mail are not read.")


@dataclass(frozen=True)
class TicketUpdate:
    """What the helpdesk did: a reply (its author, Markdown and sanitised HTML) and/or a new
    status."""

    author: str | None = None
    text: str | None = None
    html: str | None = None
    status: TicketStatus | None = None


def ticket_mail_recipient(db: Session, ticket: Ticket) -> User | None:
    """The user to tell of a change to ``ticket``, or None: the requester, when they are an
    active user of the ticket's company (main or auxiliary) who may read tickets. The one place
    that decides whether a user gets a ticket e-mail."""
    if not ticket.requester_email:
        return None
    member = or_(
        col(User.company_id) == ticket.company_id,
        col(User.id).in_(
            select(UserAuxiliaryCompany.user_id).where(
                UserAuxiliaryCompany.company_id == ticket.company_id
            )
        ),
    )
    statement = select(User).where(
        col(User.email) == ticket.requester_email.strip().lower(), col(User.is_active), member
    )
    user = db.exec(statement).first()
    return user if user is not None and user.roles else None


def thread_root(ticket: Ticket) -> str:
    """The Message-ID every e-mail of the ticket refers to, the same for its whole life."""
    return f"<ticket-{ticket.id}@{get_settings().staff_mail_domain}>"


def send_ticket_update(db: Session, ticket: Ticket, update: TicketUpdate) -> bool:
    """Queue the e-mail of ``update`` to the ticket's requester, if they get one; the caller
    commits. Answers whether one was queued."""
    user = ticket_mail_recipient(db, ticket)
    if user is None:
        return False
    queue(db, compose_ticket_update(ticket, update, name=user.full_name, email=user.email,
                                    language=user.language))  # fmt: skip
    return True


def compose_ticket_update(
    ticket: Ticket, update: TicketUpdate, *, name: str, email: str, language: str
) -> EmailMessage:
    settings = get_settings()
    language = match_language(language)
    company = settings.company_name
    link = settings.portal_public_url.rstrip("/") + ticket_path(str(ticket.id))
    about = {"number": ticket.number, "subject": ticket.subject}
    greeting = gettext(language, GREETING, name=name)
    if update.text is not None:
        intro = gettext(language, REPLIED, author=update.author or company, **about)
    else:
        intro = gettext(language, STATUS_ONLY, **about)
    status = (
        gettext(language, NEW_STATUS, status=gettext(language, STATUS_LABELS[update.status]))
        if update.status is not None
        else None
    )
    view, outro = gettext(language, VIEW), gettext(language, NO_REPLY)

    message = EmailMessage()
    message["Subject"] = gettext(language, SUBJECT, **about)
    message["From"] = settings.mail_from
    message["To"] = formataddr((name, email))
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid(domain=settings.staff_mail_domain)
    root = thread_root(ticket)
    message["In-Reply-To"] = root
    message["References"] = root
    message["Auto-Submitted"] = "auto-generated"
    quoted = "\n".join(f"> {line}" for line in (update.text or "").splitlines())
    parts = [greeting, intro, quoted if update.text is not None else "", status or "", link, outro]
    text = "\n\n".join(part for part in parts if part) + f"\n\n-- \n{company}\n"
    message.set_content(text)
    reply_html = (
        f'<blockquote style="border-left: 3px solid #d9d9e0; margin: 0; padding-left: 12px">'
        f"{update.html or ''}</blockquote>"
        if update.text is not None
        else ""
    )
    html = f"""<!DOCTYPE html>
<html>
<body style="font-family: Arial, Helvetica, sans-serif; color: #1c2024; line-height: 1.5">
<p>{escape(greeting)}</p>
<p>{escape(intro)}</p>
{reply_html}
{f"<p>{escape(status)}</p>" if status else ""}
{button_html(view, link)}
<p style="font-size: 13px; color: #60646c">{escape(outro)}</p>
<p>{escape(company)}</p>
</body>
</html>
"""
    message.add_alternative(html, subtype="html")
    message["Content-Language"] = language
    return message
