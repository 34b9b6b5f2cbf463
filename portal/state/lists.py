"""The state of every list: a list screen bound to its URL, or a table within another page.

A list names its ``ListUrl`` (filters model, opening paging, sort fields, page sizes), and
declares a ``filters`` field of that model, its rows and one fetch function; everything else is
here, the page, size and sort fields included, which open as the URL's paging says:

    class UsersListState(ListState, SessionState):
        url: ClassVar[ListUrl[UserFilters]] = USERS_URL
        filters: rx.Field[UserFilters] = rx.field(default_factory=UserFilters)
        rows: rx.Field[list[UserRow]] = rx.field(default_factory=list)

        async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
            page = await client.users.list(self.filters, **paging.arguments())
            self.rows = [UserRow.of(user) for user in page.items]
            return page

(``SessionState`` is named again: Reflex makes a class whose state bases are all mixins a
mixin itself.) The page's ``on_load`` is ``load``: it reads the query from the URL. A filter
change goes to page 1, writes the URL and fetches within its own event; a page past the end
shows the last one; a failure goes to the one message handler; ``loading`` is cleared whatever
happens. A table within another page sets ``in_address = False`` and is opened by an event of
its own that passes on what ``_open_with(filters)`` yields.
"""

import asyncio
import json
import math
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import parse_qsl

import reflex as rx
from reflex.event import EventSpec

from portal.client import Page, ProviderClient
from portal.client.filters import ANY, Filters
from portal.components.paging import ASCENDING, DEFAULT_ITEMS_PER_PAGE, Paging, page_window
from portal.list_query import ListUrl
from portal.state.failures import reports_failures
from portal.state.session import SessionState

# The fields of ``ListUrl.paging`` a list opens on.
PAGING_FIELDS = ("page", "items_per_page", "sort_field", "sort_direction")


def replace_url(path: str, url: str) -> EventSpec:
    """Writes a list's filters, page and sort into the address bar without a navigation, so a
    reload, a shared link or the way back from a detail page finds the list as it was left.

    A navigation would run the page's load again and unmount the filter being typed in; the
    check on ``path`` keeps a late answer from rewriting the page the user has moved on to.
    """
    return rx.call_script(
        f"if (window.location.pathname === {json.dumps(path)}) "
        f"window.history.replaceState(window.history.state, '', {json.dumps(url)})"
    )


