"""The users list (spec 2, Users list): filters, page and sort read from and written to the URL."""

from typing import Any, ClassVar

import reflex as rx

from portal.client import Page, ProviderClient
from portal.client.models import UserFilters
from portal.components.paging import Paging
from portal.components.users.models import USER_INCLUDES, UserRow
from portal.components.users.query import USERS_URL
from portal.list_query import ListUrl
from portal.state.lists import ListState
from portal.state.session import SessionState


class UsersListState(ListState, SessionState):
    url: ClassVar[ListUrl[UserFilters]] = USERS_URL
    filters: rx.Field[UserFilters] = rx.field(default_factory=UserFilters)
    rows: rx.Field[list[UserRow]] = rx.field(default_factory=list)

    async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
        page = await client.users.list(self.filters, includes=USER_INCLUDES, **paging.arguments())
        self.rows = [UserRow.of(user, self.user_id, self.roles) for user in page.items]
        return page
