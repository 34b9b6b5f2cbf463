"""The companies screen: a search by name, then each company with its login policy."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.i18n import _
from portal.pages.companies.state import CompaniesState, CompanyRow


def _search() -> rx.Component:
    return rx.form(
        rx.flex(
            rx.input(
                id="companies-search",
                name="name",
                value=CompaniesState.search,
                on_change=CompaniesState.set_search,
                placeholder=_("Company name"),
                aria_label=_("Company name"),
                max_length=200,
                width="100%",
                max_width="360px",
            ),
            rx.button(rx.icon("search", size=16), _("Search"), type="submit"),
            spacing="2",
            align="center",
        ),
        on_submit=CompaniesState.find,
        reset_on_submit=False,
        width="100%",
    )


def _company(row: ObjectVar[CompanyRow]) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.text(row.name, weight="bold"),
            rx.text(
                rx.flex(
                    rx.switch(
                        checked=row.second_factor_required,
                        on_change=lambda on: CompaniesState.set_required(row.id, on),
                        disabled=CompaniesState.saving_id != "",
                    ),
                    _("Second factor required"),
                    spacing="2",
                    align="center",
                ),
                as_="label",
                size="2",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="start", sm="center"),
            gap="12px",
        ),
        width="100%",
        data_testid="company-row",
    )


def companies_screen() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "With a second factor required, each user of the company must set up an "
                "authenticator app or a passkey before anything else opens. Staff follow "
                "their own rule."
            ),
            color=rx.color("gray", 11),
        ),
        _search(),
        rx.cond(
            CompaniesState.loaded,
            rx.vstack(
                rx.foreach(CompaniesState.rows, _company),
                rx.cond(
                    CompaniesState.total > CompaniesState.rows.length(),
                    rx.text(
                        _(
                            "{shown} of {total} companies: search by name to find the others.",
                            shown=CompaniesState.rows.length().to(str),
                            total=CompaniesState.total_text,
                        ),
                        size="2",
                        color=rx.color("gray", 11),
                    ),
                ),
                spacing="2",
                width="100%",
            ),
            rx.spinner(),
        ),
        spacing="4",
        width="100%",
        max_width="760px",
    )