class ListState(SessionState, mixin=True):
    """Paging, sort, filters and rows of one list; see the module's documentation."""

    url: ClassVar[ListUrl[Any]]
    # False for a table within another page: its paging stays out of that page's address.
    in_address: ClassVar[bool] = True

    page: rx.Field[int] = rx.field(1)
    items_per_page: rx.Field[int] = rx.field(DEFAULT_ITEMS_PER_PAGE)
    sort_field: rx.Field[str] = rx.field("")
    sort_direction: rx.Field[str] = rx.field(ASCENDING)
    total: rx.Field[int] = rx.field(0)
    loading: rx.Field[bool] = rx.field(False)
    # The URL's flags turned on (``ListUrl.flags``): what the screen shows, not what it lists.
    flags: rx.Field[list[str]] = rx.field(default_factory=list)

    if TYPE_CHECKING:
        # Each list declares ``filters: rx.Field[ItsFilters]`` and its rows.
        filters: rx.Field[Filters]
        rows: rx.Field[list[Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A list that names its ``url`` opens on that URL's paging: its page, size and sort
        fields default to ``url.paging``'s (one it declares itself stays as declared). Set
        before Reflex binds the class's fields, as if its body had written the defaults."""
        url: ListUrl[Any] | None = cls.__dict__.get("url")
        if url is not None:
            for name in PAGING_FIELDS:
                if name not in cls.__own_fields__:
                    _declare_default(cls, name, getattr(url.paging, name))
        super().__init_subclass__(**kwargs)

    async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
        """The page of the list that ``self.filters`` and ``paging`` ask for; sets the rows."""
        raise NotImplementedError

    async def _open(self, client: ProviderClient) -> None:
        """What a screen loads once when it opens, beside its list (tiles, filter options)."""

    @rx.var
    def page_count(self) -> int:
        return max(1, math.ceil(self.total / max(1, self.items_per_page)))

    @rx.var
    def page_numbers(self) -> list[int]:
        return page_window(self.page, self.page_count)

    @rx.var
    def has_filters(self) -> bool:
        """Whether any filter narrows the list (the "Clear filters" button shows)."""
        return self.filters.active

    def _paging(self) -> Paging:
        return Paging(self.page, self.items_per_page, self.sort_field, self.sort_direction)

    def _adopt_paging(self, paging: Paging) -> None:
        self.page, self.items_per_page = paging.page, paging.items_per_page
        self.sort_field, self.sort_direction = paging.sort_field, paging.sort_direction

    @rx.event
    @reports_failures
    async def load(self):
        """Opens the list as its URL describes it (on every load, back and forward included)."""
        if not self._page_open():
            return
        query = parse_qsl(self.router.url.query)
        filters, paging = self.url.read(query)
        self.filters = filters
        self._adopt_paging(paging)
        self.flags = self._opening_flags(self.url.read_flags(query))
        self.loading = True
        yield
        # The tiles and filter options come beside the first page, not before it: the screen
        # waits for the slower of the calls, not for their sum (issue 11).
        opening = asyncio.create_task(self._open(await self.provider()))
        try:
            async for update in self._reload(record=False):
                yield update
        finally:
            await opening

    def _opening_flags(self, flags: list[str]) -> list[str]:
        """The flags the screen opens with: those its URL turns on, unless the screen adds some
        (a panel opened because a filter of it is in use)."""
        return flags

    async def _open_with(self, filters: Filters) -> AsyncIterator[EventSpec | None]:
        """A table within another page: its first page for these filters, within the event
        that opens it, so that the emptied rows and the spinner reach the browser as one
        update and the rows as the next (each update is a render of the page)."""
        self.filters = filters
        self._adopt_paging(self.url.paging)
        self.rows = []
        async for update in self._reload():
            yield update

    @rx.event
    @reports_failures
    async def set_filter(self, name: str, value: Any):
        """A text, a choice or a date typed or picked (``ANY``: no filter)."""
        async for update in self._apply(self.filters.with_value(name, value)):
            yield update

    @rx.event
    @reports_failures
    async def toggle_filter(self, name: str, value: str):
        """One value of a list filter (a status, a type) checked or unchecked."""
        chosen: list[Any] = getattr(self.filters, name)
        toggled = [v for v in chosen if v != value] if value in chosen else [*chosen, value]
        async for update in self._apply(self.filters.with_value(name, toggled)):
            yield update

    @rx.event
    @reports_failures
    async def clear_filter(self, name: str):
        async for update in self._apply(self.filters.with_value(name, ANY)):
            yield update

    @rx.event
    @reports_failures
    async def clear_filters(self):
        # The list's own filters class: ``type(self.filters)`` is Reflex's MutableProxy once
        # the filters were read in this event, which cannot be built without arguments.
        async for update in self._apply(self.url.filters()):
            yield update

    @rx.event
    def toggle_flag(self, flag: str):
        """Shows or hides what a flag of the URL names; the list stays as it is."""
        if flag not in self.url.flags:
            return None
        self.flags = (
            [f for f in self.flags if f != flag] if flag in self.flags else [*self.flags, flag]
        )
        return self._recorded(self._paging())

    @rx.event
    def go_to_page(self, page: int):
        self.page = min(max(1, page), self.page_count)

    @rx.event
    def change_page_size(self, size: str):
        self.items_per_page = int(size)
        self.page = 1

    @rx.event
    def sort_by(self, field: str):
        self._adopt_paging(self._paging().sorted_by(field))

    @rx.event
    @reports_failures
    async def refresh(self):
        """After a change of page, size or sort, or of what the list shows: reloads the page."""
        async for update in self._reload():
            yield update

    async def _apply(self, filters: Filters) -> AsyncIterator[EventSpec | None]:
        """Shows the first page for ``filters``; nothing to load when they ask the provider
        what it was asked already (a space typed)."""
        before, self.filters = self.filters, filters
        if not filters.same_query(before):
            async for update in self._first_page():
                yield update

    async def _first_page(self) -> AsyncIterator[EventSpec | None]:
        self.page = 1
        async for update in self._reload():
            yield update

    async def _reload(self, *, record: bool = True) -> AsyncIterator[EventSpec | None]:
        """The page the filters ask for, in one provider call, within the event that asked:
        the URL is written at once and the list follows in the same trip."""
        paging = self._paging()
        self.loading = True
        yield self._recorded(paging) if record else None
        try:
            page = await self._fetch(await self.provider(), paging)
        finally:
            self.loading = False
        self.total = page.total
        if page.total and paging.page > page.page_count:
            # Fewer pages than the one asked for (an old link, say): show the last one.
            self.page = page.page_count
            async for update in self._reload(record=record):
                yield update

    def _recorded(self, paging: Paging) -> EventSpec | None:
        if not self.in_address:
            return None
        path = self.router.url.path
        return replace_url(path, self.url.url(path, self.filters, paging, self.flags))


def _declare_default(cls: type[ListState], name: str, value: Any) -> None:
    """Declares the inherited field ``name`` on ``cls`` with a new default, the field Reflex
    derives from ``name = value`` in a class body."""
    field = cls.__fields__[name]._replace(default=value, default_factory=None)
    cls.__own_fields__[name] = cls.__fields__[name] = field
    # Past the metaclass's guard against replacing a var: this declares it, as the body would.
    type.__setattr__(cls, name, field)
    field.__set_name__(cls, name)
