"""The one read path of a list endpoint (docs/decisions/one-read-path.md).

A list is declared once, in its domain's ``queries.py``: ``ListOf(model, Sorting(...), scope)``
(what it reads, which ``order[field]`` it accepts, how it is kept to the reader's companies),
and its filters as one frozen dataclass built by one async dependency, the only place that names
the query parameters, whose ``apply`` narrows a statement. The route then reads::

    statement = filters.apply(readable_invoices(principal))
    invoices, total = INVOICES.page(db, principal, statement, sort, page)
    return INVOICES.answer(request, [invoice_out(invoice) for invoice in invoices], total, page)

``page`` scopes the statement, sorts it and reads one page with its count in one statement
(docs/decisions/counted-pages.md): a list costs the principal's statement, its page, and one per
child list read as JSON (docs/decisions/json-lists.md) — its line in ``bench/run/endpoints.py``.
``itemsPerPage=0`` reads the count alone (docs/decisions/count-only-pages.md), a page past the
end its count after an empty page.
"""

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from fastapi import Request
from sqlalchemy import Select, func, union_all
from sqlalchemy.sql.elements import ColumnElement, UnaryExpression
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.i18n import N_
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import Collection, Pagination, collection
from portal.provider.platform.scoping import CompanyScope, Scope
from portal.provider.platform.security import Principal

T = TypeVar("T")
# The one filter style: a frozen dataclass of what the request asked, built by one async
# dependency (the only place naming the query parameters), whose ``apply(statement: S) -> S``
# narrows a list's statement.
S = TypeVar("S", bound=Select[Any])

# (column, descending) pairs: the order of a list's rows, total once its tie-break is in.
Sort = list[tuple[Any, bool]]


def ordered(sort: Sort) -> list[UnaryExpression[Any]]:
    """``sort`` as an ``ORDER BY``."""
    return [column.desc() if descending else column.asc() for column, descending in sort]


# --- sorting ----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Sorting:
    """The order of a list: ``order[field]=asc|desc`` against ``fields`` (anything else is a
    400; a list without ``fields`` has a fixed order and reads no ``order[]``), ``default``
    when none is given, the ``then`` columns always after, and ``tiebreak``, a unique column in
    the direction of the last field, so that one index of (field, tiebreak) serves both
    directions. A field named twice keeps its first direction: the second cannot change the
    order. ``read`` is the route's dependency: ``Depends(INVOICES.sorting.read)``."""

    fields: Mapping[str, Any] = field(default_factory=dict)
    default: tuple[tuple[str, bool], ...] = ()
    then: tuple[tuple[Any, bool], ...] = ()
    tiebreak: Any | None = None

    async def read(self, request: Request) -> Sort:
        # Async: a dependency without I/O costs no hop to the thread pool (one-hop-reads.md).
        keys: Sort = []
        requested = requested_sort(request, self.fields) if self.fields else []
        for name, descending in requested or self.default:
            column = self.fields[name]
            if all(column is not seen for seen, _ in keys):
                keys.append((column, descending))
        keys.extend(self.then)
        if self.tiebreak is not None and all(self.tiebreak is not seen for seen, _ in keys):
            keys.append((self.tiebreak, keys[-1][1] if keys else False))
        return keys


def requested_sort(request: Request, allowed: Container[str]) -> list[tuple[str, bool]]:
    """The ``order[field]=asc|desc`` parameters in the order given, as (field, descending);
    400 for a field outside ``allowed`` or another direction."""
    keys: list[tuple[str, bool]] = []
    for name, direction in request.query_params.multi_items():
        if not (name.startswith("order[") and name.endswith("]")):
            continue
        wanted = name[len("order[") : -1]
        if wanted not in allowed:
            raise ApiError(400, N_("Sorting by {field} is not supported."), field=wanted)
        if direction.lower() not in ("asc", "desc"):
            raise ApiError(400, N_("The sort direction must be asc or desc."))
        keys.append((wanted, direction.lower() == "desc"))
    return keys


