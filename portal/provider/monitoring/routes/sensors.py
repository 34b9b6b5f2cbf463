"""Monitoring sensors (spec 2, 3, 6 and 7): the list read as ``items``/``totalItems``, a sensor's
chart as SVG over one of four spans, and its chart legend.

Admins, read-only staff and holders of ROLE_ACCESS_MONITORING may read sensors (spec 6,
Menu.monitoring); customers see their companies' sensors only, staff every company's; another
company's sensor, chart or legend is 404. Each chart span reads one resolution — raw samples for
2 and 48 hours, hourly roll-ups for 30 days, daily ones for 365 days — with one range scan of an
index led by the sensor (docs/decisions/sensor-rollups.md).
"""

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from fastapi import Depends, Query, Request
from fastapi.responses import Response
from sqlalchemy import Row
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.i18n import N_
from portal.provider.monitoring.chart import (
    FRAMES,
    MARKERS,
    ChartRequest,
    Layout,
    Series,
    Span,
    channel_figures,
)
from portal.provider.monitoring.drawn_charts import DRAWN, chart_end
from portal.provider.monitoring.queries import (
    SENSORS,
    SensorFiltersDep,
    readable_sensors,
    visible_sensors,
)
from portal.provider.monitoring.schemas.sensors import (
    CARD_COLUMNS,
    SENSOR_COLUMNS,
    ChartChannelOut,
    ChartDataOut,
    LegendEntryOut,
    SensorCardsOut,
    SensorOut,
    SensorView,
    legend_entry_out,
    sensor_card_out,
    sensor_out,
)
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ItemsCollection, Pagination, collection
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import (
    RollupResolution,
    Sensor,
    SensorLegendEntry,
    SensorRollup,
    SensorSample,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404
from portal.provider.platform.security import CurrentPrincipal, Principal

router = ProviderRouter(prefix="/api/sensors", tags=["sensors"])

# The monitoring screen reads a company's sensors in one call (spec 7 sends no paging): without
# ``itemsPerPage`` the list holds up to this many, ``totalItems`` telling how many there are
# (docs/decisions/monitoring-screen.md). The one list with paging of its own.
SENSORS_PER_RESPONSE_MAX = 2000
# What each span reads, and the time between two of its points.
_SPAN_SOURCE: dict[Span, tuple[RollupResolution | None, timedelta]] = {
    Span.LAST_2_HOURS: (None, timedelta(minutes=5)),
    Span.LAST_48_HOURS: (None, timedelta(minutes=5)),
    Span.LAST_30_DAYS: (RollupResolution.HOUR, timedelta(hours=1)),
    Span.LAST_365_DAYS: (RollupResolution.DAY, timedelta(days=1)),
}
# Only the chart itself: nothing it could load, no script it could run, even opened on its own.
_LAYOUT = "wide (a desktop's dialog) or narrow (a phone's, about 330 points wide)."
_SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"


async def sensor_paging(
    page: Annotated[int, Query(ge=1, le=1_000_000, description="Page number, from 1.")] = 1,
    items_per_page: Annotated[
        int | None,
        Query(
            alias="itemsPerPage",
            ge=1,
            le=SENSORS_PER_RESPONSE_MAX,
            description=f"Items per page; without it, up to {SENSORS_PER_RESPONSE_MAX}.",
        ),
    ] = None,
) -> Pagination:
    return Pagination(page, items_per_page or SENSORS_PER_RESPONSE_MAX)


@router.get("", response_model=ItemsCollection[SensorOut] | SensorCardsOut)
def list_sensors(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: Annotated[Pagination, Depends(sensor_paging)],
    filters: SensorFiltersDep,
    sort: Annotated[Sort, Depends(SENSORS.sorting.read)],
    view: Annotated[
        SensorView,
        Query(
            description="`full` (the default): every field, as `hydra:member` and `items`. "
            "`card`: what the monitoring screen shows of each sensor, once, as `items` and "
            "`totalItems`, fields without a value left out."
        ),
    ] = SensorView.FULL,
) -> ItemsCollection[SensorOut] | SensorCardsOut:
    # The columns the screen shows as plain rows, not entities: a company's 2 000 sensors come
    # in one page (docs/decisions/list-rows-not-entities.md).
    card = view is SensorView.CARD
    columns = CARD_COLUMNS if card else SENSOR_COLUMNS
    rows = filters.apply(readable_sensors(principal)).with_only_columns(*columns)
    sensors, total = SENSORS.page(db, principal, cast(SelectOfScalar[Row[Any]], rows), sort, page)
    if card:
        # The 2 000-sensor refresh every 30 s (docs/decisions/monitoring-screen.md).
        return SensorCardsOut(items=[sensor_card_out(row) for row in sensors], total_items=total)
    members = [sensor_out(sensor) for sensor in sensors]
    return cast(ItemsCollection[SensorOut], SENSORS.answer(request, members, total, page))


def _visible_sensor(db: Session, principal: Principal, sensor_id: uuid.UUID) -> Sensor:
    return one_or_404(db, visible_sensors(principal).where(Sensor.id == sensor_id))


def _legend(db: Session, sensor_id: uuid.UUID) -> list[SensorLegendEntry]:
    statement = (
        select(SensorLegendEntry)
        .where(SensorLegendEntry.sensor_id == sensor_id)
        .order_by(col(SensorLegendEntry.key))
    )
    return list(db.exec(statement))


@router.get("/{sensor_id}/chart_legend", response_model=ItemsCollection[LegendEntryOut])
def chart_legend(
    request: Request, sensor_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> ItemsCollection[LegendEntryOut]:
    sensor = _visible_sensor(db, principal, sensor_id)
    entries = [legend_entry_out(entry) for entry in _legend(db, sensor.id)]
    # A chart's few series, never paged: the whole legend as one page (not a list endpoint).
    page = Pagination(1, max(len(entries), 1))
    result = collection(
        request, "SensorChartLegendEntry", entries, len(entries), page, with_items=True
    )
    return cast(ItemsCollection[LegendEntryOut], result)


async def chart_zone(
    zone: Annotated[
        str,
        Query(
            alias="timezone",
            max_length=64,
            description="The IANA time zone of the time labels (Europe/Paris); UTC by default.",
        ),
    ] = "UTC",
) -> ZoneInfo:
    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ApiError(400, N_("Unknown time zone: {zone}."), zone=zone) from error


def chart_series(
    db: Session, sensor_id: uuid.UUID, span: Span, start: datetime, end: datetime
) -> list[Series]:
    """The legend's channels with their points over [start, end]: one range scan of the raw
    samples (sensor, time) or of one resolution of the roll-ups (sensor, resolution, start)."""
    legend = _legend(db, sensor_id)
    series = {
        entry.key: Series(entry.name, entry.unit or "", entry.color, key=entry.key)
        for entry in legend
    }
    resolution, step = _SPAN_SOURCE[span]
    if resolution is None:
        raw = (
            select(SensorSample.legend_key, SensorSample.at, SensorSample.value)
            .where(
                SensorSample.sensor_id == sensor_id,
                col(SensorSample.at) > start,
                col(SensorSample.at) <= end,
            )
            .order_by(col(SensorSample.at))
        )
        for key, at, value in db.exec(raw):
            channel = series.get(key)
            if channel is not None:
                channel.times.append(_utc(at).timestamp())
                channel.values.append(value)
        return list(series.values())
    rolled = (
        sa.select(
            col(SensorRollup.legend_key),
            col(SensorRollup.at),
            col(SensorRollup.minimum),
            col(SensorRollup.maximum),
            col(SensorRollup.total),
            col(SensorRollup.count),
        )
        .where(
            col(SensorRollup.sensor_id) == sensor_id,
            col(SensorRollup.resolution) == resolution,
            col(SensorRollup.at) > start - step,
            col(SensorRollup.at) <= end,
        )
        .order_by(col(SensorRollup.at))
    )
    for key, at, minimum, maximum, total, count in db.execute(rolled):
        channel = series.get(key)
        if channel is not None and count:
            channel.times.append(_utc(at).timestamp())
            channel.values.append(total / count)
            channel.lows.append(minimum)
            channel.highs.append(maximum)
    return list(series.values())


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@router.get(
    "/{sensor_id}/chart/svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "The chart as SVG."}},
)
def chart_svg(
    sensor_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    language: LanguageDep,
    zone: Annotated[ZoneInfo, Depends(chart_zone)],
    span: Annotated[Span, Query(description="The period drawn, up to now.")] = Span.LAST_2_HOURS,
    layout: Annotated[Layout, Query(description=_LAYOUT)] = Layout.WIDE,
) -> Response:
    """The sensor's channels over the span, in the legend's colours, labelled in the request's
    language and ``timezone``; self-contained SVG, safe to inline in a page."""
    started = time.perf_counter()
    sensor = _visible_sensor(db, principal, sensor_id)
    end = chart_end(datetime.now(UTC))
    request = ChartRequest(span, end, language, zone, _SPAN_SOURCE[span][1], layout)
    series = chart_series(db, sensor.id, span, request.start, end)
    svg = DRAWN.svg(sensor.id, series, request)
    return Response(
        svg,
        media_type="image/svg+xml",
        headers={
            "Content-Security-Policy": _SVG_POLICY,
            "Cache-Control": "private, no-store",
            "Server-Timing": f"chart;dur={(time.perf_counter() - started) * 1000:.1f}",
        },
    )


@router.get("/{sensor_id}/chart/data", response_model=ChartDataOut)
def chart_data(
    sensor_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    span: Annotated[Span, Query(description="The period read, up to now.")] = Span.LAST_2_HOURS,
    layout: Annotated[Layout, Query(description=_LAYOUT)] = Layout.WIDE,
) -> ChartDataOut:
    """The points the SVG chart of the same span draws, and what it says in one sentence per
    channel (last, lowest, highest, 95th percentile): the portal's text alternative, table and
    readout of the chart (docs/decisions/readable-charts.md)."""
    sensor = _visible_sensor(db, principal, sensor_id)
    end = chart_end(datetime.now(UTC))
    request = ChartRequest(span, end, "en", ZoneInfo("UTC"), _SPAN_SOURCE[span][1])
    channels = []
    for index, channel in enumerate(chart_series(db, sensor.id, span, request.start, end)):
        figures = channel_figures(channel)
        channels.append(
            ChartChannelOut(
                key=channel.key,
                name=channel.name,
                unit=channel.unit,
                color=channel.color,
                marker=MARKERS[index % len(MARKERS)][1],
                at=[datetime.fromtimestamp(moment, UTC) for moment in channel.times],
                values=channel.values,
                lows=channel.lows,
                highs=channel.highs,
                last=figures.last,
                minimum=figures.minimum,
                maximum=figures.maximum,
                percentile95=figures.percentile_95,
            )
        )
    left, _, width, _ = FRAMES[layout].plot_area
    return ChartDataOut(
        span=span.value,
        start=request.start,
        end=end,
        plot_left=left,
        plot_width=width,
        channels=channels,
    )
