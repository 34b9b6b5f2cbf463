"""Login (spec 2 and 4): on success the session is created server-side, the browser gets its
cookie through the claim route, and the user goes to the terms, the redirect target or home."""

import reflex as rx

from portal import routes
from portal.client import ProviderError
from portal.connections import anonymous_client, backend_url, session_store
from portal.session_store import PortalSession
from portal.state.session import SessionState, load_from_server


class LoginState(SessionState):
    login_email: str = ""
    login_password: str = ""
    touched: rx.Field[list[str]] = rx.field(default_factory=list)
    loading: bool = False
    error_code: int = 0
    error_message: str = ""

    @rx.var
    def can_submit(self) -> bool:
        return bool(self.login_email.strip() and self.login_password) and not self.loading

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
        self.error_code, self.error_message = 0, ""

    def _touch(self, field: str):
        if field not in self.touched:
            self.touched = [*self.touched, field]

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
        self.error_code, self.error_message = 0, ""
        yield
        language = self.current_language
        email, password = self.login_email.strip(), self.login_password
        try:
            async with anonymous_client(language, self.router.session.client_ip) as client:
                user_id = await client.auth.login(email, password)
                user = await client.users.get(user_id, includes=("company",))
                cookies = client.cookies()
        except ProviderError as error:
            self.error_code, self.error_message = error.code, error.message
            self.loading = False
            return
        store = session_store()
        session = PortalSession(user_id=user.id, provider_cookies=cookies)
        token = await store.create(session)
        self.adopt(token, user, session.created_at)
        self.login_password = ""
        self.touched = []
        target = (
            routes.TERMS_OF_USE.path
            if not user.has_accepted_terms
            else routes.safe_redirect(self.router.url.query_parameters.get("redirect"))
        )
        ticket = await store.issue_claim_ticket(token)
        yield load_from_server(backend_url(routes.SESSION_CLAIM_PATH, ticket=ticket, next=target))
        self.loading = False
