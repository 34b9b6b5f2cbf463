"""A user's profile (spec 2, User profile), loaded from the id of the URL."""

import reflex as rx

from portal.client import ProviderClient
from portal.components.users.models import USER_INCLUDES, UserRow
from portal.permissions import MANAGE_INTEGRATION, can_update_profile
from portal.state.item_page import ItemPageState
from portal.state.session import SessionState


class UserProfileState(ItemPageState, SessionState):
    profile: rx.Field[UserRow] = rx.field(default_factory=UserRow)

    @rx.var
    def may_change(self) -> bool:
        """Spec 2 and 6: the update (and delete) buttons, for user managers and the owner."""
        return bool(self.profile.id) and can_update_profile(
            self._held_rules(), self.user_id, self.profile.id
        )

    @rx.var
    def is_own_profile(self) -> bool:
        """One's own profile, not while acting as someone else: the second factor's set-up."""
        return (
            bool(self.profile.id) and self.profile.id == self.user_id and not self.impersonator_id
        )

    @rx.var
    def may_reset_second_factor(self) -> bool:
        """Issue 18, item 10: administrators reset another user's second factor."""
        return (
            bool(self.profile.id)
            and self.profile.id != self.user_id
            and self._holds(MANAGE_INTEGRATION)
        )

    def _shown_id(self) -> str:
        return self.profile.id

    def _show(self, item: UserRow | None) -> None:
        self.profile = item or UserRow()

    async def _fetch(self, client: ProviderClient, item_id: str) -> UserRow:
        user = await client.users.get(item_id, includes=USER_INCLUDES)
        return UserRow.of(user, self.user_id, self.roles)
