"""A user's profile (spec 2, User profile), loaded from the id of the URL."""

from typing import Literal
from urllib.parse import unquote

import reflex as rx

from portal.client import NotFound, ProviderError
from portal.pages.users.models import USER_INCLUDES, UserRow
from portal.permissions import can_update_profile
from portal.state.failures import reports_failures
from portal.state.session import SessionState

ProfileStatus = Literal["loading", "ready", "missing", "failed"]


class UserProfileState(SessionState):
    profile: rx.Field[UserRow] = rx.field(default_factory=UserRow)
    status: rx.Field[str] = rx.field("loading")

    @rx.var
    def may_change(self) -> bool:
        """Spec 2 and 6: the update (and delete) buttons, for user managers and the owner."""
        return bool(self.profile.id) and can_update_profile(
            self._held_rules(), self.user_id, self.profile.id
        )

    def _user_id(self) -> str:
        # The last segment of /users/{id}; Reflex's own ``id`` route var is only typed once the
        # route is registered, and reading the path keeps this state independent of that.
        return unquote(self.router.url.path.rstrip("/").rsplit("/", 1)[-1])

    def _show(self, status: ProfileStatus, profile: UserRow | None = None) -> None:
        self.status = status
        self.profile = profile or UserRow()

    @rx.event
    @reports_failures
    async def load(self):
        if not self._page_open():
            return
        user_id = self._user_id()
        if self.profile.id != user_id:
            # Never show the previous profile under another user's address while loading.
            self._show("loading")
        yield
        try:
            user = await (await self.provider()).users.get(user_id, includes=USER_INCLUDES)
        except NotFound:
            # A foreign or unknown id: the provider does not say which (DESIGN 4).
            self._show("missing")
            return
        except ProviderError:
            self._show("failed")
            raise
        self._show("ready", UserRow.of(user, self.user_id, self.roles))
