"""The ticket process tab (spec 2, Tickets): the incident-ticket flow and the escalation path,
drawn as inline SVG so the texts come from the catalogs (en, fr) and the colours from the
theme's variables (light and dark); each figure is one narrow column that scales to a phone, and
each box holds its text as HTML (``foreignObject``) so that a longer translation wraps."""

import reflex as rx

from portal.components.i18n import _
from portal.i18n import N_

svg = rx.el.svg
WIDTH, BOX_WIDTH, BOX_HEIGHT, GAP = 320, 290, 60, 26
FLOW = (
    (N_("Incident detected"), N_("Service down or degraded"), "red"),
    (N_("Call the Helpdesk"), N_("Or open a ticket with your service reference"), "purple"),
    (N_("Ticket qualified"), N_("Priority set, ticket number sent to you"), "purple"),
    (N_("Diagnosis and repair"), N_("Updates at each step of the work"), "blue"),
    (N_("Service restored"), N_("We ask you to confirm"), "green"),
    (N_("Ticket closed"), N_("Reason for outage on request"), "gray"),
)
ESCALATION = (
    (N_("Level 1: Helpdesk"), N_("24/7, first response"), "purple"),
    (N_("Level 2: NOC supervisor"), N_("Technical escalation"), "blue"),
    (N_("Level 3: Service delivery manager"), N_("Your named contact"), "amber"),
    (N_("Level 4: Operations director"), N_("Absolute emergencies only"), "red"),
)


def _arrow_marker(marker_id: str) -> rx.Component:
    return svg.defs(
        svg.marker(
            svg.path(d="M0,0 L10,5 L0,10 z", fill="var(--gray-10)"),
            id=marker_id,
            view_box="0 0 10 10",
            ref_x="5",
            ref_y="5",
            marker_width="7",
            marker_height="7",
            orient="auto-start-reverse",
        )
    )


def _step(index: int, title: str, detail: str, color: str, marker_id: str) -> rx.Component:
    x = (WIDTH - BOX_WIDTH) / 2
    y = 8 + index * (BOX_HEIGHT + GAP)
    parts: list[rx.Component] = [
        svg.rect(
            x=str(x),
            y=str(y),
            width=str(BOX_WIDTH),
            height=str(BOX_HEIGHT),
            rx="10",
            fill=f"var(--{color}-3)",
            stroke=f"var(--{color}-8)",
            stroke_width="1.5",
        ),
        # Text in HTML within the figure, so a longer translation wraps inside its box.
        svg.foreign_object(
            rx.el.div(
                rx.el.div(_(title), font_size="14px", font_weight="600"),
                rx.el.div(_(detail), font_size="11.5px", color="var(--gray-11)"),
                display="flex",
                flex_direction="column",
                justify_content="center",
                height="100%",
                padding="2px 10px",
                box_sizing="border-box",
                text_align="center",
                line_height="1.2",
                color="var(--gray-12)",
            ),
            x=str(x),
            y=str(y),
            width=str(BOX_WIDTH),
            height=str(BOX_HEIGHT),
        ),
    ]
    if index:
        parts.insert(
            0,
            svg.line(
                x1=str(WIDTH // 2),
                y1=str(y - GAP + 2),
                x2=str(WIDTH // 2),
                y2=str(y - 4),
                stroke="var(--gray-10)",
                stroke_width="2",
                marker_end=f"url(#{marker_id})",
            ),
        )
    return svg.g(*parts)


def _figure(
    steps: tuple[tuple[str, str, str], ...], marker_id: str, label: rx.Var, test_id: str
) -> rx.Component:
    height = 16 + len(steps) * (BOX_HEIGHT + GAP) - GAP
    return rx.el.svg(
        svg.title(label),
        _arrow_marker(marker_id),
        *(
            _step(i, title, detail, color, marker_id)
            for i, (title, detail, color) in enumerate(steps)
        ),
        view_box=f"0 0 {WIDTH} {height}",
        width="100%",
        max_width="380px",
        role="img",
        aria_label=label,
        font_family="var(--default-font-family)",
        data_testid=test_id,
    )


def _panel(heading: rx.Var, figure: rx.Component) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(heading, as_="h2", size="4"),
            rx.center(figure, width="100%"),
            spacing="3",
            width="100%",
        ),
        width="100%",
    )


def process_tab() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "Report an incident by phoning the Helpdesk, available 24 hours a day, or by "
                "opening a ticket; follow its progress in the Tickets tab."
            ),
            size="3",
        ),
        rx.grid(
            _panel(
                _("Incident ticket flow"),
                _figure(FLOW, "flow-arrow", _("Incident ticket flow"), "process-flow"),
            ),
            _panel(
                _("Escalation path"),
                _figure(ESCALATION, "escalation-arrow", _("Escalation path"), "escalation-path"),
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="4",
            width="100%",
        ),
        rx.callout(
            _(
                "In absolute emergencies, after phoning the Helpdesk, the request can be "
                "escalated along the escalation path."
            ),
            icon="siren",
            color_scheme="amber",
            data_testid="escalation-note",
        ),
        spacing="4",
        width="100%",
    )
