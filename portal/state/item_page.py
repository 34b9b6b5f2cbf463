"""The state of one item's page (a service, a user), read by the id of its route: loading,
ready, missing (unknown or another company's: DESIGN 4 does not say which) or failed, as
``portal/components/item_page.py`` renders them.

A page declares its item field and three functions:

    class UserProfileState(ItemPageState, SessionState):   # SessionState: see lists.py
        profile: rx.Field[UserRow] = rx.field(default_factory=UserRow)

        def _shown_id(self) -> str: return self.profile.id
        def _show(self, item: UserRow | None) -> None: self.profile = item or UserRow()
        async def _fetch(self, client, item_id) -> UserRow: ...
"""

from collections.abc import Sequence
from typing import Any, Literal
from urllib.parse import unquote

import reflex as rx
from reflex.event import EventSpec

from portal.client import NotFound, ProviderClient, ProviderError
from portal.state.failures import reports_failures
from portal.state.session import SessionState

ItemStatus = Literal["loading", "ready", "missing", "failed"]


def route_id(path: str) -> str:
    """The id of ``/services/{id}`` or ``/users/{id}``: the last segment of the path. Reflex's
    own route var is only typed once the route is registered; the path does not depend on it."""
    return unquote(path.rstrip("/").rsplit("/", 1)[-1])


class ItemPageState(SessionState, mixin=True):
    status: rx.Field[str] = rx.field("loading")

    def _shown_id(self) -> str:
        """The id of the item the page holds, "" for none."""
        raise NotImplementedError

    def _show(self, item: Any | None) -> None:
        """Holds ``item``, or nothing."""
        raise NotImplementedError

    async def _fetch(self, client: ProviderClient, item_id: str) -> Any:
        """The item as the page shows it; ``NotFound`` when the provider does not find it."""
        raise NotImplementedError

    def _then(self) -> Sequence[EventSpec]:
        """What loads once the item is shown (its tables)."""
        return ()

    def _set(self, status: ItemStatus, item: Any | None = None) -> None:
        self.status = status
        self._show(item)

    @rx.event
    @reports_failures
    async def load(self):
        if not self._page_open():
            return
        item_id = route_id(self.router.url.path)
        if self._shown_id() != item_id:
            # Never show the previous item under another item's address while loading.
            self._set("loading")
        yield
        try:
            item = await self._fetch(await self.provider(), item_id)
        except NotFound:
            self._set("missing")
            return
        except ProviderError:
            self._set("failed")
            raise
        self._set("ready", item)
        for event in self._then():
            yield event
