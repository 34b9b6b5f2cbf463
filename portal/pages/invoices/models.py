"""The invoicing screen's tiles and chart, written in the user's language (amounts in euros,
spec 9), and the list links the tiles open."""

from datetime import date
from decimal import Decimal

import plotly.graph_objects as go
from babel.dates import format_date

from portal.client.models import InvoiceSummary
from portal.i18n import format_amount, format_locale, gettext, match_language

# Readable on the light and the dark theme alike: the figure is drawn once, for both.
_INK = "#8b8d98"
_GRID = "rgba(139, 141, 152, 0.25)"
_INVOICED, _PAID = "#8e4ec6", "#30a46c"  # Radix purple 9 and green 9: the theme's colours


def billing_chart(summary: InvoiceSummary, language: str) -> go.Figure:
    """Invoiced and paid per month, the last 24 months: bars side by side, months and amounts
    in the user's language."""
    locale = format_locale(language)
    months = [date.fromisoformat(f"{month.month}-01") for month in summary.months]
    labels = [format_date(month, "MMM y", locale=locale) for month in months]
    invoiced_name = gettext(language, "Amount invoiced")
    paid_name = gettext(language, "Amount paid")

    def bars(name: str, values: list[Decimal], color: str) -> go.Bar:
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
            customdata=hover,
            hovertemplate="%{x}<br>%{customdata}<extra></extra>",
        )

    figure = go.Figure(
        [
            bars(invoiced_name, [month.invoiced for month in summary.months], _INVOICED),
            bars(paid_name, [month.paid for month in summary.months], _PAID),
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
