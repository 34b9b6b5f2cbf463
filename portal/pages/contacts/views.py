"""The contacts page (spec 2, Contacts): the four generic contacts, the company choice, then the
sales contacts of the chosen companies and their managers and assistants as cards."""

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from portal.components.company_picker import company_chip, company_matches, company_search
from portal.components.failure import failure_callout
from portal.components.i18n import _
from portal.components.jobs import job_label
from portal.i18n import N_
from portal.pages.contacts.models import ContactCard
from portal.pages.contacts.state import ContactsState
from portal.settings import get_settings

SELECT_AT_LEAST_ONE_ENTRY = N_("Select at least one entry.")  # spec 2: no company chosen
GRID_COLUMNS = rx.breakpoints(initial="1", sm="2", lg="3")


def _generic_contacts() -> rx.Component:
    settings = get_settings()
    generic = (
        ("legal", "scale", N_("Legal"), N_("Contracts, terms and legal notices"),
         settings.contact_legal_email),
        ("invoicing", "receipt-euro", N_("Invoicing"), N_("Invoices, credit notes and payments"),
         settings.contact_invoicing_email),
        ("support", "headset", N_("Support"), N_("Questions about your services"),
         settings.contact_support_email),
        ("ticketing", "ticket", N_("Ticketing"), N_("Follow-up of your support tickets"),
         settings.contact_ticketing_email),
    )  # fmt: skip
    return rx.grid(
        *(
            rx.card(
                rx.hstack(
                    rx.center(
                        rx.icon(icon, size=20, color="white"),
                        background_color=rx.color("purple", 9),
                        border_radius="var(--radius-3)",
                        width="40px",
                        height="40px",
                        flex_shrink="0",
                    ),
                    rx.vstack(
                        rx.heading(_(title), as_="h3", size="3"),
                        rx.text(
                            _(description),
                            size="2",
                            color=rx.color("gray", 11),
                            # On a phone the four cards stay short: the people come sooner.
                            display=rx.breakpoints(initial="none", sm="block"),
                        ),
                        rx.link(
                            address, href=f"mailto:{address}", size="2", word_break="break-all"
                        ),
                        spacing="1",
                        min_width="0",
                    ),
                    spacing="3",
                    align="start",
                ),
                data_testid=f"generic-contact-{key}",
            )
            for key, icon, title, description, address in generic
        ),
        columns=rx.breakpoints(initial="1", sm="2", lg="4"),
        spacing="3",
        width="100%",
    )


def _company_choice() -> rx.Component:
    return rx.vstack(
        rx.text(_("Companies"), as_="label", html_for="contacts-company-search", weight="bold"),
        rx.flex(
            rx.foreach(
                ContactsState.chosen,
                lambda company: company_chip(
                    company.name, ContactsState.remove_company(company.id)
                ),
            ),
            rx.cond(
                ~ContactsState.chose_own_companies,
                rx.button(
                    rx.icon("rotate-ccw", size=14),
                    _("All my companies"),
                    type="button",
                    size="1",
                    variant="ghost",
                    on_click=ContactsState.choose_own_companies,
                ),
            ),
            wrap="wrap",
            spacing="2",
            align="center",
            data_testid="contacts-companies",
        ),
        company_search(
            "contacts-company-search",
            ContactsState.query,
            ContactsState.search,
            _("Add a company"),
            max_width="420px",
        ),
        company_matches(
            ContactsState.matches,
            ContactsState.add_company,
            aria_label=_("Companies"),
            max_width="420px",
        ),
        spacing="2",
        width="100%",
    )


def _line(icon: str, label: rx.Var, text: rx.Var[str], href: rx.Var | str) -> rx.Component:
    return rx.cond(
        text != "",
        rx.hstack(
            rx.icon(icon, size=15, color=rx.color("gray", 10), flex_shrink="0"),
            rx.link(text, href=href, size="2", title=label, word_break="break-all"),
            spacing="2",
            align="center",
        ),
    )


def _card(contact: ObjectVar[ContactCard]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.cond(
                contact.job != "",
                rx.text(
                    job_label(contact.job), size="2", weight="medium", color=rx.color("purple", 11)
                ),
            ),
            rx.heading(contact.full_name, as_="h3", size="4"),
            _line("phone", _("Office phone"), contact.office_phone, contact.office_phone_href),
            _line("smartphone", _("Mobile phone"), contact.mobile_phone, contact.mobile_phone_href),
            _line("mail", _("E-mail"), contact.email, "mailto:" + contact.email),
            rx.cond(
                contact.companies.length() > 0,
                rx.flex(
                    rx.foreach(
                        contact.companies,
                        lambda name: rx.badge(name, variant="surface", color_scheme="green"),
                    ),
                    wrap="wrap",
                    spacing="1",
                    padding_top="4px",
                    aria_label=_("Companies served"),
                ),
            ),
            spacing="2",
            align="start",
        ),
        data_testid="contact-card",
    )


def _cards(cards: ArrayVar, test_id: str) -> rx.Component:
    return rx.grid(
        rx.foreach(cards, _card),
        columns=GRID_COLUMNS,
        spacing="3",
        width="100%",
        data_testid=test_id,
    )


def _failure() -> rx.Component:
    return failure_callout(
        _("The contacts could not be loaded."),
        ContactsState.failure,
        ContactsState.try_again,
        test_id="contacts-failure",
    )


def _people() -> rx.Component:
    return rx.cond(
        ContactsState.chosen.length() == 0,
        rx.callout(
            _(SELECT_AT_LEAST_ONE_ENTRY),
            icon="info",
            color_scheme="amber",
            role="status",
            data_testid="contacts-select-one",
        ),
        rx.cond(ContactsState.failure != "", _failure(), _cards_of_the_choice()),
    )


def _cards_of_the_choice() -> rx.Component:
    return rx.box(
        rx.cond(
            ContactsState.loaded & (ContactsState.sales.length() == 0),
            rx.text(_("No sales contact for these companies."), color=rx.color("gray", 11)),
        ),
        rx.vstack(
            _cards(ContactsState.sales, "sales-contacts"),
            rx.cond(
                ContactsState.further.length() > 0,
                rx.vstack(
                    rx.heading(_("Their managers and assistants"), as_="h2", size="5"),
                    _cards(ContactsState.further, "further-contacts"),
                    spacing="3",
                    width="100%",
                ),
            ),
            spacing="5",
            width="100%",
        ),
        position="relative",
        width="100%",
        aria_busy=ContactsState.loading,
        opacity=rx.cond(ContactsState.loading, "0.5", "1"),
    )


def contacts_page() -> rx.Component:
    return rx.vstack(
        rx.heading(_("Generic contacts"), as_="h2", size="5"),
        _generic_contacts(),
        rx.heading(_("Your sales contacts"), as_="h2", size="5", padding_top="12px"),
        _company_choice(),
        _people(),
        spacing="4",
        width="100%",
    )
