"""Sensor charts and their roll-ups: a year of samples summed up into hours and days with sums
and maxima kept, each span reading one resolution over the asked range with an index range scan,
well-formed SVG safe to inline, the 95th percentile as carriers bill it, labels in the user's
language and time zone."""

import re
import uuid
import xml.etree.ElementTree as ET
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlmodel import Session, col, func, select

from portal.client import ProviderClient
from portal.markup import SVG_ID_PREFIX, SVG_SCOPE
from portal.provider.monitoring import drawn_charts
from portal.provider.monitoring.chart import (
    FRAMES,
    ChartRequest,
    Layout,
    Series,
    Span,
    percentile_95,
    render_chart,
    time_axis,
    time_ticks,
)
from portal.provider.monitoring.drawn_charts import DrawnCharts, chart_end
from portal.provider.monitoring.rollup import roll_up
from portal.provider.monitoring.routes.sensors import chart_series
from portal.provider.platform.models import (
    RollupResolution,
    Sensor,
    SensorLegendEntry,
    SensorRollup,
    SensorSample,
    SensorStatus,
)
from tests.provider.conftest import BASE_URL, SignIn, World

NOW = datetime.now(UTC).replace(second=0, microsecond=0)
HOSTILE_NAME = "<script>alert(1)</script> $x$ \" onload=alert(1) <a href='https://evil.test'>"
SVG = "{http://www.w3.org/2000/svg}"


def _sensor(world: World, reference: str, legend: list[tuple[str, str, str]]) -> Sensor:
    sensor = Sensor(
        reference=reference,
        company_id=world.companies["acme"],
        group="Paris TH2",
        device="par-ce1",
        name=f"Sensor {reference}",
        status=SensorStatus.UP,
    )
    sensor.legend = [
        SensorLegendEntry(sensor_id=sensor.id, key=key, name=name, unit=unit, color="1f77b4")
        for key, name, unit in legend
    ]
    return sensor


@pytest.fixture(scope="module")
def year(world: World) -> uuid.UUID:
    """A sensor with a sample every 30 minutes over a year (and one beyond it), rolled up."""
    sensor = _sensor(world, "YEAR", [("rtt", "Round-trip time", "ms")])
    start = NOW - timedelta(days=370)
    rows = []
    at = start
    index = 0
    while at <= NOW:
        rows.append(
            {"id": uuid.uuid4(), "sensor_id": sensor.id, "legend_key": "rtt", "at": at,
             "value": float(index % 97) + (50.0 if index % 1000 == 0 else 0.0)}
        )  # fmt: skip
        at += timedelta(minutes=30)
        index += 1
    with Session(world.engine) as session:
        session.add(sensor)
        session.flush()
        session.execute(sa.insert(SensorSample), rows)
        sensor_id = sensor.id
        session.commit()
    return sensor_id


@pytest.fixture(scope="module")
def raw_by_period(year: uuid.UUID, world: World) -> dict[str, dict[datetime, list[float]]]:
    """The raw samples by hour and by day, read before the roll-up drops them; then the
    roll-up runs."""
    with Session(world.engine) as session:
        samples = session.exec(
            select(SensorSample.at, SensorSample.value).where(SensorSample.sensor_id == year)
        ).all()
        periods: dict[str, dict[datetime, list[float]]] = {
            "hour": defaultdict(list),
            "day": defaultdict(list),
        }
        for at, value in samples:
            moment = at if at.tzinfo else at.replace(tzinfo=UTC)
            hour = moment.replace(minute=0, second=0, microsecond=0)
            periods["hour"][hour].append(value)
            periods["day"][hour.replace(hour=0)].append(value)
        roll_up(session, NOW)
        session.commit()
    return periods


