"""A server-paged table: sortable column headers, the rows of the visible page, a 'No result'
row, a loading overlay and a pagination bar with page sizes.

The table shows a ``ListState`` (``portal/state/lists.py``) and reloads it through its
``refresh`` after the sort, the page or the page size changed:

    data_table(UsersListState, columns=…, cells=…, label=_("Users"))
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import reflex as rx
from reflex.vars import ArrayVar, NumberVar

from portal.components.forms import field
from portal.components.i18n import _
from portal.components.multi_select import multi_select
from portal.components.paging import ALL_ROWS, ASCENDING
from portal.state.lists import ListState

_VISUALLY_HIDDEN = {
    "position": "absolute",
    "width": "1px",
    "height": "1px",
    "overflow": "hidden",
    "clip": "rect(0 0 0 0)",
    "white_space": "nowrap",
}


@dataclass(frozen=True)
class Column:
    """A column: its header (an English message id) and the provider field it sorts on."""

    label: str
    sort_field: str = ""


# One table column: a ``Column``, or several sortable ones sharing a header cell (a name column
# sorted on first or last name).
TableColumn = Column | tuple[Column, ...]
Cells = Callable[[Any], Sequence[rx.Component | rx.Var | str]]


def _sort_button(state: type[ListState], column: Column) -> rx.Component:
    active = state.sort_field == column.sort_field
    arrow = rx.cond(
        active,
        rx.cond(
            state.sort_direction == ASCENDING,
            rx.icon("arrow-up", size=14),
            rx.icon("arrow-down", size=14),
        ),
        rx.icon("arrow-up-down", size=14, opacity="0.45"),
    )
    return rx.button(
        _(column.label),
        arrow,
        variant="ghost",
        size="2",
        color_scheme=rx.cond(active, "purple", "gray"),
        high_contrast=True,
        font_weight="bold",
        margin="0",
        padding_x="6px",
        on_click=[state.sort_by(column.sort_field), state.refresh],
    )


def _header_cell(state: type[ListState], column: TableColumn):
    group = (column,) if isinstance(column, Column) else column
    fields = [c.sort_field for c in group if c.sort_field]
    if not fields:
        return rx.table.column_header_cell(*(_(c.label) for c in group), vertical_align="middle")
    active = rx.Var.create(fields).contains(state.sort_field)
    direction = rx.cond(state.sort_direction == ASCENDING, "ascending", "descending")
    return rx.table.column_header_cell(
        rx.hstack(
            *(_sort_button(state, c) if c.sort_field else _(c.label) for c in group),
            spacing="1",
            align="center",
        ),
        aria_sort=rx.cond(active, direction, "none"),
        white_space="nowrap",
        vertical_align="middle",
    )


def _row(cells: Cells) -> Callable[[Any], rx.Component]:
    def render(item: Any) -> rx.Component:
        first, *others = cells(item)
        return rx.table.row(
            rx.table.row_header_cell(first), *(rx.table.cell(cell) for cell in others)
        )

    return render


def _page_size_select(state: type[ListState]) -> rx.Component:
    """The rows-per-page choice; nothing when a list has one size only (services: 12)."""
    page_sizes = state.url.page_sizes
    if len(page_sizes) < 2:
        return rx.box()
    return rx.hstack(
        rx.text(_("Rows per page"), size="2", color=rx.color("gray", 11)),
        rx.select.root(
            rx.select.trigger(aria_label=_("Rows per page")),
            rx.select.content(
                *(
                    rx.select.item(_("All") if size == ALL_ROWS else str(size), value=str(size))
                    for size in page_sizes
                )
            ),
            value=state.items_per_page.to_string(),
            on_change=[state.change_page_size, state.refresh],
            size="1",
        ),
        align="center",
        spacing="2",
    )


def list_count(state: type[ListState], one: rx.Var, many: rx.Var, *, test_id: str) -> rx.Component:
    """How many entries the filters found (``one`` for a single one, ``many`` with the count),
    read out by screen readers when it changes."""
    return rx.text(
        rx.cond(state.total == 1, one, many),
        size="2",
        color=rx.color("gray", 11),
        aria_live="polite",
        data_testid=test_id,
    )


def clear_filters_button(state: type[ListState]) -> rx.Component:
    """Shown while a filter narrows the list; empties them all."""
    return rx.cond(
        state.has_filters,
        rx.button(
            rx.icon("x", size=14),
            _("Clear filters"),
            on_click=state.clear_filters,
            variant="ghost",
            color_scheme="gray",
            flex_shrink="0",
        ),
    )


def status_filter(
    state: type[ListState], selected: rx.Var, labels: Mapping[str, str]
) -> rx.Component:
    """The multi-select of a list's ``statuses`` filter, one checkbox per translated label."""
    return multi_select(
        _("Status"),
        options=[(key, _(label)) for key, label in labels.items()],
        selected=selected.to(ArrayVar, list[str]),
        on_toggle=lambda key: state.toggle_filter("statuses", key),
        on_clear=state.clear_filter("statuses"),
        test_id="status-filter",
    )


