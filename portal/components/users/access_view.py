"""The user form's access section (issue 53): "Access: all services / only these", with the
service picker and the count chosen, for each of the user's companies."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.company_picker import SEARCH_DEBOUNCE_MS
from portal.components.i18n import _
from portal.components.users.access_state import AccessCompany, ServiceChoice
from portal.components.users.form_state import UserFormState
from portal.i18n import N_

Form = type[UserFormState]
ACCESS_HINT = N_(
    "Which services of the company this user sees, with their tickets, maintenances and"
    " sensors. Invoices stay company-wide."
)


def _company_choice(form: Form) -> rx.Component:
    def option(company: ObjectVar[AccessCompany]) -> rx.Component:
        return rx.select.item(company.name, value=company.id)

    return rx.cond(
        form.access_companies.length() > 1,
        rx.select.root(
            rx.select.trigger(aria_label=_("Company"), width="100%"),
            rx.select.content(rx.foreach(form.access_companies, option)),
            value=form.access_company,
            on_change=form.choose_access_company,
        ),
    )


def _mode(form: Form) -> rx.Component:
    return rx.radio_group.root(
        rx.flex(
            rx.text(
                rx.flex(rx.radio_group.item(value="all"), _("All services"), spacing="2"),
                as_="label",
                size="2",
            ),
            rx.text(
                rx.flex(rx.radio_group.item(value="only"), _("Only these services"), spacing="2"),
                as_="label",
                size="2",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            spacing="4",
        ),
        value=rx.cond(form.access_limited, "only", "all"),
        on_change=form.set_access_mode,
        id="user-form-access-mode",
        aria_label=_("Access"),
    )


def _match(form: Form, choice: ObjectVar[ServiceChoice]) -> rx.Component:
    return rx.button(
        rx.flex(
            rx.text(choice.reference, weight="medium"),
            rx.text(choice.label, size="1", color=rx.color("gray", 11)),
            wrap="wrap",
            column_gap="8px",
            align="baseline",
            width="100%",
        ),
        type="button",
        role="option",
        variant="ghost",
        justify="start",
        width="100%",
        height="auto",
        padding_y="4px",
        text_align="left",
        on_click=form.add_access_service(choice),
    )


def _chip(form: Form, choice: ObjectVar[ServiceChoice]) -> rx.Component:
    return rx.badge(
        choice.reference,
        rx.icon_button(
            rx.icon("x", size=12),
            type="button",
            size="1",
            variant="ghost",
            aria_label=_("Remove"),
            on_click=form.remove_access_service(choice.id),
        ),
        title=choice.label,
        variant="soft",
        size="2",
    )


def _picker(form: Form) -> rx.Component:
    return rx.vstack(
        rx.input(
            rx.input.slot(rx.icon("search", size=16)),
            id="user-form-access-search",
            type="search",
            value=form.access_query,
            on_change=form.search_access,
            debounce_timeout=SEARCH_DEBOUNCE_MS,
            placeholder=_("Reference, client reference, label or site"),
            aria_label=_("Search services"),
            auto_complete="off",
            width="100%",
        ),
        rx.cond(
            form.access_matches.length() > 0,
            rx.vstack(
                rx.foreach(form.access_matches, lambda choice: _match(form, choice)),
                role="listbox",
                spacing="1",
                width="100%",
                padding="6px",
                border=f"1px solid {rx.color('gray', 6)}",
                border_radius="var(--radius-3)",
            ),
        ),
        rx.cond(
            form.access_query.length() >= 2,
            rx.button(
                rx.icon("list-plus", size=16),
                _("Add every service found"),
                type="button",
                variant="soft",
                size="2",
                loading=form.access_adding,
                on_click=form.add_all_found,
                id="user-form-access-add-all",
            ),
        ),
        rx.flex(
            rx.text(
                rx.match(
                    form.access_count,
                    (0, _("No service chosen")),
                    (1, _("1 service chosen")),
                    _("{count} services chosen", count=form.access_count),
                ),
                size="2",
                weight="medium",
                data_testid="user-form-access-count",
            ),
            rx.cond(
                form.access_count > 0,
                rx.button(
                    _("Remove all"),
                    type="button",
                    variant="ghost",
                    color_scheme="gray",
                    size="1",
                    on_click=form.clear_access_services,
                ),
            ),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.flex(
            rx.foreach(form.access_chosen_here, lambda choice: _chip(form, choice)),
            rx.cond(
                form.access_more > 0,
                rx.text(_("and {count} more", count=form.access_more), size="1"),
            ),
            wrap="wrap",
            spacing="2",
            width="100%",
        ),
        spacing="2",
        width="100%",
    )


def access_section(form: Form) -> rx.Component:
    """In the form of a user who exists: a limit is saved against the user, so a new user is
    created with every service and limited afterwards, by editing them."""
    return rx.cond(
        form.access_shown & ~form.creating,
        rx.vstack(
            rx.heading(_("Access"), size="3", as_="h3"),
            rx.text(
                _(ACCESS_HINT),
                size="1",
                color=rx.color("gray", 11),
            ),
            _company_choice(form),
            _mode(form),
            rx.cond(form.access_limited, _picker(form)),
            spacing="3",
            width="100%",
            padding_top="8px",
            border_top=f"1px solid {rx.color('gray', 5)}",
            data_testid="user-form-access",
        ),
    )
