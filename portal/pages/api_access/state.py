"""One's personal API tokens (issue 51): the list, the creation form, the new token shown once
with its copy button, revocation, and how to call the API: its address, its reference and
``curl`` examples with the user's own services."""

from datetime import UTC, datetime, timedelta

import reflex as rx
from pydantic import BaseModel

from portal.client import ValidationFailed
from portal.client.models import PersonalToken, Service
from portal.components.confirm_dialog import Confirmation
from portal.connections import backend_url
from portal.i18n import N_, format_moment, gettext
from portal.permissions import TOKEN_SCOPES
from portal.settings import get_settings
from portal.state.failures import reports_failures
from portal.state.session import SessionState

# The scopes as the page names them.
SCOPE_LABELS = {
    "services": N_("Services"),
    "invoices": N_("Invoices"),
    "tickets": N_("Tickets"),
    "maintenances": N_("Maintenances"),
    "monitoring": N_("Monitoring"),
}
STATE_LABELS = {"active": N_("Active"), "expired": N_("Expired"), "revoked": N_("Revoked")}
# The lifetimes offered, in days; a token lives a year at most.
EXPIRY_DAYS = ("30", "90", "180", "365")
DEFAULT_EXPIRY = "90"


# The customers' API reference, under the provider's address (``portal.provider.docs_page``).
CUSTOMER_REFERENCE_PATH = "/customer-api"
# The services the examples name.
EXAMPLE_SERVICES = 2
_BEARER = '-H "Authorization: Bearer $PATCHBAY_TOKEN"'


def api_base_url() -> str:
    """The provider's address as a tool outside the portal calls it: the provider's own, or
    the embedded one under the portal's public address."""
    settings = get_settings()
    if settings.provider_api_url:
        return settings.provider_api_url.rstrip("/")
    url = backend_url("/provider")
    return settings.portal_public_url.rstrip("/") + url if url.startswith("/") else url


def curl_examples(base: str, services: list[Service]) -> list[str]:
    """Commands to paste into a shell once ``PATCHBAY_TOKEN`` holds a token: the user's own
    services by reference and by id, then the maintenances."""
    commands = ["export PATCHBAY_TOKEN='pbt_…'", f'curl {_BEARER} "{base}/api/services"']
    for service in services[:EXAMPLE_SERVICES]:
        commands.append(f'curl {_BEARER} "{base}/api/services?search={service.reference}"')
    if services:
        commands.append(f'curl {_BEARER} "{base}/api/services/{services[0].id}"')
    commands.append(f'curl {_BEARER} "{base}/api/maintenances"')
    return commands


class TokenRow(BaseModel):
    id: str = ""
    name: str = ""
    scopes: str = ""
    created: str = ""
    last_used: str = ""
    expires: str = ""
    state: str = ""
    state_label: str = ""

    @classmethod
    def of(cls, token: PersonalToken, language: str, zone: str) -> "TokenRow":
        return cls(
            id=token.id,
            name=token.name,
            scopes=", ".join(
                gettext(language, SCOPE_LABELS[scope])
                for scope in token.scopes
                if scope in SCOPE_LABELS
            ),
            created=format_moment(token.created_at, language, zone),
            last_used=format_moment(token.last_used_at, language, zone),
            expires=format_moment(token.expires_at, language, zone),
            state=token.state,
            state_label=gettext(language, STATE_LABELS.get(token.state, token.state)),
        )


class ApiAccessState(Confirmation, SessionState):
    loaded: bool = False
    rows: rx.Field[list[TokenRow]] = rx.field(default_factory=list)
    name: str = ""
    scopes: rx.Field[list[str]] = rx.field(default_factory=list)
    expiry_days: str = DEFAULT_EXPIRY
    name_error: str = ""
    scopes_error: str = ""
    busy: bool = False
    # The token just made, shown this once: the provider keeps only its hash.
    new_token: str = ""
    copied: bool = False
    # How to call the API.
    api_base: str = ""
    examples: rx.Field[list[str]] = rx.field(default_factory=list)

    @rx.var
    def reference_url(self) -> str:
        return self.api_base + CUSTOMER_REFERENCE_PATH

    @rx.event
    def set_name(self, value: str):
        self.name = value

    @rx.event
    def set_expiry_days(self, value: str):
        if value in EXPIRY_DAYS:
            self.expiry_days = value

    @rx.event
    def toggle_scope(self, scope: str, chosen: bool):
        if scope not in TOKEN_SCOPES:
            return
        kept = [held for held in self.scopes if held != scope]
        self.scopes = [
            known for known in TOKEN_SCOPES if known in kept or (chosen and known == scope)
        ]

    @rx.event
    @reports_failures
    async def load(self):
        self.new_token, self.copied = "", False
        if not self._page_open():
            return
        await self._refresh()
        self.loaded = True
        client = await self.provider()
        services = (await client.services.list(items_per_page=EXAMPLE_SERVICES)).items
        self.api_base = api_base_url()
        self.examples = curl_examples(self.api_base, services)

    async def _refresh(self) -> None:
        page = await (await self.provider()).personal_tokens.list()
        language, zone = self.current_language, self.time_zone
        self.rows = [TokenRow.of(token, language, zone) for token in page.items]

    @rx.event
    @reports_failures(shown=True)
    async def create(self, _form: dict):
        if self.busy:
            return
        language = self.current_language
        self.name_error = "" if self.name.strip() else gettext(language, N_("Please give a name."))
        self.scopes_error = (
            "" if self.scopes else gettext(language, N_("Please choose what the token reads."))
        )
        if self.name_error or self.scopes_error:
            return
        self.busy = True
        yield
        try:
            client = await self.provider()
            expires = datetime.now(UTC) + timedelta(days=int(self.expiry_days))
            made = await client.personal_tokens.create(self.name.strip(), self.scopes, expires)
        except ValidationFailed as error:
            fields = error.by_field()
            self.name_error = " ".join(fields.pop("name", []))
            self.scopes_error = " ".join(
                message for messages in fields.values() for message in messages
            )
            return
        finally:
            self.busy = False
        self.new_token, self.copied = made.token, False
        self.name, self.scopes, self.expiry_days = "", [], DEFAULT_EXPIRY
        await self._refresh()

    @rx.event
    def copy(self):
        self.copied = True
        return rx.set_clipboard(self.new_token)

    @rx.event
    def dismiss_token(self):
        """The user has copied the token: it is not shown again."""
        self.new_token, self.copied = "", False

    @rx.event
    @reports_failures(shown=True)
    async def revoke(self):
        token_id = self.confirming_id
        if not token_id or self.busy:
            return
        self.busy = True
        yield
        try:
            await (await self.provider()).personal_tokens.revoke(token_id)
            await self._refresh()
        finally:
            self.busy = False
            self.forget_confirmation()
