"""The services list (spec 2, Services list): tiles, filters bound to the URL, the page of
services, and the view mode remembered in the browser (spec 4, Browser storage)."""

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import parse_qsl

import reflex as rx

from portal import routes
from portal.client import ProviderClient, ProviderError
from portal.client.resources.services import EXPORT
from portal.components.data_table import PagedTableState, replace_url
from portal.components.multi_select import Option
from portal.connections import backend_url
from portal.pages.services.models import LIST_INCLUDES, ServiceRow, matching, type_options
from portal.pages.services.query import DEFAULT_PAGING, ServicesQuery
from portal.state.failures import reports_failures
from portal.state.session import SessionState

CARDS, TABLE = "card", "table"


class ServicesState(PagedTableState, SessionState):
    items_per_page: rx.Field[int] = rx.field(DEFAULT_PAGING.items_per_page)
    sort_field: rx.Field[str] = rx.field(DEFAULT_PAGING.sort_field)
    sort_direction: rx.Field[str] = rx.field(DEFAULT_PAGING.sort_direction)
    view_mode: str = rx.LocalStorage(CARDS, name="patchbay.services.view", sync=True)
    # What the search box holds, spaces included; the query uses it trimmed.
    search: rx.Field[str] = rx.field("")
    statuses: rx.Field[list[str]] = rx.field(default_factory=list)
    type_uuids: rx.Field[list[str]] = rx.field(default_factory=list)
    type_search: rx.Field[str] = rx.field("")
    types: rx.Field[list[Option]] = rx.field(default_factory=list)
    rows: rx.Field[list[ServiceRow]] = rx.field(default_factory=list)
    active_count: rx.Field[int] = rx.field(0)
    construction_count: rx.Field[int] = rx.field(0)
    counting: rx.Field[bool] = rx.field(True)

    _types_language: str = ""

    async def _types(self, client: ProviderClient) -> list[Option]:
        """The type filter's options, fetched once per language (the labels are translated)."""
        if self.types and self._types_language == self.current_language:
            return self.types
        return type_options(await client.service_types.list())

    def _query(self) -> ServicesQuery:
        return ServicesQuery(
            self.search.strip(), tuple(self.statuses), tuple(self.type_uuids), self._paging()
        )

    @rx.var
    def shown_types(self) -> list[Option]:
        return matching(self.types, self.type_search)

    @rx.var
    def export_url(self) -> str:
        query = [*self._query().export_params(), (routes.FILES_LANGUAGE, self.current_language)]
        return backend_url(routes.file_path(EXPORT, query))

    @rx.var
    def has_filters(self) -> bool:
        return bool(self.search.strip() or self.statuses or self.type_uuids)

    @rx.event
    def set_view_mode(self, mode: str | list[str]):
        self.view_mode = TABLE if mode == TABLE else CARDS

    @rx.event
    @reports_failures
    async def load(self):
        """Opens the list as its URL describes it (on every load, back and forward included)."""
        if not self._page_open():
            return
        query = ServicesQuery.from_params(parse_qsl(self.router.url.query))
        self.search = query.search
        self.statuses, self.type_uuids = list(query.statuses), list(query.type_uuids)
        self._adopt_paging(query.paging)
        self.loading = self.counting = True
        yield
        try:
            client = await self.provider()
            active, construction, types = await asyncio.gather(
                client.services.count(["active"]),
                client.services.count(["under_construction"]),
                self._types(client),
            )
        except ProviderError:
            self.loading = self.counting = False
            raise
        self.active_count, self.construction_count = active, construction
        self.types, self._types_language = types, self.current_language
        self.counting = False
        async for update in self._reload(record_url=False):
            yield update

    @rx.event
    @reports_failures
    async def set_search(self, value: str):
        searched = value.strip() != self.search.strip()
        self.search = value
        if searched:
            async for update in self._filtered():
                yield update

    @rx.event
    @reports_failures
    async def toggle_status(self, status: str):
        self.statuses = _toggled(self.statuses, status)
        async for update in self._filtered():
            yield update

    @rx.event
    @reports_failures
    async def clear_statuses(self):
        self.statuses = []
        async for update in self._filtered():
            yield update

    @rx.event
    @reports_failures
    async def toggle_type(self, uuid: str):
        self.type_uuids = _toggled(self.type_uuids, uuid)
        async for update in self._filtered():
            yield update

    @rx.event
    @reports_failures
    async def clear_types(self):
        self.type_uuids = []
        async for update in self._filtered():
            yield update

    @rx.event
    def set_type_search(self, value: str):
        self.type_search = value

    @rx.event
    @reports_failures
    async def clear_filters(self):
        self.search, self.statuses, self.type_uuids = "", [], []
        async for update in self._filtered():
            yield update

    async def _filtered(self) -> AsyncIterator:
        self.page = 1
        async for update in self._reload(record_url=True):
            yield update

    @rx.event
    @reports_failures
    async def refresh(self):
        """After a change of page or sort: records it in the URL and reloads the page."""
        async for update in self._reload(record_url=True):
            yield update

    async def _reload(self, *, record_url: bool) -> AsyncIterator:
        """The page of services the filters ask for, in one provider call; a filter change is
        handled within its own event (no chain of events), so the list follows in one trip."""
        query = self._query()
        self.loading = True
        path = self.router.url.path
        yield replace_url(path, query.url(path)) if record_url else None
        try:
            result = await (await self.provider()).services.list(
                page=query.paging.page,
                items_per_page=query.paging.items_per_page,
                order=query.paging.order,
                search=query.search or None,
                statuses=query.statuses,
                type_uuids=query.type_uuids,
                includes=LIST_INCLUDES,
            )
        finally:
            self.loading = False
        if result.total and query.paging.page > result.page_count:
            # Fewer pages than the one asked for (an old link, say): show the last one.
            self.page = result.page_count
            async for update in self._reload(record_url=True):
                yield update
            return
        language = self.current_language
        self.rows = [ServiceRow.of(service, language) for service in result.items]
        self.total = result.total


def _toggled(values: list[str], value: str) -> list[str]:
    return [v for v in values if v != value] if value in values else [*values, value]
