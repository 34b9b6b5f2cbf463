"""A company's single sign-on, set by an administrator (issue 52): the company chosen by name
(kept in the address as ``?company=<uuid>``), then its identity provider, client, covered
domains, whether passwords stay allowed and whether unknown users are created with default
roles. The client secret is written, never read back."""

import reflex as rx
from pydantic import BaseModel

from portal import routes
from portal.client import ValidationFailed
from portal.client.models import SsoSettings
from portal.i18n import N_, gettext
from portal.permissions import CLIENT_ROLES
from portal.settings import get_settings
from portal.state.failures import reports_failures
from portal.state.session import SessionState

COMPANY_QUERY = "company"
SAVED = N_("The single sign-on settings are saved.")
REMOVED = N_("Single sign-on is removed: the company's users log in with a password.")


class CompanyOption(BaseModel):
    id: str = ""
    name: str = ""


def domains_of(text: str) -> list[str]:
    """The domains typed, one per line or separated by commas or spaces."""
    return [part for part in text.replace(",", " ").split() if part]


class SsoSettingsState(SessionState):
    company_search: str = ""
    company_options: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    company_id: str = ""
    company_name: str = ""
    configured: bool = False
    has_secret: bool = False
    issuer: str = ""
    client_id: str = ""
    client_secret: str = ""
    domains: str = ""
    password_allowed: bool = True
    create_users: bool = False
    default_roles: rx.Field[list[str]] = rx.field(default_factory=list)
    # What the provider refused, by field.
    issuer_error: str = ""
    client_id_error: str = ""
    client_secret_error: str = ""
    domains_error: str = ""
    roles_error: str = ""
    notice: str = ""
    busy: bool = False
    confirming_removal: bool = False

    @rx.var
    def callback_url(self) -> str:
        """What the identity provider must know as the portal's redirect address."""
        return get_settings().portal_public_url.rstrip("/") + routes.SSO_CALLBACK_PATH

    @rx.event
    def set_issuer(self, value: str):
        self.issuer = value

    @rx.event
    def set_client_id(self, value: str):
        self.client_id = value

    @rx.event
    def set_client_secret(self, value: str):
        self.client_secret = value

    @rx.event
    def set_domains(self, value: str):
        self.domains = value

    @rx.event
    def set_password_allowed(self, value: bool):
        self.password_allowed = value

    @rx.event
    def set_create_users(self, value: bool):
        self.create_users = value

    @rx.event
    def toggle_role(self, role: str, chosen: bool):
        if role not in CLIENT_ROLES:
            return
        kept = [held for held in self.default_roles if held != role]
        self.default_roles = [
            known for known in CLIENT_ROLES if known in kept or (chosen and known == role)
        ]

    @rx.event
    def ask_removal(self, value: bool):
        self.confirming_removal = value

    @rx.event
    @reports_failures
    async def load(self):
        self.notice, self.company_options = "", []
        self._errors({})
        if not self._page_open():
            return
        company_id = self.router.url.query_parameters.get(COMPANY_QUERY, "")
        if not company_id:
            self.company_id = self.company_name = ""
            return
        client = await self.provider()
        page = await client.companies.list(uuids=[company_id], items_per_page=1)
        if not page.items:
            self.company_id = self.company_name = ""
            return
        self.company_id, self.company_name = page.items[0].id or "", page.items[0].name or ""
        self._show(await client.companies.sso(self.company_id))

    def _errors(self, found: dict[str, list[str]]) -> None:
        """The provider's violations under their fields (camelCase property paths)."""
        self.issuer_error = " ".join(found.get("issuer", []))
        self.client_id_error = " ".join(found.get("clientId", []))
        self.client_secret_error = " ".join(found.get("clientSecret", []))
        self.domains_error = " ".join(found.get("domains", []))
        self.roles_error = " ".join(found.get("defaultRoles", []))

    def _show(self, settings: SsoSettings) -> None:
        self.configured, self.has_secret = settings.configured, settings.has_client_secret
        self.issuer, self.client_id, self.client_secret = settings.issuer, settings.client_id, ""
        self.domains = "\n".join(settings.domains)
        self.password_allowed, self.create_users = settings.password_allowed, settings.create_users
        self.default_roles = list(settings.default_roles)

    @rx.event
    @reports_failures
    async def search_companies(self, text: str):
        self.company_search = text
        if len(text.strip()) < 2:
            self.company_options = []
            return
        page = await (await self.provider()).companies.list(name=text.strip(), items_per_page=8)
        self.company_options = [CompanyOption(id=c.id or "", name=c.name or "") for c in page.items]

    @rx.event
    def choose_company(self, company_id: str):
        self.company_search, self.company_options = "", []
        return rx.redirect(f"{routes.SSO_SETTINGS.path}?{COMPANY_QUERY}={company_id}")

    @rx.event
    @reports_failures(shown=True)
    async def save(self, _form: dict):
        if self.busy or not self.company_id:
            return
        self.busy, self.notice = True, ""
        self._errors({})
        yield
        body = {
            "issuer": self.issuer.strip(),
            "clientId": self.client_id.strip(),
            "clientSecret": self.client_secret or None,
            "domains": domains_of(self.domains),
            "passwordAllowed": self.password_allowed,
            "createUsers": self.create_users,
            "defaultRoles": list(self.default_roles),
        }
        try:
            saved = await (await self.provider()).companies.save_sso(self.company_id, body)
        except ValidationFailed as error:
            self._errors(error.by_field())
            return
        finally:
            self.busy = False
        self._show(saved)
        self.notice = gettext(self.current_language, SAVED)

    @rx.event
    @reports_failures(shown=True)
    async def remove(self):
        self.confirming_removal = False
        if not self.company_id:
            return
        await (await self.provider()).companies.remove_sso(self.company_id)
        self._show(SsoSettings())
        self.notice = gettext(self.current_language, REMOVED)
