"""Login (spec 2 and 4): on success the session is created server-side, the browser gets its
cookie through the claim route, and the user goes to the terms, the redirect target or home.

When the account has a second factor (issue 18, item 10), the right password opens no session
yet: the form asks for a code of the authenticator app or a recovery code. The provider's
pending login stays in this state's backend-only jar, never in the browser; a browser remembered
at that step sends its device cookie, whose provider counterpart the session store keeps.
"""

import json

import reflex as rx
from reflex.event import EventSpec

from portal import routes
from portal.client import DEVICE_COOKIE, ProviderClient, ProviderError
from portal.connections import anonymous_client, backend_url, session_store
from portal.session_store import DEVICE_COOKIE_NAME, PortalSession, cookie_value
from portal.state.messages import failure_text
from portal.state.session import SessionState, load_from_server


class LoginState(SessionState):
    login_email: str = ""
    login_password: str = ""
    touched: rx.Field[list[str]] = rx.field(default_factory=list)
    loading: bool = False
    # What the last failure says, as the signed-in screens say it (``failure_text``).
    error_message: str = ""
    # The second step: the password was right and the account asks for a code.
    code_step: bool = False
    login_code: str = ""
    remember_device: bool = False
    # What the second step takes: totp, passkey, recovery_code (issue 52).
    second_factor_methods: rx.Field[list[str]] = rx.field(default_factory=list)

    # The provider's cookies of a pending login, as JSON: backend-only, never sent to the browser.
    _pending_login: str = ""

    @rx.var
    def can_submit(self) -> bool:
        return bool(self.login_email.strip() and self.login_password) and not self.loading

    @rx.var
    def can_submit_code(self) -> bool:
        return bool(self.login_code.strip()) and not self.loading

    @rx.var
    def email_missing(self) -> bool:
        return "email" in self.touched and not self.login_email.strip()

    @rx.var
    def password_missing(self) -> bool:
        return "password" in self.touched and not self.login_password

    @rx.var
    def notice(self) -> str:
        query = self.router.url.query_parameters
        if query.get("passwordUpdated"):
            return "passwordUpdated"
        if query.get("accountConfirmed"):
            return "accountConfirmed"
        return ""

    @rx.event
    def set_login_email(self, value: str):
        self.login_email = value

    @rx.event
    def set_login_password(self, value: str):
        self.login_password = value

    @rx.event
    def set_login_code(self, value: str):
        self.login_code = value

    @rx.event
    def set_remember_device(self, value: bool):
        self.remember_device = value

    @rx.event
    def leave_email(self, value: str):
        """A field filled before the page's script ran sent no change: leaving it tells."""
        self.login_email = value
        self._touch("email")

    @rx.event
    def leave_password(self, value: str):
        self.login_password = value
        self._touch("password")

    @rx.event
    def clear_form(self):
        """A page load starts from empty fields, as the browser shows them; a reload in the same
        tab would otherwise keep an earlier attempt's values (and password) in the state."""
        self.login_email, self.login_password, self.touched = "", "", []
        self.error_message = ""

    def _touch(self, field: str):
        if field not in self.touched:
            self.touched = [*self.touched, field]

    @rx.event
    def back_to_password(self):
        """Leaves the second step: the pending login is dropped with its cookie."""
        self._pending_login = ""
        self.code_step = False
        self.login_code = ""
        self.error_message = ""

    @rx.event
    async def submit(self, form: dict):
        # The form's own values: what the browser shows is what is sent.
        self.login_email = str(form.get("email", self.login_email))
        self.login_password = str(form.get("password", self.login_password))
        if not self.can_submit:
            self._touch("email")
            self._touch("password")
            return
        self.loading = True
        self.error_message = ""
        yield
        device = await session_store().remembered_device(self._device_token())
        try:
            async with self._client(device) as client:
                user_id = await client.auth.login(
                    self.login_email.strip(), self.login_password, self.time_zone
                )
                if user_id is None:
                    self._pending_login = json.dumps(client.cookies())
                    self.second_factor_methods = list(client.auth.second_factor_methods)
                else:
                    yield await self._sign_in(client, user_id)
        except ProviderError as error:
            self.error_message = failure_text(error, self.current_language)
            self.loading = False
            return
        self.login_password = ""
        self.code_step = user_id is None
        self.loading = False

    @rx.event
    async def submit_code(self, _form: dict):
        if not self.can_submit_code:
            return
        self.loading = True
        self.error_message = ""
        yield
        try:
            async with self._client(self._pending_cookies()) as client:
                code, remember = self.login_code.strip(), self.remember_device
                user_id = await client.auth.second_step(code, remember=remember)
                self._pending_login = ""
                # A TOTP code is six digits; anything else the provider took was a recovery
                # code: the set-up page then says how many are left (issue 52).
                recovery = not code.replace(" ", "").isdigit()
                yield await self._sign_in(client, user_id, after_recovery_code=recovery)
        except ProviderError as error:
            self.error_message = failure_text(error, self.current_language)
        self.login_code = ""
        self.loading = False

    def _pending_cookies(self) -> dict[str, str]:
        return dict(json.loads(self._pending_login or "{}"))

    def _client(self, cookies: dict[str, str]) -> ProviderClient:
        return anonymous_client(self.current_language, self.router.session.client_ip, cookies)

    def _device_token(self) -> str:
        return cookie_value(self.router.headers.cookie, DEVICE_COOKIE_NAME)

    async def _sign_in(
        self, client: ProviderClient, user_id: str, *, after_recovery_code: bool = False
    ) -> EventSpec:
        """Opens the portal session of a provider login and hands its cookie to the browser."""
        user = await client.users.get(user_id, includes=("company",))
        cookies = client.cookies()
        remembered = cookies.pop(DEVICE_COOKIE, "")
        store = session_store()
        device = ""
        if remembered and self.code_step and self.remember_device:
            device = await store.remember_device({DEVICE_COOKIE: remembered})
        session = PortalSession(user_id=user.id, provider_cookies=cookies)
        if user.has_accepted_terms:
            # A staff role or the company's policy (issue 52) may require a second factor.
            status = await client.second_factor.status()
            session.second_factor_due = status.required and not status.has_factor
        token = await store.create(session)
        self.adopt(token, user, session.created_at, session)
        self.touched = []
        self.code_step = self.remember_device = False
        if not user.has_accepted_terms:
            target = routes.TERMS_OF_USE.path
        elif session.second_factor_due:
            target = routes.SECOND_FACTOR.path
        elif after_recovery_code:
            target = routes.SECOND_FACTOR.path + "?" + routes.AFTER_RECOVERY_CODE
        else:
            target = routes.safe_redirect(self.router.url.query_parameters.get("redirect"))
        ticket = await store.issue_claim_ticket(token, device)
        return load_from_server(backend_url(routes.SESSION_CLAIM_PATH, ticket=ticket, next=target))
