"""An audit entry as the table shows it: the moment in the reader's language, the action's
label, who acted (and who was behind them), about whom, from where, and the other facts."""

import unicodedata

from pydantic import BaseModel

from portal.client.models import AuditEntry
from portal.i18n import N_, format_moment, format_number, gettext, ngettext

# Characters that change how the text around them shows without showing themselves: controls
# (C0, C1), format characters (the bidirectional embeddings, overrides and isolates, the marks,
# zero-width characters) and the line and paragraph separators.
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})

# The actions the provider records, with their labels; the filter offers them in this order.
ACTIONS: dict[str, str] = {
    "login": N_("Successful login"),
    "login_second_factor_due": N_("Password accepted, second factor awaited"),
    "login_failed": N_("Failed login"),
    "login_throttled": N_("Login refused (too many attempts)"),
    "login_sso_refused": N_("Single sign-on refused"),
    "login_password_refused": N_("Password refused (single sign-on only)"),
    # Issue 52: passkeys, recovery codes and a company's second-factor policy.
    "passkey_failed": N_("Passkey refused"),
    "passkey_registered": N_("Passkey added"),
    "passkey_removed": N_("Passkey deleted"),
    "recovery_codes_regenerated": N_("Recovery codes renewed"),
    "company_second_factor_policy": N_("Company's second-factor policy changed"),
    "second_factor_enrolled": N_("Authenticator app set up"),
    "second_factor_failed": N_("Second-factor code refused"),
    "second_factor_reset": N_("Two-step login reset by an administrator"),
    "password_reset_requested": N_("Password reset requested"),
    "password_reset_throttled": N_("Password reset refused (too many requests)"),
    "impersonation_started": N_("Impersonation started"),
    "impersonation_exited": N_("Impersonation ended"),
    "impersonation_refused": N_("Impersonation refused"),
    "user_created": N_("User created"),
    "user_updated": N_("User changed"),
    "user_deleted": N_("User deleted"),
    "user_access_changed": N_("User's access changed"),
    "sso_settings_changed": N_("Single sign-on set"),
    "sso_settings_removed": N_("Single sign-on removed"),
    "service.client_references": N_("Client references changed"),
    "service.client_references.import": N_("Client references imported"),
    "integration.file": N_("Integration file imported"),
    # One per kind of the integration API's batches (portal.provider.integration.kinds).
    "integration.companies": N_("Companies sent by the integration API"),
    "integration.users": N_("Users sent by the integration API"),
    "integration.services": N_("Services sent by the integration API"),
    "integration.invoices": N_("Invoices sent by the integration API"),
    "integration.tickets": N_("Tickets sent by the integration API"),
    "integration.ticket_replies": N_("Ticket replies sent by the integration API"),
    "integration.maintenances": N_("Maintenances sent by the integration API"),
    "integration.sensors": N_("Sensors sent by the integration API"),
    "integration.samples": N_("Sensor samples sent by the integration API"),
    # One per kind of the command-line importer (python -m portal.provider import).
    "import.companies": N_("Companies imported from a file"),
    "import.users": N_("Users imported from a file"),
    "import.services": N_("Services imported from a file"),
    "import.invoices": N_("Invoices imported from a file"),
    "import.tickets": N_("Tickets imported from a file"),
    "import.ticket_replies": N_("Ticket replies imported from a file"),
    "import.maintenances": N_("Maintenances imported from a file"),
    "import.sensors": N_("Sensors imported from a file"),
    "import.samples": N_("Sensor samples imported from a file"),
    "token.create": N_("API token created"),
    "token.revoke": N_("API token revoked"),
    "token.request": N_("Integration API write"),
    "webhook.create": N_("Webhook endpoint added"),
    "webhook.change": N_("Webhook endpoint changed"),
    "webhook.rotate": N_("Webhook secret renewed"),
    "webhook.delete": N_("Webhook endpoint deleted"),
    "calendar_feed.create": N_("Calendar link made"),
    "calendar_feed.revoke": N_("Calendar link ended"),
    "ticket.open": N_("Ticket opened"),
    "ticket.close": N_("Ticket closed"),
    "ticket.reopen": N_("Ticket reopened"),
}

