"""An audit entry as the table shows it: the moment in the reader's language, the action's
label, who acted (and who was behind them), about whom, from where, and the other facts."""

from pydantic import BaseModel

from portal.client.models import AuditEntry
from portal.i18n import N_, format_moment, gettext

# The actions the provider records, with their labels; the filter offers them in this order.
ACTIONS: dict[str, str] = {
    "login": N_("Successful login"),
    "login_failed": N_("Failed login"),
    "login_throttled": N_("Login refused (too many attempts)"),
    "password_reset_requested": N_("Password reset requested"),
    "password_reset_throttled": N_("Password reset refused (too many requests)"),
    "impersonation_started": N_("Impersonation started"),
    "impersonation_exited": N_("Impersonation ended"),
    "impersonation_refused": N_("Impersonation refused"),
    "user_created": N_("User created"),
    "user_updated": N_("User changed"),
    "user_deleted": N_("User deleted"),
    "service.client_references": N_("Client references imported"),
    "integration.file": N_("Integration file imported"),
    "token.create": N_("API token created"),
    "token.revoke": N_("API token revoked"),
    "token.request": N_("Integration API write"),
    "calendar_feed.create": N_("Calendar link made"),
    "calendar_feed.revoke": N_("Calendar link ended"),
}


class AuditRow(BaseModel):
    id: str = ""
    at: str = ""
    action: str = ""
    actor: str = ""
    impersonator: str = ""
    subject: str = ""
    address: str = ""
    detail: str = ""

    @classmethod
    def of(cls, entry: AuditEntry, language: str, zone: str) -> "AuditRow":
        label = ACTIONS.get(entry.action)
        return cls(
            id=entry.id,
            at=format_moment(entry.at, language, zone),
            action=gettext(language, label) if label else entry.action,
            actor=entry.actor_email or "",
            impersonator=entry.impersonator_email or "",
            subject=entry.subject_email or "",
            address=entry.client_address or "",
            detail=" · ".join(f"{key}: {value}" for key, value in sorted(entry.detail.items())),
        )