def _rollups(world: World, sensor: uuid.UUID, resolution: RollupResolution) -> list[SensorRollup]:
    with Session(world.engine) as session:
        statement = select(SensorRollup).where(
            SensorRollup.sensor_id == sensor, SensorRollup.resolution == resolution
        )
        return list(session.exec(statement.order_by(col(SensorRollup.at))))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def test_raw_samples_are_kept_48_hours_hours_31_days_days_a_year(
    world: World, year: uuid.UUID, raw_by_period: dict[str, dict[datetime, list[float]]]
) -> None:
    with Session(world.engine) as session:
        oldest = session.exec(
            select(func.min(SensorSample.at)).where(SensorSample.sensor_id == year)
        ).one()
    assert oldest is not None
    assert timedelta(hours=48) <= NOW - _aware(oldest) <= timedelta(hours=49)
    hours = _rollups(world, year, RollupResolution.HOUR)
    days = _rollups(world, year, RollupResolution.DAY)
    assert timedelta(days=31) <= NOW - _aware(hours[0].at) <= timedelta(days=32)
    assert timedelta(days=366) <= NOW - _aware(days[0].at) <= timedelta(days=367)
    assert len(days) == 367  # 366 whole days and today


def test_rolled_up_hours_and_days_keep_sums_minima_and_maxima(
    world: World, year: uuid.UUID, raw_by_period: dict[str, dict[datetime, list[float]]]
) -> None:
    for resolution in (RollupResolution.HOUR, RollupResolution.DAY):
        rows = _rollups(world, year, resolution)
        assert rows
        for row in rows:
            values = raw_by_period[resolution.value][_aware(row.at)]
            assert row.count == len(values)
            assert row.total == pytest.approx(sum(values))
            assert (row.minimum, row.maximum) == (min(values), max(values))


def test_a_second_run_changes_nothing_and_late_samples_are_counted(
    world: World, year: uuid.UUID, raw_by_period: dict[str, dict[datetime, list[float]]]
) -> None:
    before = [(r.at, r.total, r.count) for r in _rollups(world, year, RollupResolution.DAY)]
    last_hour = NOW.replace(minute=0) - timedelta(hours=1)
    with Session(world.engine) as session:
        roll_up(session, NOW)
        session.commit()
    assert [(r.at, r.total, r.count) for r in _rollups(world, year, RollupResolution.DAY)] == before
    with Session(world.engine) as session:
        # Half a minute off the fixture's whole-minute grid, so it never meets a sample there.
        session.add(SensorSample(sensor_id=year, legend_key="rtt", at=last_hour + timedelta(
            minutes=7, seconds=30), value=1000.0))  # fmt: skip
        session.commit()
        roll_up(session, NOW + timedelta(minutes=1))
        session.commit()
    hour = next(
        r for r in _rollups(world, year, RollupResolution.HOUR) if _aware(r.at) == last_hour
    )
    assert hour.maximum == 1000.0
    assert hour.count == len(raw_by_period["hour"][last_hour]) + 1
    day = next(
        r
        for r in _rollups(world, year, RollupResolution.DAY)
        if _aware(r.at) == last_hour.replace(hour=0)
    )
    assert day.maximum == 1000.0


@pytest.mark.parametrize(
    ("span", "step"),
    [
        (Span.LAST_2_HOURS, timedelta(minutes=30)),
        (Span.LAST_48_HOURS, timedelta(minutes=30)),
        (Span.LAST_30_DAYS, timedelta(hours=1)),
        (Span.LAST_365_DAYS, timedelta(days=1)),
    ],
)
def test_each_span_covers_the_asked_range_from_one_resolution(
    world: World,
    year: uuid.UUID,
    raw_by_period: dict[str, dict[datetime, list[float]]],
    span: Span,
    step: timedelta,
) -> None:
    request = ChartRequest(span, NOW, "en", ZoneInfo("UTC"), step)
    with Session(world.engine) as session:
        (series,) = chart_series(session, year, span, request.start, NOW)
    first, last = series.times[0], series.times[-1]
    assert (
        request.start.timestamp() - step.total_seconds()
        < first
        <= request.start.timestamp() + step.total_seconds()
    )
    assert NOW.timestamp() - step.total_seconds() <= last <= NOW.timestamp()
    gaps = {round(b - a) for a, b in zip(series.times, series.times[1:], strict=False)}
    assert max(gaps) == int(step.total_seconds())  # no hole; a late sample may add a point
    rolled = span in (Span.LAST_30_DAYS, Span.LAST_365_DAYS)
    assert bool(series.highs) is rolled


