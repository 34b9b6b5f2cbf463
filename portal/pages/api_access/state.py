"""One's personal API tokens (issue 51): the list, the creation form, the new token shown once
with its copy button, and revocation."""

from datetime import UTC, datetime, timedelta

import reflex as rx
from pydantic import BaseModel

from portal.client import ValidationFailed
from portal.client.models import PersonalToken
from portal.i18n import N_, format_moment, gettext
from portal.permissions import TOKEN_SCOPES
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


class ApiAccessState(SessionState):
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
    # The token whose revocation waits for confirmation.
    revoking_id: str = ""
    revoking_name: str = ""

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
    def ask_revoke(self, token_id: str, name: str):
        self.revoking_id, self.revoking_name = token_id, name

    @rx.event
    def cancel_revoke(self):
        self.revoking_id = self.revoking_name = ""

    @rx.event
    @reports_failures(shown=True)
    async def revoke(self):
        if not self.revoking_id or self.busy:
            return
        self.busy = True
        yield
        try:
            await (await self.provider()).personal_tokens.revoke(self.revoking_id)
            await self._refresh()
        finally:
            self.busy = False
            self.revoking_id = self.revoking_name = ""