# --- filters ----------------------------------------------------------------------------------


def words(column: Any, folded: str) -> list[ColumnElement[bool]]:
    """Every word of ``folded`` (a search already folded like ``column``) found in ``column``: a
    plain LIKE each, which PostgreSQL serves from a trigram index (service-search.md)."""
    return [col(column).like(_like_pattern(word), escape="/") for word in folded.split()]


def _like_pattern(word: str) -> str:
    escaped = word.replace("/", "//").replace("%", "/%").replace("_", "/_")
    return f"%{escaped}%"


def either(bracketed: Sequence[T] | None, plain: Sequence[T] | None) -> tuple[T, ...]:
    """The values of a list parameter, whichever spelling was sent: ``status[]=a`` (Hydra's)
    and ``status=a`` (a form's), once each, in the order given."""
    return tuple(dict.fromkeys([*(bracketed or ()), *(plain or ())]))


# --- the list ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ListOf:
    """A list endpoint's declaration: the ``model`` it reads (its ``id`` the key), the
    ``sorting`` it accepts and the ``scope`` that keeps it to the reader; ``resource`` names the
    collection (``@context``) when the model's name does not. ``by_company`` reads a customer's
    companies one ordered branch each, merged by the database, so that a deep page costs what
    the first does (docs/decisions/deep-invoice-pages.md); ``items`` adds the ``items`` and
    ``totalItems`` spelling of the collection."""

    model: type[Any]
    sorting: Sorting
    scope: Scope
    resource: str = ""
    by_company: bool = False
    items: bool = False

    def __post_init__(self) -> None:
        if self.by_company and not isinstance(self.scope, CompanyScope):
            raise TypeError("by_company needs a company scope, which gives the branches")

    def page(
        self,
        db: Session,
        principal: Principal,
        statement: SelectOfScalar[T],
        sort: Sort,
        page: Pagination,
        *,
        rows: SelectOfScalar[T] | None = None,
        count: SelectOfScalar[int] | None = None,
    ) -> tuple[list[T], int]:
        """One page of ``statement`` (filtered, not scoped) as the principal may read it, in
        ``sort``'s order, and the number of rows in all pages. ``rows``: with ``by_company``,
        what each of the page's keys reads (its relations joined), the model's row by default.
        ``count``: a cheaper statement of the same number, where the list has one."""
        scoped = self.scope(statement, principal)
        if not self.by_company:
            return paginate(db, scoped.order_by(*ordered(sort)), page, count)
        # A company scope: checked when the list was declared.
        branches = cast(CompanyScope, self.scope).branches(statement, principal)
        key = col(self.model.id)
        chosen = rows if rows is not None else select(self.model)
        return paginate_branches(db, scoped, branches, sort, key, chosen, page, count)

    def answer(
        self, request: Request, members: list[Any], total: int, page: Pagination
    ) -> Collection[Any]:
        """The collection of ``members``, the page's rows as the API shows them."""
        resource = self.resource or self.model.__name__
        return collection(request, resource, members, total, page, with_items=self.items)


# --- pages in one statement -------------------------------------------------------------------


def paginate(
    session: Session,
    statement: SelectOfScalar[T],
    page: Pagination,
    count: SelectOfScalar[int] | None = None,
) -> tuple[list[T], int]:
    """One page of the rows of ``statement`` and the number of rows in all pages, in one
    statement: the count rides on each row of the page as an uncorrelated subquery, which the
    database runs once, by its own plan, beside the page's (docs/decisions/counted-pages.md).
    A round trip less per list: its statement cost the provider more than the database.

    ``count``: a cheaper statement giving the same number, where the caller has one."""
    count = _count(statement) if count is None else count
    if page.counts_only:
        return [], session.exec(count).one()
    counted = statement.add_columns(count.scalar_subquery())
    paged = counted.offset(page.offset).limit(page.items_per_page)
    return _counted_page(session, paged, count, page)


