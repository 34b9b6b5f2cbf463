"""The account e-mails, in the recipient's language, as plain text with an HTML alternative."""

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from html import escape
from urllib.parse import urlencode

from portal.i18n import N_, gettext, match_language
from portal.routes import CONFIRM_ACCOUNT, RESET_PASSWORD
from portal.settings import get_settings

GREETING = N_("Hello {name},")
_BUTTON_STYLE = (
    "display: inline-block; padding: 10px 18px; background: #0d74ce; color: #ffffff; "
    "text-decoration: none; border-radius: 4px"
)


@dataclass(frozen=True)
class Template:
    """The message ids of one kind of e-mail."""

    subject: str
    intro: str
    action: str
    outro: str


CONFIRMATION = Template(
    subject=N_("Your account on the {company} customer portal"),
    intro=N_(
        "An account has been created for you on the {company} customer portal. To confirm it, "
        "choose your password within 7 days:"
    ),
    action=N_("Confirm my account"),
    outro=N_("If you did not expect this message, you can ignore it."),
)
PASSWORD_RESET = Template(
    subject=N_("Reset your password"),
    intro=N_(
        "A new password was requested for your account on the {company} customer portal. To "
        "choose it, follow this link within one hour:"
    ),
    action=N_("Choose a new password"),
    outro=N_("If you did not ask for it, ignore this message: your password stays unchanged."),
)


NOTICE_ADDRESS = Template(
    subject=N_("Confirm this address for the {company} maintenance notices"),
    intro=N_(
        "A user manager of your company asked the {company} customer portal to send your "
        "company's maintenance notices to this address. Nothing will be sent here until you "
        "confirm it:"
    ),
    action=N_("Confirm this address"),
    outro=N_("If you did not expect this message, ignore it: nothing will be sent here."),
)


def portal_link(path: str, token: str) -> str:
    base = get_settings().portal_public_url.rstrip("/")
    return f"{base}{path}?{urlencode({'token': token})}"


def confirmation_link(token: str) -> str:
    return portal_link(CONFIRM_ACCOUNT.path, token)


def reset_link(token: str) -> str:
    return portal_link(RESET_PASSWORD.path, token)


def button_html(action: str, link: str) -> str:
    """The link as a button, and spelled out under it for mail programs that hide buttons."""
    return (
        f'<p><a href="{escape(link)}" style="{_BUTTON_STYLE}">{escape(action)}</a></p>\n'
        f'<p style="font-size: 13px; color: #60646c">{escape(link)}</p>'
    )


def _html(greeting: str, intro: str, action: str, link: str, outro: str, company: str) -> str:
    return f"""<!DOCTYPE html>
<html>
<body style="font-family: Arial, Helvetica, sans-serif; color: #1c2024; line-height: 1.5">
<p>{escape(greeting)}</p>
<p>{escape(intro)}</p>
{button_html(action, link)}
<p>{escape(outro)}</p>
<p>{escape(company)}</p>
</body>
</html>
"""


def compose(
    template: Template, *, name: str, email: str, language: str, link: str, **fields: str
) -> EmailMessage:
    """``template`` to ``name`` in ``language``, with ``link`` as its button; ``fields`` fill
    the placeholders of its intro beside ``{company}``."""
    settings = get_settings()
    language = match_language(language)
    company = settings.company_name
    greeting = gettext(language, GREETING, name=name)
    intro = gettext(language, template.intro, company=company, **fields)
    action = gettext(language, template.action)
    outro = gettext(language, template.outro)

    message = EmailMessage()
    message["Subject"] = gettext(language, template.subject, company=company)
    message["From"] = settings.mail_from
    message["To"] = formataddr((name, email))
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid(domain=settings.staff_mail_domain)
    message["Auto-Submitted"] = "auto-generated"
    text = f"{greeting}\n\n{intro}\n\n{link}\n\n{outro}\n\n-- \n{company}\n"
    message.set_content(text)
    message.add_alternative(_html(greeting, intro, action, link, outro, company), subtype="html")
    # After the parts exist: making the message multipart moves Content-* headers into them.
    message["Content-Language"] = language
    return message
