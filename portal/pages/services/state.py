"""The services list (spec 2, Services list): tiles, filters bound to the URL, the page of
services, and the view mode remembered in the browser (spec 4, Browser storage)."""

import asyncio
from typing import Any, ClassVar

import reflex as rx

from portal import routes
from portal.client import Page, ProviderClient
from portal.client.models import ServiceFilters
from portal.client.resources.services import EXPORT, ServicesResource
from portal.components.cards_or_table import CardsOrTable, view_mode_storage
from portal.components.multi_select import Option
from portal.components.paging import Paging
from portal.components.services.models import LIST_INCLUDES, ServiceRow, matching, type_options
from portal.components.services.query import SERVICES_URL, SHOW_ADVANCED_SEARCH
from portal.connections import backend_url
from portal.list_query import ListUrl
from portal.state.lists import ListState
from portal.state.session import SessionState

ACTIVE = ServiceFilters(statuses=["active"])
UNDER_CONSTRUCTION = ServiceFilters(statuses=["under_construction"])


class ServicesState(ListState, CardsOrTable, SessionState):
    url: ClassVar[ListUrl[ServiceFilters]] = SERVICES_URL
    filters: rx.Field[ServiceFilters] = rx.field(default_factory=ServiceFilters)
    rows: rx.Field[list[ServiceRow]] = rx.field(default_factory=list)
    view_mode: str = view_mode_storage("services")
    type_search: rx.Field[str] = rx.field("")
    types: rx.Field[list[Option]] = rx.field(default_factory=list)
    active_count: rx.Field[int] = rx.field(0)
    construction_count: rx.Field[int] = rx.field(0)
    counting: rx.Field[bool] = rx.field(True)

    _types_language: str = ""

    async def _open(self, client: ProviderClient) -> None:
        """The tiles' counts and the type filter's options (translated: fetched again when the
        language changed)."""
        self.counting = True
        try:
            active, construction, types = await asyncio.gather(
                client.services.count(ACTIVE),
                client.services.count(UNDER_CONSTRUCTION),
                self._types(client),
            )
        finally:
            self.counting = False
        self.active_count, self.construction_count = active, construction
        self.types, self._types_language = types, self.current_language

    def _opening_flags(self, flags: list[str]) -> list[str]:
        """The advanced search opens with a status or type filter in use (a tile's link): the
        filter narrowing the list is never out of sight."""
        if (self.filters.statuses or self.filters.type_uuids) and SHOW_ADVANCED_SEARCH not in flags:
            return [*flags, SHOW_ADVANCED_SEARCH]
        return flags

    @rx.var
    def shows_advanced_search(self) -> bool:
        return SHOW_ADVANCED_SEARCH in self.flags

    async def _types(self, client: ProviderClient) -> list[Option]:
        if self.types and self._types_language == self.current_language:
            return self.types
        return type_options(await client.service_types.list())

    async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
        page = await client.services.list(
            self.filters, includes=LIST_INCLUDES, **paging.arguments()
        )
        language = self.current_language
        self.rows = [ServiceRow.of(service, language) for service in page.items]
        return page

    @rx.var
    def shown_types(self) -> list[Option]:
        return matching(self.types, self.type_search)

    @rx.var
    def export_url(self) -> str:
        query = ServicesResource.export_query(self.filters)
        query.append((routes.FILES_LANGUAGE, self.current_language))
        return backend_url(routes.file_path(EXPORT, query))

    @rx.event
    def set_type_search(self, value: str):
        self.type_search = value