def paginate_in_one_statement(
    session: Session, statement: SelectOfScalar[T], page: Pagination
) -> tuple[list[T], int]:
    """As ``paginate``, for a statement whose rows are few once filtered (a calendar's period):
    the count is a window function beside the page. Needing every row for the count, the
    database filters first and sorts the few left, where a page alone would walk an ordered
    index through every older row (docs/decisions/maintenances-view.md)."""
    count = _count(statement)
    if page.counts_only:
        return [], session.exec(count).one()
    counted = statement.add_columns(func.count().over())
    paged = counted.offset(page.offset).limit(page.items_per_page)
    return _counted_page(session, paged, count, page)


def _count(statement: Select[Any]) -> SelectOfScalar[int]:
    return select(func.count()).select_from(statement.order_by(None).subquery())


def _counted_page(
    session: Session, paged: Select[Any], count: SelectOfScalar[int], page: Pagination
) -> tuple[list[Any], int]:
    """The rows of ``paged`` (a page whose rows each carry the total in their last column) and
    the total; past the last page no row carries it, and ``count`` reads it alone.

    A statement of one entity or column gives that value per row; one of several columns (a
    list read without building its entities) gives each row whole, read by the columns' names
    (the count, last, is ignored)."""
    # ``execute``: ``exec`` would keep only the first column of a statement built on one model.
    rows = session.execute(paged).all()
    if rows:
        members = [row[0] for row in rows] if len(rows[0]) == 2 else list(rows)
        return members, rows[0][-1]
    return [], session.exec(count).one() if page.offset else 0


def paginate_branches(
    session: Session,
    statement: SelectOfScalar[Any],
    branches: Sequence[SelectOfScalar[Any]],
    sort: Sort,
    key: Any,
    rows: SelectOfScalar[T],
    page: Pagination,
    count: SelectOfScalar[int] | None = None,
) -> tuple[list[T], int]:
    """One page of the rows of ``rows`` whose ``key`` column (an id) the filtered ``statement``
    selects, read from ``branches`` (the same rows, split), in the order of ``sort`` (columns
    with a descending flag; the last one must make the order total), and the number of rows in
    all pages.

    Each branch is read in order and cut after the page's last row; the database merges the
    branches (PostgreSQL: a Merge Append of one index scan per branch) and skips the offset
    among those short lists. With one branch per company, a customer of several companies
    pages as cheaply as a customer of one: an ``IN`` list over the companies cannot be read in
    date order from one index, so the database would sort every row of those companies first
    (docs/decisions/deep-invoice-pages.md). Only the key and the sort columns are read until
    the page is known, so an index holding them serves the walk without visiting the table;
    the page's keys then fetch their rows, and the count rides on them, all in one statement
    (docs/decisions/counted-pages.md). ``count``: as for ``paginate``.
    """
    if count is None:
        # Counted in one piece: PostgreSQL counts an ``IN`` list from the smallest index.
        count = _count(statement.with_only_columns(key))
    if page.counts_only:
        return [], session.exec(count).one()
    columns = [column for column, _ in sort]
    window = page.offset + page.items_per_page

    def in_order(selected: Sequence[Any]) -> list[Any]:
        return [
            column.desc() if descending else column.asc()
            for column, (_, descending) in zip(selected, sort, strict=True)
        ]

    parts = [
        branch.with_only_columns(key, *columns).order_by(*in_order(columns)).limit(window)
        for branch in branches
    ]
    merged = (
        parts[0].subquery("merged")
        if len(parts) == 1
        else union_all(*(select(part.subquery()) for part in parts)).subquery("merged")
    )
    merged_columns = list(merged.c)
    chosen = (
        select(*merged_columns)
        .order_by(*in_order(merged_columns[1:]))
        .offset(page.offset)
        .limit(page.items_per_page)
        .subquery("page")
    )
    chosen_columns = list(chosen.c)
    paged = (
        rows.add_columns(count.scalar_subquery())
        .join(chosen, key == chosen_columns[0])
        .order_by(*in_order(chosen_columns[1:]))
    )
    return _counted_page(session, paged, count, page)
