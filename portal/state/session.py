"""The portal session (DESIGN 2, spec 4): who is logged in, with which permission rules.

The browser holds only the opaque token of the ``patchbay_session`` HttpOnly cookie; the state
finds the server-side session from it on the first event of every page and tab, so a reload or
a new tab stays logged in. Page states subclass ``SessionState`` to call the provider with
``self.provider()`` and report failures with ``self.report(error)``.
"""

import json
import logging
from datetime import UTC, datetime

import reflex as rx
from reflex.event import EventSpec

from portal import routes
from portal.client import Forbidden, ProviderClient, ProviderError, Unauthorized, User
from portal.connections import backend_url, forget_client, session_client, session_store
from portal.i18n import N_, format_moment, gettext
from portal.permissions import RULES, Rule, honoured_roles, rules_for, user_writes_blocked
from portal.routes import Access
from portal.session_store import COOKIE_NAME, PortalSession, cookie_value
from portal.settings import get_settings
from portal.state.messages import TERMS_REMINDER, Events, MessagesState
from portal.state.preferences import PreferencesState

logger = logging.getLogger(__name__)
FORBIDDEN = N_("Forbidden access")
SECOND_FACTOR_REMINDER = N_("Please set up the second factor of your account first.")


def load_from_server(url: str) -> EventSpec:
    """A full page load, for the backend routes that set or expire the session cookie;
    ``rx.redirect`` would route a same-origin path inside the single-page app."""
    return rx.call_script(f"window.location.assign({json.dumps(url)})")


def post_to_server(url: str) -> EventSpec:
    """A full page load by a POST form, for the backend routes that end something (logout):
    those answer no GET, so no link or image of another site can trigger them."""
    return rx.call_script(
        "(() => { const form = document.createElement('form'); form.method = 'post'; "
        f"form.action = {json.dumps(url)}; document.body.appendChild(form); form.submit(); }})()"
    )