FILTER_DEBOUNCE_MS = 500  # spec 9


def text_filter(
    state: type[ListState], input_id: str, label: rx.Var, name: str, value: rx.Var
) -> rx.Component:
    """A search box of a list's filters; the list reloads once typing pauses."""
    return field(
        label,
        rx.input(
            rx.input.slot(rx.icon("search", size=16)),
            id=input_id,
            type="search",
            value=value,
            on_change=lambda text: state.set_filter(name, text),
            debounce_timeout=FILTER_DEBOUNCE_MS,
            auto_complete="off",
            width="100%",
        ),
    )


def date_filter(
    state: type[ListState], input_id: str, label: rx.Var, name: str, value: rx.Var
) -> rx.Component:
    """One day of a list's filters (an end of a range: the filters keep the earlier first)."""
    return field(
        label,
        rx.input(
            id=input_id,
            type="date",
            value=rx.cond(value, value.to(str), ""),
            on_change=lambda day: state.set_filter(name, day),
            width="100%",
        ),
    )


def loading_overlay(loading: rx.Var[bool]) -> rx.Component:
    """A spinner veiling the list while it loads; the parent is ``position: relative``."""
    return rx.cond(
        loading,
        rx.center(
            rx.spinner(size="3"),
            role="status",
            aria_label=_("Loading"),
            position="absolute",
            inset="0",
            background_color=rx.color("gray", 2, alpha=True),
            z_index="1",
        ),
    )


def pagination(state: type[ListState], **props: Any) -> rx.Component:
    """Previous, up to seven numbered pages around the current one, next; for tables and for the
    lists that are not (a card grid)."""
    size = rx.breakpoints(initial="1", sm="2")

    def page_button(number: rx.Var[int]) -> rx.Component:
        current = number == state.page
        return rx.button(
            number,
            size=size,
            variant=rx.cond(current, "solid", "soft"),
            aria_current=rx.cond(current, "page", "false"),
            aria_label=_("Page {page}", page=number),
            on_click=[state.go_to_page(number), state.refresh],
        )

    def step(icon: str, label: rx.Var, target: NumberVar, disabled: rx.Var[bool]):
        return rx.icon_button(
            rx.icon(icon, size=16),
            size=size,
            variant="soft",
            aria_label=label,
            disabled=disabled,
            on_click=[state.go_to_page(target), state.refresh],
        )

    return rx.el.nav(
        rx.hstack(
            step("chevron-left", _("Previous page"), state.page - 1, state.page <= 1),
            rx.foreach(state.page_numbers, page_button),
            step("chevron-right", _("Next page"), state.page + 1, state.page >= state.page_count),
            spacing="1",
            align="center",
            justify=props.pop("justify", "start"),
            wrap="wrap",
        ),
        aria_label=_("Pagination"),
        **props,
    )


def pager(state: type[ListState]) -> rx.Component:
    """The page-size choice and the pages: below a table, or below a card grid."""
    return rx.flex(
        _page_size_select(state),
        pagination(state),
        justify="between",
        align="center",
        wrap="wrap",
        spacing="3",
        padding_top="12px",
    )


def data_table(
    state: type[ListState],
    *,
    columns: Sequence[TableColumn],
    cells: Cells,
    label: rx.Var | str,
) -> rx.Component:
    """The table of the state's rows, one cell per column from ``cells(row)``."""
    # The state's own row type, not the kit's list[Any]: the cells read the rows' fields.
    rows = cast(ArrayVar, state.rows)
    empty = rx.table.row(
        rx.table.cell(
            rx.text(_("No result"), color=rx.color("gray", 11)),
            col_span=len(columns),
            text_align="center",
            padding_y="24px",
        )
    )
    return rx.box(
        # A table wider than the screen scrolls in a region the keyboard can reach (WCAG 2.1.1),
        # not in the theme's own scroll area, which takes no focus (assets/styles.css).
        rx.box(
            rx.table.root(
                # Radix puts attributes on a wrapper; the caption names the <table> itself.
                rx.el.caption(label, style=_VISUALLY_HIDDEN),
                rx.table.header(rx.table.row(*(_header_cell(state, column) for column in columns))),
                rx.table.body(
                    rx.foreach(rows, _row(cells)),
                    rx.cond(~state.loading & (rows.length() == 0), empty),
                ),
                aria_busy=state.loading,
                variant="ghost",
                size="2",
            ),
            min_height="120px",
            class_name="table-scroll",
            tab_index=0,
            role="region",
            aria_label=label,
        ),
        loading_overlay(state.loading),
        pager(state),
        position="relative",
        width="100%",
    )
