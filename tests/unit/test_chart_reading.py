"""Issue 54, item 4: the sensor and invoicing charts in words and numbers — the summary
sentence, the table and the readout, in the user's language, number format and time zone."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from portal.client.models import BilledMonth, InvoiceSummary
from portal.client.models.sensors import ChartChannel, ChartData
from portal.pages.invoices.models import billing_reading
from portal.pages.monitoring.chart_reading import plot_inset, sensor_reading

END = datetime(2026, 7, 15, 10, 0, tzinfo=UTC)  # 12:00 in Paris
START = END - timedelta(hours=2)


def _traffic() -> ChartData:
    moments = [START + timedelta(minutes=30 * i) for i in range(1, 5)]
    return ChartData(
        span="last_2_hours",
        start=START,
        end=END,
        plot_left=0.09,
        plot_width=0.89,
        channels=[
            ChartChannel(
                key="in", name="Traffic in", unit="bit/s", marker="circle", at=moments,
                values=[1_500_000.0, 2e6, 12_250_000.0, 3e6],
                last=3e6, minimum=1_500_000.0, maximum=12_250_000.0, percentile_95=12_250_000.0,
            ),
            ChartChannel(
                key="out", name="Traffic out", unit="bit/s", marker="square", at=moments[1:],
                values=[1e6, 1e6, 1e6], last=1e6, minimum=1e6, maximum=1e6, percentile_95=1e6,
            ),
        ],
    )  # fmt: skip


def test_the_summary_states_span_last_lowest_highest_and_percentile_per_channel() -> None:
    english = sensor_reading(_traffic(), "Traffic xe-0/0/20", "2 hours", "en", "Europe/Paris")
    assert english.summary == (
        "2 hours up to now, from 15 Jul 2026, 10:00 am to 15 Jul 2026, 12:00 pm "
        "(Europe/Paris): Traffic in: last 3 Mbit/s, lowest 1.5 Mbit/s, highest 12.25 Mbit/s, "
        "95th percentile 12.25 Mbit/s; Traffic out: last 1 Mbit/s, lowest 1 Mbit/s, "
        "highest 1 Mbit/s, 95th percentile 1 Mbit/s."
    )
    french = sensor_reading(_traffic(), "Traffic xe-0/0/20", "2 heures", "fr", "Europe/Paris")
    assert french.summary.startswith(
        "2 heures jusqu'à maintenant, du 15 juil. 2026 10:00 au 15 juil. 2026 12:00 "
        "(Europe/Paris) : Traffic in : dernière valeur 3 Mbit/s, minimum 1,5 Mbit/s"
    )


def test_the_table_has_a_column_per_channel_and_a_row_per_moment_in_the_time_zone() -> None:
    reading = sensor_reading(_traffic(), "Traffic xe-0/0/20", "2 hours", "fr", "Europe/Paris")
    assert (
        reading.caption == "Traffic xe-0/0/20, 2 hours jusqu'à maintenant (heures en Europe/Paris)"
    )
    assert reading.columns == ["Heure", "Traffic in (Mbit/s)", "Traffic out (Mbit/s)"]
    assert reading.rows[0] == ["15 juil. 2026 10:30", "1,5", "–"]  # no "out" point then
    assert reading.rows[2] == ["15 juil. 2026 11:30", "12,25", "1"]
    assert reading.readouts[2] == (
        "15 juil. 2026 11:30 : Traffic in : 12,25 Mbit/s; Traffic out : 1 Mbit/s"
    )
    assert reading.readouts[0] == "15 juil. 2026 10:30 : Traffic in : 1,5 Mbit/s"
    assert reading.xs == [0.25, 0.5, 0.75, 1.0]
    assert plot_inset(_traffic()) == ("9.00%", "2.00%")


def test_roll_up_spans_give_average_lowest_and_highest() -> None:
    day = datetime(2026, 7, 14, tzinfo=UTC)
    data = ChartData(
        span="last_365_days",
        start=day - timedelta(days=365),
        end=day + timedelta(hours=10),
        channels=[
            ChartChannel(
                name="Round-trip time", unit="ms", at=[day], values=[12.5], lows=[3.0],
                highs=[40.0], last=12.5, minimum=3.0, maximum=40.0, percentile_95=12.5,
            )
        ],
    )  # fmt: skip
    reading = sensor_reading(data, "RTT", "365 days", "en", "Europe/Paris")
    assert reading.columns == [
        "Day",
        "Round-trip time, average (ms)",
        "Round-trip time, lowest (ms)",
        "Round-trip time, highest (ms)",
    ]
    assert reading.rows == [["14 Jul 2026", "12.5", "3", "40"]]
    assert reading.readouts == [
        "14 Jul 2026: Round-trip time: 12.5 ms (lowest 3 ms, highest 40 ms)"
    ]


def test_a_span_without_data_says_so() -> None:
    data = ChartData(span="last_2_hours", start=START, end=END, channels=[ChartChannel(name="x")])
    reading = sensor_reading(data, "X", "2 hours", "en", "")
    assert reading.summary.endswith("(UTC): no data for this period.")
    assert reading.rows == []


def test_the_invoicing_chart_reads_its_months_in_the_users_language() -> None:
    summary = InvoiceSummary(
        months=[
            BilledMonth(month="2026-05", invoiced=Decimal("1200.50"), paid=Decimal("1200.50")),
            BilledMonth(month="2026-06", invoiced=Decimal("80.00"), paid=Decimal("0.00")),
        ]
    )
    english = billing_reading(summary, "en")
    assert english.summary == (
        "From May 2026 to Jun 2026: €1,280.50 invoiced and €1,200.50 paid in all; the most "
        "invoiced month, May 2026: €1,200.50; Jun 2026: €80.00 invoiced, €0.00 paid."
    )
    assert english.columns == ["Month", "Amount invoiced", "Amount paid"]
    assert english.rows[1] == ["Jun 2026", "€80.00", "€0.00"]
    assert english.readouts[1] == "Jun 2026: Amount invoiced: €80.00; Amount paid: €0.00"
    assert english.xs == [0.25, 0.75]
    french = billing_reading(summary, "fr")
    assert french.rows[0] == ["mai 2026", "1\u202f200,50\xa0€", "1\u202f200,50\xa0€"]
    assert french.summary.startswith("De mai 2026 à juin 2026 : 1\u202f280,50\xa0€ facturés")
    assert billing_reading(InvoiceSummary(), "en").summary == "No invoice over the last 24 months."
