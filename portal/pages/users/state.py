"""The users list (spec 2, Users list): filters, page and sort read from and written to the URL."""

import reflex as rx

from portal.components.data_table import PagedTableState, replace_url
from portal.pages.users.models import USER_INCLUDES, UserRow
from portal.pages.users.query import DEFAULT_PAGING, UsersQuery
from portal.state.failures import reports_failures
from portal.state.session import SessionState


class UsersListState(PagedTableState, SessionState):
    sort_field: rx.Field[str] = rx.field(DEFAULT_PAGING.sort_field)
    sort_direction: rx.Field[str] = rx.field(DEFAULT_PAGING.sort_direction)
    # What the filter fields hold, spaces included; the query uses them trimmed.
    name_filter: rx.Field[str] = rx.field("")
    email_filter: rx.Field[str] = rx.field("")
    rows: rx.Field[list[UserRow]] = rx.field(default_factory=list)

    def _query(self) -> UsersQuery:
        return UsersQuery(self.name_filter.strip(), self.email_filter.strip(), self._paging())

    @rx.event
    def load(self):
        """Opens the list as its URL describes it (on every load, back and forward included)."""
        if not self._page_open():
            return None
        query = UsersQuery.from_params(self.router.url.query_parameters)
        self.name_filter, self.email_filter = query.name, query.email
        self._adopt_paging(query.paging)
        self.loading = True
        return UsersListState.fetch_page

    @rx.event
    def set_name_filter(self, value: str):
        searched = value.strip() != self.name_filter.strip()
        self.name_filter = value
        return self._search() if searched else None

    @rx.event
    def set_email_filter(self, value: str):
        searched = value.strip() != self.email_filter.strip()
        self.email_filter = value
        return self._search() if searched else None

    def _search(self):
        self.page = 1
        return UsersListState.refresh

    @rx.event
    def refresh(self):
        """After a change of filter, page or sort: records it in the URL and reloads the page."""
        path = self.router.url.path
        return [replace_url(path, self._query().url(path)), UsersListState.fetch_page]

    @rx.event
    @reports_failures
    async def fetch_page(self):
        query = self._query()
        self.loading = True
        yield
        try:
            client = await self.provider()
            result = await client.users.list(
                page=query.paging.page,
                items_per_page=query.paging.items_per_page,
                order=query.paging.order,
                name=query.name or None,
                email=query.email or None,
                includes=USER_INCLUDES,
            )
        finally:
            self.loading = False
        if result.total and query.paging.page > result.page_count:
            # The filters left fewer pages than the one asked for (an old link, say): show the last.
            self.page = result.page_count
            yield UsersListState.refresh
            return
        self.rows = [UserRow.of(user, self.user_id, self.roles) for user in result.items]
        self.total = result.total
