"""The invoicing screen's tiles and chart, written in the user's language (amounts in euros,
spec 9), the chart's summary, table and readout (issue 54), and the list links the tiles
open."""

from datetime import date
from decimal import Decimal

import plotly.graph_objects as go
from babel.dates import format_date

from portal.client.models import InvoiceSummary
from portal.components.chart_reader import READOUT, READOUT_VALUE, ChartReading
from portal.i18n import N_, format_amount, format_locale, gettext, match_language

# Readable on the light and the dark theme alike: the figure is drawn once, for both.
_INK = "#8b8d98"
_GRID = "rgba(139, 141, 152, 0.25)"
_INVOICED, _PAID = "#8e4ec6", "#30a46c"  # Radix purple 9 and green 9: the theme's colours
# Both bars reach 3:1 on either theme's card; the text is painted by the page's style sheet in
# the theme's text colour (assets/styles.css), as no one grey reaches 4.5:1 on both.


def billing_chart(summary: InvoiceSummary, language: str) -> go.Figure:
    """Invoiced and paid per month, the last 24 months: bars side by side, months and amounts
    in the user's language."""
    locale = format_locale(language)
    months = [date.fromisoformat(f"{month.month}-01") for month in summary.months]
    labels = [format_date(month, "MMM y", locale=locale) for month in months]
    invoiced_name = gettext(language, "Amount invoiced")
    paid_name = gettext(language, "Amount paid")

    def bars(name: str, values: list[Decimal], color: str, pattern: str) -> go.Bar:
        hover = [
            gettext(
                language,
                "{series}: {amount}",
                series=name,
                amount=format_amount(value, language, summary.currency),
            )
            for value in values
        ]
        return go.Bar(
            name=name,
            x=labels,
            # Plotly draws floats; the amounts it shows on hover are the exact decimals.
            y=[float(value) for value in values],
            marker_color=color,
            marker_pattern_shape=pattern,
            customdata=hover,
            hovertemplate="%{x}<br>%{customdata}<extra></extra>",
        )

    figure = go.Figure(
        [
            bars(invoiced_name, [month.invoiced for month in summary.months], _INVOICED, ""),
            # Hatched: colour is not the only thing telling paid from invoiced (WCAG 1.4.1).
            bars(paid_name, [month.paid for month in summary.months], _PAID, "/"),
        ]
    )
    figure.update_layout(
        template="none",
        barmode="group",
        bargap=0.25,
        separators=", " if match_language(language) == "fr" else ".,",
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        font={"color": _INK},
        # The axes take the room their labels need; the card gives the rest.
        margin={"l": 8, "r": 8, "t": 8, "b": 8},
        transition={"duration": 0},
        legend={"orientation": "h", "x": 0, "y": 1.12},
        yaxis={
            "title": {"text": gettext(language, "Amount incl. tax (€)")},
            "gridcolor": _GRID,
            "zerolinecolor": _GRID,
            "tickformat": ",.0f",
            "automargin": True,
        },
        xaxis={"tickangle": -45, "automargin": True},
        height=320,
    )
    return figure


SUMMARY = N_(
    "From {first} to {last}: {invoiced} invoiced and {paid} paid in all; the most invoiced "
    "month, {top}: {top_amount}; {last}: {last_invoiced} invoiced, {last_paid} paid."
)
NO_MONTHS = N_("No invoice over the last 24 months.")
CAPTION = N_("Invoiced and paid per month, tax included")
MONTH = N_("Month")


def billing_reading(summary: InvoiceSummary, language: str) -> ChartReading:
    """The chart in words and numbers: its summary sentence, its table (month, invoiced,
    paid) and a readout per month, each month at the middle of its bars."""
    locale = format_locale(language)
    months = summary.months
    if not months:
        return ChartReading(summary=gettext(language, NO_MONTHS))
    labels = [
        format_date(date.fromisoformat(f"{month.month}-01"), "MMM y", locale=locale)
        for month in months
    ]

    def amount(value: Decimal) -> str:
        return format_amount(value, language, summary.currency)

    invoiced_name, paid_name = (
        gettext(language, "Amount invoiced"),
        gettext(language, "Amount paid"),
    )
    top = max(range(len(months)), key=lambda i: months[i].invoiced)
    text = gettext(
        language,
        SUMMARY,
        first=labels[0],
        last=labels[-1],
        invoiced=amount(sum((m.invoiced for m in months), Decimal(0))),
        paid=amount(sum((m.paid for m in months), Decimal(0))),
        top=labels[top],
        top_amount=amount(months[top].invoiced),
        last_invoiced=amount(months[-1].invoiced),
        last_paid=amount(months[-1].paid),
    )
    rows = [
        [label, amount(m.invoiced), amount(m.paid)] for label, m in zip(labels, months, strict=True)
    ]
    readouts = [
        gettext(
            language,
            READOUT,
            time=label,
            values="; ".join(
                gettext(language, READOUT_VALUE, name=name, value=value)
                for name, value in ((invoiced_name, invoiced), (paid_name, paid))
            ),
        )
        for label, invoiced, paid in rows
    ]
    return ChartReading(
        summary=text,
        caption=gettext(language, CAPTION),
        columns=[gettext(language, MONTH), invoiced_name, paid_name],
        rows=rows,
        readouts=readouts,
        xs=[(index + 0.5) / len(months) for index in range(len(months))],
    )
