"""Impersonation (spec 4, DESIGN 4): staff act as a customer and come back.

The provider switches its session's user and rotates the session cookie; the portal keeps the
impersonator in its own server-side session (so a reload keeps the banner), stores the rotated
provider cookies again, makes the target the current user with recomputed rules and goes home.
"""

import reflex as rx

from portal import routes
from portal.client import ProviderError, User
from portal.connections import session_store
from portal.i18n import gettext
from portal.state.failures import reports_failures
from portal.state.messages import Events, MessagesState
from portal.state.session import SessionState


class ImpersonationState(SessionState):
    switching: rx.Field[bool] = rx.field(False)

    @rx.event
    @reports_failures(shown=True)
    async def impersonate(self, email: str):
        if self.switching or self.is_impersonating:
            return
        self.switching = True
        yield
        try:
            client = await self.provider()
            target = await client.impersonation.start(email)
        except ProviderError:
            self.switching = False
            raise
        yield await self._become(
            target,
            client.cookies(),
            impersonator=(self.user_id, self.email, self.full_name, list(self.roles)),
        )

    @rx.event
    @reports_failures(shown=True)
    async def leave(self):
        if self.switching or not self.is_impersonating:
            return
        self.switching = True
        yield
        try:
            client = await self.provider()
            original = await client.impersonation.exit()
        except ProviderError:
            self.switching = False
            raise
        yield await self._become(original, client.cookies(), impersonator=("", "", "", []))

    async def _become(
        self, user: User, cookies: dict[str, str], impersonator: tuple[str, str, str, list[str]]
    ) -> Events:
        """Makes ``user`` the session's user, with the provider cookie the switch rotated to:
        once stored, every worker's client of this session sends that one."""
        store = session_store()
        session = await store.load(self._token)
        if session is None:
            self.switching = False
            return await self.report(self._session_expired())
        session.user_id = user.id
        session.provider_cookies = cookies
        (
            session.impersonator_id,
            session.impersonator_email,
            session.impersonator_name,
            session.impersonator_roles,
        ) = impersonator
        await store.save(self._token, session)
        self.adopt(self._token, user, session.created_at, session)
        self.switching = False
        messages = await self.get_state(MessagesState)
        messages.clear_all()
        text = (
            gettext(self.current_language, "You are now acting as {name}.", name=user.full_name)
            if session.impersonator_id
            else gettext(self.current_language, "You are back as {name}.", name=user.full_name)
        )
        messages.show(text, "success")
        return rx.redirect(routes.HOME.path)
