"""The e-mail a company's user managers get when one of its webhook endpoints is disabled for
failing through the whole retry window (issue 51, item 4), in each one's language."""

from sqlalchemy.orm import Session
from sqlmodel import col, or_, select

from portal.i18n import N_
from portal.permissions import MANAGE_WEBHOOKS, allows, honoured_roles, rules_for
from portal.provider.platform.mail.messages import Template, compose
from portal.provider.platform.mail.outbox import queue
from portal.provider.platform.models import User, UserAuxiliaryCompany, WebhookEndpoint
from portal.routes import WEBHOOKS
from portal.settings import get_settings

ENDPOINT_DISABLED = Template(
    subject=N_("A webhook endpoint of your company was disabled"),
    intro=N_(
        "The {company} customer portal could not deliver events to your company's webhook "
        "endpoint {url} for {hours} hours, and has disabled it. Once the receiver answers "
        "again, enable the endpoint on the Webhooks page: it receives the events that follow."
    ),
    action=N_("Open the Webhooks page"),
    outro=N_("You receive this e-mail as a user manager of your company."),
)


def webhook_managers(db: Session, endpoint: WebhookEndpoint) -> list[User]:
    """The active users of the endpoint's company (main or auxiliary) who manage its
    webhooks."""
    member = or_(
        col(User.company_id) == endpoint.company_id,
        col(User.id).in_(
            select(UserAuxiliaryCompany.user_id).where(
                UserAuxiliaryCompany.company_id == endpoint.company_id
            )
        ),
    )
    domain = get_settings().staff_mail_domain
    users = db.scalars(select(User).where(col(User.is_active), member).order_by(col(User.email)))
    return [
        user
        for user in users
        if allows(rules_for(honoured_roles(user.roles, user.email, domain)), MANAGE_WEBHOOKS)
    ]


def send_endpoint_disabled(db: Session, endpoint: WebhookEndpoint) -> int:
    """Queue the e-mail to each of the endpoint's managers; the caller commits."""
    settings = get_settings()
    link = settings.portal_public_url.rstrip("/") + WEBHOOKS.path
    users = webhook_managers(db, endpoint)
    for user in users:
        queue(
            db,
            compose(
                ENDPOINT_DISABLED,
                name=user.full_name,
                email=user.email,
                language=user.language,
                link=link,
                url=endpoint.url,
                hours=f"{settings.webhook_retry_window_hours:g}",
            ),
        )
    return len(users)