class SessionState(PreferencesState):
    user_id: str = ""
    email: str = ""
    firstname: str = ""
    lastname: str = ""
    company_name: str = ""
    roles: rx.Field[list[str]] = rx.field(default_factory=list)
    # Rules as "action subject" strings: what the browser needs to show or hide, no more.
    rules: rx.Field[list[str]] = rx.field(default_factory=list)
    has_accepted_terms: bool = False
    # SECOND_FACTOR_REQUIRED applies and no factor is set up: only its set-up page opens.
    second_factor_due: bool = False
    signed_in_at: float = 0.0
    checked_path: str = ""
    # The page just guarded needs a permission the user lacks (spec 6): it shows only why.
    forbidden: bool = False
    # The staff user behind an impersonation (spec 4); empty when none.
    impersonator_id: str = ""
    impersonator_email: str = ""
    impersonator_name: str = ""
    impersonator_roles: rx.Field[list[str]] = rx.field(default_factory=list)

    _token: str = ""

    @rx.var
    def is_logged_in(self) -> bool:
        return bool(self.user_id)

    @rx.var
    def full_name(self) -> str:
        return f"{self.firstname} {self.lastname}".strip()

    @rx.var
    def signed_in_since(self) -> str:
        if not self.signed_in_at:
            return ""
        moment = datetime.fromtimestamp(self.signed_in_at, UTC)
        return format_moment(moment, self.current_language, self.time_zone)

    @rx.var
    def is_impersonating(self) -> bool:
        return bool(self.impersonator_id)

    @rx.var
    def user_writes_blocked(self) -> bool:
        """Creating, editing and deleting users is refused while sales impersonates (spec 6)."""
        return user_writes_blocked(self.impersonator_roles if self.impersonator_id else None)

    @rx.var
    def profile_path(self) -> str:
        return routes.user_path(self.user_id) if self.user_id else routes.HOME.path

    @classmethod
    def allows(cls, rule: Rule) -> rx.Var[bool]:
        """Whether the signed-in user holds ``rule``: how views show or hide what the provider
        would refuse anyway."""
        return cls.rules.contains(rule.key)

    def _holds(self, rule: Rule) -> bool:
        """``allows`` for the backend: whether a state may make the call ``rule`` guards."""
        return rule.key in self.rules

    def _held_rules(self) -> frozenset[Rule]:
        """The signed-in user's rules, for the functions of ``portal.permissions``."""
        return frozenset(rule for rule in RULES if rule.key in self.rules)

    async def provider(self) -> ProviderClient:
        """The provider client of this user's session."""
        session = await session_store().load(self._token)
        if session is None:
            raise self._session_expired()
        return session_client(
            self._token, session, self.current_language, self.router.session.client_ip
        )

    async def report(
        self,
        error: ProviderError,
        *,
        shown: bool = False,
        permanent: bool = False,
        in_place: bool = False,
    ) -> Events:
        """Sends a failed call to the one message handler, after the session rules of spec 8:
        401 signs out with the current path as redirect, 403 required_terms opens the terms,
        403 required_second_factor the set-up of the second factor.
        ``shown``, ``permanent`` and ``in_place``: see ``MessagesState.show_error``. The caller
        returns or yields what this answers; ``reports_failures`` does that for it."""
        messages = await self.get_state(MessagesState)
        messages.show_error(
            error, self.current_language, shown=shown, permanent=permanent, in_place=in_place
        )
        if isinstance(error, Unauthorized):
            return await self._end(redirect=self._current_path())
        if isinstance(error, Forbidden) and error.requires_terms:
            return rx.redirect(routes.TERMS_OF_USE.path)
        if isinstance(error, Forbidden) and error.requires_second_factor:
            await self._mark_second_factor_due(True)
            return rx.redirect(routes.SECOND_FACTOR.path)
        return None

    async def _mark_second_factor_due(self, due: bool) -> None:
        """Keeps whether the set-up of the second factor is due, here and in the session the
        other tabs and workers read."""
        self.second_factor_due = due
        store = session_store()
        session = await store.load(self._token) if self._token else None
        if session is not None and session.second_factor_due != due:
            session.second_factor_due = due
            await store.save(self._token, session)

    def _session_expired(self) -> Unauthorized:
        return Unauthorized(401, "401", gettext(self.current_language, "Your session has expired."))

    def adopt(
        self, token: str, user: User, signed_in_at: float, session: PortalSession | None = None
    ) -> None:
        self._token = token
        self.signed_in_at = signed_in_at
        self.user_id = user.id
        self.email = user.email
        self.firstname = user.firstname
        self.lastname = user.lastname
        self.company_name = user.company.name if user.company and user.company.name else ""
        self.roles = list(user.roles)
        # As the provider honours them: no staff rule for an e-mail outside the staff domain.
        acting = honoured_roles(user.roles, user.email, get_settings().staff_mail_domain)
        self.rules = sorted(rule.key for rule in rules_for(acting))
        self.has_accepted_terms = user.has_accepted_terms
        self.second_factor_due = session.second_factor_due if session else False
        self.impersonator_id = session.impersonator_id if session else ""
        self.impersonator_email = session.impersonator_email if session else ""
        self.impersonator_name = session.impersonator_name if session else ""
        self.impersonator_roles = list(session.impersonator_roles) if session else []

    def _forget(self) -> None:
        self._token = ""
        self.user_id = self.email = self.firstname = self.lastname = self.company_name = ""
        self.roles = []
        self.rules = []
        self.has_accepted_terms = False
        self.second_factor_due = False
        self.signed_in_at = 0.0
        self.checked_path = ""
        self.impersonator_id = self.impersonator_email = self.impersonator_name = ""
        self.impersonator_roles = []

    def _cookie_token(self) -> str:
        return cookie_value(self.router.headers.cookie, COOKIE_NAME)

    async def _restore(self) -> bool:
        """Finds the live session of this tab, or of the browser's cookie; loads its user."""
        store = session_store()
        token = self._cookie_token()
        # The tab's token counts only with the browser's cookie (issue 18): never on its own.
        if self._token and self._token == token and await store.load(token) is not None:
            return True
        session = await store.load(token) if token else None
        if session is None:
            self._forget()
            return False
        self._token = token
        try:
            user = await (await self.provider()).users.get(session.user_id, includes=("company",))
        except ProviderError:
            await store.destroy(token)
            await forget_client(token)
            self._forget()
            return False
        self.adopt(token, user, session.created_at, session)
        return True

    async def _end(self, redirect: str = "") -> Events:
        """Logs out (spec 4): clears the user and messages, goes to login with the redirect,
        then ends the provider session."""
        token = self._token
        session = await session_store().load(token) if token else None
        if session is not None:
            try:
                await (await self.provider()).auth.logout()
            except ProviderError as error:
                # The provider session may already be gone; the portal one ends anyway.
                logger.info("Provider logout failed: %s %s", error.code, error.message)
        if token:
            await session_store().destroy(token)
            await forget_client(token)
        self._forget()
        (await self.get_state(MessagesState)).clear_all()
        target = routes.login_path(redirect or None)
        return post_to_server(backend_url(routes.SESSION_END_PATH, next=target))

    @rx.event
    async def log_out(self):
        return await self._end()

    @rx.event
    async def check_access(self, route_name: str):
        """The navigation guard of spec 2, run on every page load: login, terms, then the
        permission the route table names for the page."""
        route = routes.by_name(route_name)
        messages = await self.get_state(MessagesState)
        messages.clear_temporary()
        language_event = self.adopt_browser_language()
        logged_in = await self._restore()
        path = self.router.url.path.rstrip("/") or "/"
        self.forbidden = False
        if route.access is Access.PRIVATE and not logged_in:
            return [language_event, rx.redirect(routes.login_path(self._current_path()))]
        if route.access is Access.LOGGED_OUT_ONLY and logged_in:
            return [language_event, rx.redirect(routes.HOME.path)]
        if route.access is Access.PRIVATE and not self.has_accepted_terms:
            # What the provider's 403 required_terms would cause, without the round trip.
            messages.show(gettext(self.current_language, TERMS_REMINDER), "error", permanent=True)
            return [language_event, rx.redirect(routes.TERMS_OF_USE.path)]
        if (
            route.access is Access.PRIVATE
            and self.second_factor_due
            and route is not routes.SECOND_FACTOR
        ):
            # What the provider's 403 required_second_factor would cause, without the call.
            messages.show(gettext(self.current_language, SECOND_FACTOR_REMINDER), "error")
            return [language_event, rx.redirect(routes.SECOND_FACTOR.path)]
        self.checked_path = path
        if route.permission is not None and not self._holds(route.permission):
            self.forbidden = True
            messages.show(gettext(self.current_language, FORBIDDEN), "warning")
        return language_event

    def _current_path(self) -> str:
        """The page as the address bar shows it, its query included (a list's filters): where
        the user comes back to after logging in again."""
        url = self.router.url
        path = url.path.rstrip("/") or "/"
        return path + (f"?{url.query}" if url.query else "")

    def _page_open(self) -> bool:
        """Whether the guard let the user onto this page: page loads call the provider only
        then (a refused page makes no call)."""
        return self.is_logged_in and self.has_accepted_terms and not self.forbidden
