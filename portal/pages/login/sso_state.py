"""Single sign-on on the login page (issue 52): once the e-mail is typed, whether the user's
company logs in through its identity provider; "Continue with your company" sends the browser
to the portal's start route, which sends it on to the identity provider. A failed login comes
back as ``?sso=<kind>``, said in the user's language by the view."""

import reflex as rx

from portal import routes
from portal.client import ProviderError
from portal.connections import anonymous_client, backend_url
from portal.state.session import SessionState, load_from_server

# The kinds of failure the start and callback routes name, each with its text in the view.
FAILURES = (
    "sso_unreachable",
    "sso_user_unknown",
    "sso_domain",
    "sso_state",
    "sso_nonce",
    "sso_expired",
    "sso_unverified",
    "sso_token",
    "sso_refused",
    "sso_disabled",
)


class SsoLoginState(SessionState):
    # The e-mail last looked up, and what single sign-on says of its domain.
    sso_email: str = ""
    sso_covered: bool = False
    sso_password_allowed: bool = True
    sso_loading: bool = False

    @rx.var
    def sso_failure(self) -> str:
        """The failure the start or callback route sent back: one of FAILURES, or "sso_failed"
        for any other value; "" when none."""
        kind = self.router.url.query_parameters.get(routes.SSO_FAILURE, "")
        if not kind:
            return ""
        return kind if kind in FAILURES else "sso_failed"

    @rx.event
    async def look_up(self, value: str):
        """Asks whether single sign-on covers the domain of the e-mail typed (on leaving the
        field). A provider that cannot answer leaves the password form as it is."""
        email = value.strip()
        if email == self.sso_email:
            return
        self.sso_email = email
        self.sso_covered, self.sso_password_allowed = False, True
        if "@" not in email:
            return
        client = anonymous_client(self.current_language, self.router.session.client_ip)
        try:
            async with client:
                found = await client.auth.sso_lookup(email)
        except ProviderError:
            return
        if email == self.sso_email:
            self.sso_covered, self.sso_password_allowed = found.sso, found.password_allowed

    @rx.event
    def continue_with_company(self):
        """A full page load of the start route, which redirects to the identity provider."""
        if not self.sso_covered:
            return None
        self.sso_loading = True
        target = routes.safe_redirect(self.router.url.query_parameters.get("redirect"))
        return load_from_server(
            backend_url(routes.SSO_START_PATH, email=self.sso_email, next=target)
        )
