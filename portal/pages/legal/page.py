"""The legal notices, the terms of use (spec 2) and the accessibility statement (issue 54):
public pages, in the current language."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.legal.accessibility import ACCESSIBILITY_EN, ACCESSIBILITY_FR
from portal.pages.legal.notices import LEGAL_NOTICES_EN, LEGAL_NOTICES_FR
from portal.pages.legal.terms_en import TERMS_OF_USE_EN
from portal.pages.legal.terms_fr import TERMS_OF_USE_FR
from portal.pages.legal.views import acceptance_bar, acceptance_notice, bilingual_document


@page(routes.LEGAL_NOTICES)
def legal_notices() -> rx.Component:
    return bilingual_document(LEGAL_NOTICES_EN, LEGAL_NOTICES_FR)


@page(routes.TERMS_OF_USE)
def terms_of_use() -> rx.Component:
    return rx.vstack(
        acceptance_notice(),
        bilingual_document(TERMS_OF_USE_EN, TERMS_OF_USE_FR),
        acceptance_bar(),
        spacing="4",
        width="100%",
    )


@page(routes.ACCESSIBILITY)
def accessibility() -> rx.Component:
    return bilingual_document(ACCESSIBILITY_EN, ACCESSIBILITY_FR)