# The facts an entry's details hold, by the key the provider writes them under
# (tests/unit/test_audit_details.py reads every key the provider writes).
DETAILS: dict[str, str] = {
    "company": N_("Company"),
    "company_id": N_("Company id"),
    "create_users": N_("Creates users"),
    "created": N_("New"),
    "domains": N_("Domains"),
    "fields": N_("Fields"),
    "file": N_("File"),
    "impersonated_email": N_("Impersonated user"),
    "imported": N_("Lines imported"),
    "invoice": N_("Invoice reference"),
    "issuer": N_("Identity provider"),
    "kind": N_("Kind"),
    "limited": N_("Limited to some services"),
    "limited_before": N_("Limited before"),
    "method": N_("Method"),
    "name": N_("Name"),
    "passkey": N_("Passkey"),
    "password_allowed": N_("Password allowed"),
    "path": N_("Path"),
    "reason": N_("Reason"),
    "received": N_("Received"),
    "reference": N_("Service reference"),
    "replaced": N_("Replaced"),
    "required": N_("Required"),
    "scopes": N_("Scopes"),
    "second_factor": N_("Second factor"),
    "service": N_("Service reference"),
    "services": N_("Services granted"),
    "services_before": N_("Services granted before"),
    "status": N_("Status"),
    "target": N_("User asked for"),
    "ticket": N_("Ticket reference"),
    "token_id": N_("Token id"),
    "token_name": N_("Token name"),
    "unchanged": N_("Unchanged"),
    "updated": N_("Changed"),
    "url": N_("Address"),
    "via": N_("Through"),
    "webhook_id": N_("Webhook id"),
}


# The codes the provider writes as a fact's value, by the fact's key: how a login was made,
# what it went through, why a request was refused or a calendar link ended, what a file did
# (tests/unit/test_audit_details.py reads the codes written literally where entries are written).
_LOGIN_METHODS = {
    "password": N_("password"),
    "passkey": N_("passkey"),
    "sso": N_("single sign-on"),
    "totp": N_("authenticator app code"),
    "recovery_code": N_("recovery code"),
}
VALUES: dict[str, dict[str, str]] = {
    "method": _LOGIN_METHODS,
    "second_factor": _LOGIN_METHODS,
    "via": {"sso": _LOGIN_METHODS["sso"], "cli": N_("command line")},
    "reason": {
        "no_session": N_("no session of their own"),
        "chain": N_("already impersonating someone"),
        "not_allowed": N_("not allowed for this user"),
        "unknown_user": N_("no such user"),
        "self": N_("themselves"),
        "target": N_("not this user"),
        "not_impersonating": N_("not impersonating anyone"),
        "user": N_("ended by the user"),
        "password": N_("password changed"),
        "access": N_("roles or companies changed"),
    },
    "status": {"created": N_("new"), "updated": N_("replaced")},
}
# A fact that is true or false, as the provider writes it (Python's str of a bool).
YES_NO = {"True": N_("yes"), "False": N_("no")}

# A fact of the details, "Token name: Helpdesk" (the French colon takes its space).
DETAIL = N_("{name}: {value}")


def _detail(key: str, value: str, language: str) -> str:
    label = DETAILS.get(key)
    code = VALUES.get(key, {}).get(value) or YES_NO.get(value)
    shown = gettext(language, code) if code else value
    return gettext(language, DETAIL, name=gettext(language, label) if label else key, value=shown)


def visible(text: str) -> str:
    """``text`` with every invisible character written as its code point (``<U+202E>``).

    What the log shows was typed by anyone (the e-mail of a failed login): a right-to-left
    override would show ``moc.liam@eve`` as ``eve@mail.com``, a line break would forge a second
    line (issue 47, item 17). Written out rather than dropped, so the reader sees the trick."""
    return "".join(
        f"<U+{ord(char):04X}>" if unicodedata.category(char) in _INVISIBLE else char
        for char in text
    )


class AuditRow(BaseModel):
    id: str = ""
    at: str = ""
    action: str = ""
    actor: str = ""
    impersonator: str = ""
    subject: str = ""
    address: str = ""
    detail: str = ""
    # "9 990 attempts" for the entry that counts a flood of refusals; empty for one event.
    times: str = ""

    @classmethod
    def of(cls, entry: AuditEntry, language: str, zone: str) -> "AuditRow":
        label = ACTIONS.get(entry.action)
        details = " · ".join(
            _detail(key, value, language) for key, value in sorted(entry.detail.items())
        )
        return cls(
            id=entry.id,
            at=format_moment(entry.at, language, zone),
            action=gettext(language, label) if label else visible(entry.action),
            actor=visible(entry.actor_email or ""),
            impersonator=visible(entry.impersonator_email or ""),
            subject=visible(entry.subject_email or ""),
            address=visible(entry.client_address or ""),
            detail=visible(details),
            times=_times(entry.count, language),
        )


def _times(count: int, language: str) -> str:
    if count <= 1:
        return ""
    shown = format_number(count, language)
    return ngettext(language, "{shown} attempt", "{shown} attempts", count, shown=shown)