def test_roll_up_spans_read_one_index_range(world: World, year: uuid.UUID) -> None:
    statement = (
        select(SensorRollup.at, SensorRollup.total)
        .where(
            SensorRollup.sensor_id == year,
            SensorRollup.resolution == RollupResolution.DAY,
            col(SensorRollup.at) > NOW - timedelta(days=365),
            col(SensorRollup.at) <= NOW,
        )
        .order_by(col(SensorRollup.at))
    )
    with world.engine.connect() as connection:
        compiled = statement.compile(connection, compile_kwargs={"literal_binds": True})
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SET enable_seqscan = off"))
            plan = "\n".join(row[0] for row in connection.execute(sa.text(f"EXPLAIN {compiled}")))
            assert "pk_sensor_rollups" in plan, plan
            assert "Sort" not in plan, plan
        else:
            rows = connection.execute(sa.text(f"EXPLAIN QUERY PLAN {compiled}")).all()
            plan = " ".join(str(row[-1]) for row in rows)
            assert "SEARCH sensor_rollups USING" in plan, plan
            assert "at>" in plan, plan
            assert "TEMP B-TREE" not in plan, plan


def test_the_95th_percentile_is_the_nearest_rank_after_dropping_the_top_5_percent() -> None:
    values = [float(v) for v in range(1, 25)]  # 24 samples: the 23rd is kept, the 24th dropped
    assert percentile_95(list(reversed(values))) == 23.0
    assert percentile_95([float(v) for v in range(1, 21)]) == 19.0  # 20 samples: drop one
    assert percentile_95([7.0]) == 7.0
    assert percentile_95([]) is None


@pytest.fixture(scope="module")
def traffic(world: World) -> uuid.UUID:
    """A traffic sensor whose last two hours hold 24 known samples (1 to 24 Mbit/s)."""
    sensor = _sensor(world, "TRAFFIC", [("traffic_in", HOSTILE_NAME, "bit/s")])
    # The time of the test, not of the module's import: on a busy machine the module's other
    # tests took minutes, and the oldest sample had left the two hours before the request.
    now = datetime.now(UTC)
    with Session(world.engine) as session:
        session.add(sensor)
        session.flush()
        for index in range(24):
            at = now - timedelta(minutes=5 * index + 1)
            value = (index * 7 % 24 + 1) * 1e6
            session.add(
                SensorSample(sensor_id=sensor.id, legend_key="traffic_in", at=at, value=value)
            )
        sensor_id = sensor.id
        session.commit()
    return sensor_id


