"""The e-mail a ticket's company's users get when the helpdesk answers the ticket or changes
its status (issue 49): in each one's language, with the reply's text, the new status and a link
to the ticket, threaded by mail programs under one root per ticket, with a one-click unsubscribe
link (RFC 8058) as the maintenance notices have.

Who gets one is decided by ``ticket_mail_recipients`` alone, from each user's ticket notices
preference (issue 50). Nothing is sent for what a customer writes: only the integration API's
replies call ``send_ticket_update``.
"""

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from html import escape

from sqlmodel import Session, col, or_, select

from portal.i18n import N_, gettext, match_language
from portal.permissions import VIEW_TICKETS_MENU, allows, honoured_roles, rules_for
from portal.provider.platform.mail.messages import GREETING, button_html
from portal.provider.platform.mail.notice_message import PREFERENCES
from portal.provider.platform.mail.outbox import queue
from portal.provider.platform.models import (
    STATUS_LABELS,
    Ticket,
    TicketNotices,
    TicketStatus,
    User,
    UserAccessLimit,
    UserAuxiliaryCompany,
    UserServiceGrant,
)
from portal.provider.platform.notice_links import ticket_unsubscribe_link
from portal.routes import NOTIFICATIONS, ticket_path
from portal.settings import get_settings

SUBJECT = N_("[Ticket #{number}] {subject}")
REPLIED = N_("{author} answered your ticket #{number} “{subject}”:")
STATUS_ONLY = N_("The status of your ticket #{number} “{subject}” has changed.")
# To a user of the ticket's company who did not open it and takes every ticket's updates.
REPLIED_OTHER = N_("{author} answered ticket #{number} “{subject}”:")
STATUS_ONLY_OTHER = N_("The status of ticket #{number} “{subject}” has changed.")
NEW_STATUS = N_("Its status is now: {status}.")
VIEW = N_("View the ticket")
NO_REPLY = N_("Answer in the portal: replies to this e-mail are not read.")
STOP = N_("To stop receiving e-mails about tickets at this address, follow this link:")


@dataclass(frozen=True)
class TicketUpdate:
    """What the helpdesk did: a reply (its author, Markdown and sanitised HTML) and/or a new
    status."""

    author: str | None = None
    text: str | None = None
    html: str | None = None
    status: TicketStatus | None = None


def ticket_mail_recipients(db: Session, ticket: Ticket) -> list[User]:
    """The users to tell of a change to ``ticket``: the active users of the ticket's company
    (main or auxiliary) who may read tickets, the requester if their ticket notices are
    ``opened`` or ``all``, anyone else if theirs are ``all``. The one place that decides who
    gets a ticket e-mail."""
    member = or_(
        col(User.company_id) == ticket.company_id,
        col(User.id).in_(
            select(UserAuxiliaryCompany.user_id).where(
                UserAuxiliaryCompany.company_id == ticket.company_id
            )
        ),
    )
    requester = (ticket.requester_email or "").strip().lower()
    # A user limited to some services of the company (issue 53) hears of the tickets they see:
    # about one of their services, or opened by them.
    limited = select(UserAccessLimit.user_id).where(UserAccessLimit.company_id == ticket.company_id)
    keeping = select(UserServiceGrant.user_id).where(
        col(UserServiceGrant.service_id) == ticket.service_id
    )
    sees = or_(
        col(User.id).not_in(limited), col(User.email) == requester, col(User.id).in_(keeping)
    )
    statement = (
        select(User)
        .where(col(User.is_active), member, col(User.ticket_notices) != TicketNotices.NONE, sees)
        .order_by(col(User.email))
    )
    domain = get_settings().staff_mail_domain
    return [
        user
        for user in db.exec(statement)
        if (user.ticket_notices is TicketNotices.ALL or user.email == requester)
        and allows(rules_for(honoured_roles(user.roles, user.email, domain)), VIEW_TICKETS_MENU)
    ]


def thread_root(ticket: Ticket) -> str:
    """The Message-ID every e-mail of the ticket refers to, the same for its whole life."""
    return f"<ticket-{ticket.id}@{get_settings().staff_mail_domain}>"


def send_ticket_update(db: Session, ticket: Ticket, update: TicketUpdate) -> int:
    """Queue the e-mail of ``update`` to each user who gets one; the caller commits. Answers
    how many were queued."""
    requester = (ticket.requester_email or "").strip().lower()
    users = ticket_mail_recipients(db, ticket)
    for user in users:
        queue(db, compose_ticket_update(ticket, update, name=user.full_name, email=user.email,
                                        language=user.language,
                                        requester=user.email == requester,
                                        unsubscribe=ticket_unsubscribe_link(user.id)))  # fmt: skip
    return len(users)


def compose_ticket_update(
    ticket: Ticket,
    update: TicketUpdate,
    *,
    name: str,
    email: str,
    language: str,
    requester: bool,
    unsubscribe: str,
) -> EmailMessage:
    settings = get_settings()
    language = match_language(language)
    company = settings.company_name
    link = settings.portal_public_url.rstrip("/") + ticket_path(str(ticket.id))
    about = {"number": ticket.number, "subject": ticket.subject}
    greeting = gettext(language, GREETING, name=name)
    if update.text is not None:
        replied = REPLIED if requester else REPLIED_OTHER
        intro = gettext(language, replied, author=update.author or company, **about)
    else:
        intro = gettext(language, STATUS_ONLY if requester else STATUS_ONLY_OTHER, **about)
    status = (
        gettext(language, NEW_STATUS, status=gettext(language, STATUS_LABELS[update.status]))
        if update.status is not None
        else None
    )
    view, outro = gettext(language, VIEW), gettext(language, NO_REPLY)
    stop = gettext(language, STOP)
    preferences = gettext(language, PREFERENCES)
    page = settings.portal_public_url.rstrip("/") + NOTIFICATIONS.path

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
    # RFC 8058: mail programs offer the unsubscribe, and POST to the link without a session.
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    quoted = "\n".join(f"> {line}" for line in (update.text or "").splitlines())
    parts = [greeting, intro, quoted if update.text is not None else "", status or "", link, outro]
    foot = f"{company}\n{preferences}\n{page}\n\n{stop}\n{unsubscribe}"
    text = "\n\n".join(part for part in parts if part) + f"\n\n-- \n{foot}\n"
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
<p style="font-size: 13px; color: #60646c">{escape(preferences)}
<a href="{escape(page)}">{escape(page)}</a></p>
<p style="font-size: 13px; color: #60646c">{escape(stop)}
<a href="{escape(unsubscribe)}">{escape(unsubscribe)}</a></p>
</body>
</html>
"""
    message.add_alternative(html, subtype="html")
    message["Content-Language"] = language
    return message