def _assert_safe_to_inline(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed
    assert root.tag == f"{SVG}svg"
    assert "<!DOCTYPE" not in svg
    assert "<?xml" not in svg
    for element in root.iter():
        name = element.tag.split("}")[-1].lower()
        assert name not in {"script", "foreignobject", "iframe", "image", "a"}, name
        for attribute, value in element.attrib.items():
            attribute_name = attribute.split("}")[-1].lower()
            assert not attribute_name.startswith("on"), attribute
            if attribute_name == "href":
                assert value.startswith("#"), value
            for reference in re.findall(r"url\(([^)]*)\)", value):
                assert reference.strip("'\"").startswith("#"), value
        if name == "style" and element.text:
            assert "@import" not in element.text
            assert "url(" not in element.text
    return root


def _texts(root: ET.Element) -> list[str]:
    return ["".join(element.itertext()) for element in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("span", list(Span))
async def test_every_span_is_well_formed_svg_safe_to_inline(
    client: httpx.AsyncClient, sign_in: SignIn, traffic: uuid.UUID, year: uuid.UUID, span: Span
) -> None:
    await sign_in("bob")
    for sensor in (traffic, year):
        response = await client.get(f"/api/sensors/{sensor}/chart/svg?span={span.value}")
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert "default-src 'none'" in response.headers["content-security-policy"]
        _assert_safe_to_inline(response.text)


def _drawing(root: ET.Element) -> list[tuple[str, dict[str, str], str]]:
    """Each element with its attributes and text, as the portal's sanitiser would leave them
    were it to add nothing: no scope class, no id prefix, an unscoped style sheet."""
    drawing = []
    for element in root.iter():
        attributes = {
            name: value.replace(SVG_ID_PREFIX, "")
            for name, value in element.attrib.items()
            if not (element is root and name == "class")
        }
        text = (element.text or "").replace(f".{SVG_SCOPE} * ", "*")
        drawing.append((element.tag, attributes, text.strip()))
    return drawing


class _KeepsAnswers(httpx.AsyncBaseTransport):
    """The provider app, each answer's body kept as it was sent."""

    def __init__(self, app: FastAPI) -> None:
        self._app = httpx.ASGITransport(app)
        self.bodies: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._app.handle_async_request(request)
        body = await response.aread()
        self.bodies.append(body.decode())
        return httpx.Response(response.status_code, headers=response.headers, content=body)


@pytest.mark.parametrize("span", list(Span))
async def test_the_portal_client_passes_a_real_chart_through_unchanged(
    app: FastAPI,
    client: httpx.AsyncClient,
    sign_in: SignIn,
    traffic: uuid.UUID,
    year: uuid.UUID,
    span: Span,
) -> None:
    """Issue 47, item 8: the client's SVG allow-list keeps every element, attribute and text
    of the embedded provider's charts (it only scopes them to the chart)."""
    await sign_in("bob")
    provider = _KeepsAnswers(app)
    async with ProviderClient(BASE_URL, cookies=dict(client.cookies), transport=provider) as portal:
        for sensor in (traffic, year):
            sanitised = await portal.sensors.chart_svg(str(sensor), span.value)

            assert _drawing(ET.fromstring(sanitised)) == _drawing(
                ET.fromstring(provider.bodies[-1])
            )


async def test_the_traffic_chart_states_the_hand_computed_95th_percentile_and_names_safely(
    client: httpx.AsyncClient, sign_in: SignIn, traffic: uuid.UUID
) -> None:
    await sign_in("bob")
    response = await client.get(f"/api/sensors/{traffic}/chart/svg?span=last_2_hours")
    root = _assert_safe_to_inline(response.text)
    texts = _texts(root)
    # 24 samples of 1..24 Mbit/s: the highest 5 % (one sample, 24) dropped, 23 is billed.
    assert f"95th percentile, {HOSTILE_NAME}: 23 Mbit/s" in texts
    assert "Mbit/s" in texts  # the axis unit, scaled from bit/s


async def test_a_latency_chart_states_no_percentile(
    client: httpx.AsyncClient, sign_in: SignIn, year: uuid.UUID
) -> None:
    await sign_in("bob")
    response = await client.get(f"/api/sensors/{year}/chart/svg?span=last_48_hours")
    texts = _texts(_assert_safe_to_inline(response.text))
    assert not any("percentile" in text for text in texts)
    assert "ms" in texts


async def test_time_labels_follow_the_language_and_the_time_zone(
    client: httpx.AsyncClient, sign_in: SignIn, year: uuid.UUID
) -> None:
    await sign_in("bob")
    path = f"/api/sensors/{year}/chart/svg?span=last_48_hours&timezone=Europe/Paris"
    french = _texts(ET.fromstring((await client.get(path, headers={"Accept-Language": "fr"})).text))
    english = _texts(
        ET.fromstring((await client.get(path, headers={"Accept-Language": "en"})).text)
    )
    assert "Fuseau horaire : Europe/Paris" in french
    assert "Time zone: Europe/Paris" in english
    assert any(re.fullmatch(r"(1[2-8]|0[6-9]):00", text) for text in french), french
    assert any(re.fullmatch(r"\d{1,2}:00\s?[AP]M", text, re.IGNORECASE) for text in english), (
        english
    )
    year_chart = await client.get(
        f"/api/sensors/{year}/chart/svg?span=last_365_days", headers={"Accept-Language": "fr"}
    )
    months = _texts(ET.fromstring(year_chart.text))
    assert any(text in months for text in ("janv.", "févr.", "mars", "avr.", "mai", "juin"))


def test_ticks_fall_on_round_moments_of_the_users_time_zone() -> None:
    paris = ZoneInfo("Europe/Paris")
    end = datetime(2026, 7, 15, 10, 7, tzinfo=UTC)  # 12:07 in Paris
    ticks = time_ticks(ChartRequest(Span.LAST_2_HOURS, end, "fr", paris, timedelta(minutes=5)))
    assert [tick.strftime("%H:%M") for tick in ticks] == [
        "10:15", "10:30", "10:45", "11:00", "11:15", "11:30", "11:45", "12:00",
    ]  # fmt: skip
    months = time_ticks(ChartRequest(Span.LAST_365_DAYS, end, "fr", paris, timedelta(days=1)))
    assert len(months) == 12
    assert all(tick.day == 1 and tick.hour == 0 for tick in months)


def test_a_narrow_chart_has_half_the_ticks_each_still_round() -> None:
    paris = ZoneInfo("Europe/Paris")
    end = datetime(2026, 7, 15, 10, 7, tzinfo=UTC)  # 12:07 in Paris
    narrow = [
        time_ticks(ChartRequest(span, end, "fr", paris, timedelta(minutes=5), Layout.NARROW))
        for span in (Span.LAST_2_HOURS, Span.LAST_48_HOURS, Span.LAST_30_DAYS, Span.LAST_365_DAYS)
    ]
    assert [tick.strftime("%H:%M") for tick in narrow[0]] == ["10:30", "11:00", "11:30", "12:00"]
    assert {tick.strftime("%H:%M") for tick in narrow[1]} == {"00:00", "12:00"}
    assert {tick.day for tick in narrow[2]} <= {1, 11, 21}
    assert len(narrow[3]) == 6
    assert all(tick.day == 1 and tick.month % 2 == 1 for tick in narrow[3])


def test_no_time_label_reaches_past_the_ends_of_the_plot() -> None:
    """CI's run of 2027-12-06 at 09:44 UTC: the phone's 48-hour chart began at 10:44 in Paris,
    and its first tick's label, "12:00 pm" 76 minutes in, ran into the value axis' "0"."""
    paris = ZoneInfo("Europe/Paris")
    end = datetime(2027, 12, 6, 9, 44, tzinfo=UTC)
    request = ChartRequest(Span.LAST_48_HOURS, end, "en", paris, timedelta(hours=1), Layout.NARROW)
    assert time_ticks(request)[0].strftime("%d %H:%M") == "04 12:00"
    assert [label for _, label in time_axis(request)] == [
        "5 Dec", "12:00 pm", "6 Dec",
    ]  # fmt: skip
    # A desktop's chart is wider, but the same label at the same place reached past it too.
    on_a_desktop = ChartRequest(Span.LAST_48_HOURS, end, "en", paris, timedelta(hours=1))
    assert [tick for tick, _ in time_axis(on_a_desktop)] == time_ticks(on_a_desktop)[1:]


async def test_a_narrow_chart_is_drawn_for_a_phone_and_says_where_its_plot_lies(
    client: httpx.AsyncClient, sign_in: SignIn, traffic: uuid.UUID
) -> None:
    await sign_in("bob")
    path = f"/api/sensors/{traffic}/chart"
    sizes = {}
    for layout in ("wide", "narrow"):
        svg = await client.get(f"{path}/svg", params={"span": "last_48_hours", "layout": layout})
        root = _assert_safe_to_inline(svg.text)
        sizes[layout] = [float(n) for n in root.attrib["viewBox"].split()[2:]]
        data = await client.get(f"{path}/data", params={"span": "last_48_hours", "layout": layout})
        left, _, width, _ = FRAMES[Layout(layout)].plot_area
        assert (data.json()["plotLeft"], data.json()["plotWidth"]) == (left, width)
    # A phone's width at 1:1 (its text keeps its 9 points), taller than wide is.
    assert sizes["narrow"][0] < 360 < sizes["wide"][0]
    assert sizes["narrow"][1] > sizes["wide"][1]
    refused = await client.get(f"{path}/svg", params={"layout": "tiny"})
    assert refused.status_code == 400


async def test_a_wrong_span_or_time_zone_is_refused(
    client: httpx.AsyncClient, sign_in: SignIn, year: uuid.UUID
) -> None:
    await sign_in("bob")
    assert (await client.get(f"/api/sensors/{year}/chart/svg?span=last_week")).status_code in (
        400,
        422,
    )
    response = await client.get(f"/api/sensors/{year}/chart/svg?timezone=Mars/Olympus")
    assert response.status_code == 400


# --- the chart's points: the text alternative, the table and the readout ------------------------


async def test_the_chart_data_holds_the_drawn_points_and_the_hand_computed_figures(
    client: httpx.AsyncClient, sign_in: SignIn, traffic: uuid.UUID
) -> None:
    await sign_in("bob")
    response = await client.get(f"/api/sensors/{traffic}/chart/data?span=last_2_hours")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["@type"] == "SensorChartData"
    assert body["span"] == "last_2_hours"
    start, end = (datetime.fromisoformat(body[key]) for key in ("start", "end"))
    assert end - start == timedelta(hours=2)
    assert 0 < body["plotLeft"] < body["plotLeft"] + body["plotWidth"] <= 1
    [channel] = body["channels"]
    assert channel["marker"] == "circle"  # the first channel's, as drawn
    assert (channel["key"], channel["name"], channel["unit"]) == (
        "traffic_in",
        HOSTILE_NAME,
        "bit/s",
    )
    moments = [datetime.fromisoformat(at) for at in channel["at"]]
    assert moments == sorted(moments)
    assert len(moments) == 24
    assert all(start < moment <= end for moment in moments)
    # The newest sample (the fixture's index 0) is 1 Mbit/s; the 24 are 1 to 24 Mbit/s.
    assert channel["values"][-1] == channel["last"] == 1e6
    assert sorted(channel["values"]) == [float(n) * 1e6 for n in range(1, 25)]
    assert (channel["minimum"], channel["maximum"]) == (1e6, 24e6)
    assert channel["percentile95"] == 23e6  # as the SVG states it
    assert channel["lows"] == channel["highs"] == []


async def test_the_roll_up_spans_give_averages_with_their_minima_and_maxima(
    client: httpx.AsyncClient, sign_in: SignIn, year: uuid.UUID, world: World
) -> None:
    await sign_in("bob")
    body = (await client.get(f"/api/sensors/{year}/chart/data?span=last_30_days")).json()
    [channel] = body["channels"]
    start, end = (datetime.fromisoformat(body[key]) for key in ("start", "end"))
    hours = {
        _aware(row.at): row
        for row in _rollups(world, year, RollupResolution.HOUR)
        if start - timedelta(hours=1) < _aware(row.at) <= end
    }
    assert [datetime.fromisoformat(at) for at in channel["at"]] == sorted(hours)
    first = hours[min(hours)]
    assert channel["values"][0] == pytest.approx(first.total / first.count)
    assert (channel["lows"][0], channel["highs"][0]) == (first.minimum, first.maximum)
    assert channel["minimum"] == min(row.minimum for row in hours.values())
    assert channel["maximum"] == max(row.maximum for row in hours.values())


async def test_the_chart_data_refuses_a_wrong_span(
    client: httpx.AsyncClient, sign_in: SignIn, year: uuid.UUID
) -> None:
    await sign_in("bob")
    response = await client.get(f"/api/sensors/{year}/chart/data?span=last_week")
    # A wrong query parameter is the request's fault, a 400 as for the SVG, never a 500.
    assert response.status_code == 400, response.text
    assert "span" in response.text


async def test_the_portal_client_reads_the_chart_data(
    app: FastAPI, client: httpx.AsyncClient, sign_in: SignIn, traffic: uuid.UUID
) -> None:
    await sign_in("bob")
    transport = httpx.ASGITransport(app)
    async with ProviderClient(
        BASE_URL, cookies=dict(client.cookies), transport=transport
    ) as portal:
        data = await portal.sensors.chart_data(str(traffic), "last_48_hours")
    assert data.span == "last_48_hours"
    [channel] = data.channels
    assert channel.percentile_95 == 23e6
    assert channel.last == 1e6
    assert len(channel.at) == len(channel.values) == 24


def test_a_chart_ends_at_the_next_whole_minute() -> None:
    whole = datetime(2026, 12, 6, 3, 15, tzinfo=UTC)
    assert chart_end(whole) == whole
    assert chart_end(whole + timedelta(microseconds=1)) == whole + timedelta(minutes=1)
    assert chart_end(whole + timedelta(seconds=59)) == whole + timedelta(minutes=1)


def test_the_same_points_are_drawn_once_and_new_ones_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawings: list[str] = []

    def drawing(series: list[Series], request: ChartRequest) -> str:
        drawings.append(request.language)
        return render_chart(series, request)

    monkeypatch.setattr(drawn_charts, "render_chart", drawing)
    charts = DrawnCharts(kept=2)
    sensor = uuid.uuid4()
    request = ChartRequest(Span.LAST_2_HOURS, NOW, "en", ZoneInfo("UTC"), timedelta(minutes=5))
    times = [(NOW - timedelta(minutes=5 * n)).timestamp() for n in range(10, 0, -1)]

    def points(last: float) -> list[Series]:
        values = [*([1.0] * 9), last]
        return [Series("Round-trip time", "ms", "1f77b4", times, values, key="rtt")]

    first = charts.svg(sensor, points(1.0), request)
    assert charts.svg(sensor, points(1.0), request) == first
    assert drawings == ["en"]
    # A changed point, another language, another sensor with the same points: drawn anew.
    assert charts.svg(sensor, points(2.0), request) != first
    french = ChartRequest(Span.LAST_2_HOURS, NOW, "fr", ZoneInfo("UTC"), timedelta(minutes=5))
    charts.svg(sensor, points(2.0), french)
    charts.svg(uuid.uuid4(), points(2.0), french)
    assert drawings == ["en", "en", "fr", "fr"]
    # Two kept: the first chart, least recently used, went first.
    assert charts.svg(sensor, points(1.0), request) == first
    assert len(drawings) == 5


async def test_the_chart_data_ends_where_the_drawn_axis_does(
    client: httpx.AsyncClient, sign_in: SignIn, traffic: uuid.UUID
) -> None:
    await sign_in("bob")
    before = datetime.now(UTC)
    response = await client.get(f"/api/sensors/{traffic}/chart/data?span=last_2_hours")
    end = datetime.fromisoformat(response.json()["end"])
    assert (end.second, end.microsecond) == (0, 0)
    assert before <= end <= datetime.now(UTC) + timedelta(minutes=1)
